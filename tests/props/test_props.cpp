// Properties over random cycle-based litmus tests (litmus_gen.hpp):
//  [props-litmus-print]  print -> parse is the identity in both dialects
//  [props-engines]       the Z3 and enumeration engines permit the same outcomes;
//                        the symmetry and private-location reductions change nothing
//  [props-monotone]      weakening never removes outcomes, strengthening never
//                        adds any (transform.hpp), SC outcomes are PTX outcomes
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>

#include "memmodel/enum_engine.hpp"
#include "semantics/litmus/check.hpp"
#include "semantics/litmus/transform.hpp"
#include "tests/props/props_check.hpp"

using namespace ptxcheck;
using namespace ptxcheck::litmus;
using namespace ptxcheck::props;

namespace {

bool has_warp(const Test& t) {
  for (const auto& th : t.threads)
    if (th.place.warp >= 0) return true;
  return false;
}

std::string show(const std::set<std::string>& s) {
  std::string r;
  for (const auto& x : s) r += "  " + x + "\n";
  return r;
}

// a \ b, shown.
std::string missing(const std::set<std::string>& a, const std::set<std::string>& b) {
  std::string r;
  for (const auto& x : a)
    if (!b.count(x)) r += "  " + x + "\n";
  return r;
}

// What two checks of one test that must agree are compared on: verdict,
// counts, states and witness states with their rf; `threads` adds the
// witness Skeleton's thread names, `orders` the witness's co, Fence-SC order
// and final writes.
struct Shown {
  bool threads = false, orders = false;
};
std::string results_text(const CheckResult& r, Shown show) {
  std::string s = "ok=" + std::to_string(r.ok) + " +" + std::to_string(r.positive) + " -" +
                  std::to_string(r.negative) + " executions=" + std::to_string(r.executions) + "\n";
  for (const auto& st : r.states) s += "  " + st.text + " x" + std::to_string(st.count) + (st.satisfies ? " *\n" : "\n");
  for (const auto* w : {&r.positive_witness, &r.negative_witness}) {
    s += "  witness: ";
    if (*w) {
      s += (*w)->state + " rf";
      for (int x : (*w)->execution.rf) s += " " + std::to_string(x);
      if (show.orders) {
        s += " co";
        for (auto [x, y] : (*w)->execution.co) s += " " + std::to_string(x) + "<" + std::to_string(y);
        s += " fsc";
        for (int x : (*w)->execution.fsc) s += " " + std::to_string(x);
        s += " final";
        for (int x : (*w)->execution.final_write) s += " " + std::to_string(x);
      }
      if (show.threads) {
        s += " threads";
        for (const auto& th : (*w)->skeleton.threads) s += " " + th.name;
      }
    }
    s += "\n";
  }
  return s;
}

}  // namespace

TEST_CASE("generated tests print and parse back", "[props-litmus-print]") {
  check("native and Dat3M round trip", 300, [] {
    GenOptions opt;
    opt.warps = *rc::gen::arbitrary<bool>();
    Test t = *gen_test(opt);
    const std::string native = print_native(t);
    Test back = parse_litmus_text(native, "gen.litmus");  // also checks dialect detection
    RC_ASSERT(test_difference(t, back) == "");
    if (has_warp(t)) {
      RC_ASSERT_THROWS_AS(print_dat3m(t), InputError);
    } else {
      const std::string dat3m = print_dat3m(t);
      Test back2 = parse_litmus_text(dat3m, "gen.litmus");
      RC_ASSERT(test_difference(t, back2) == "");
    }
  });
}

TEST_CASE("Z3 and enumeration engines permit the same outcomes", "[props-engines]") {
  auto z3 = mm::make_z3_engine();
  auto en = mm::make_enum_engine();
  int tests = 0, outcomes_seen = 0;
  check("same outcome sets", 2000, [&] {
    GenOptions opt;  // small enough that 2,000 fit the CI budget (Z3 costs ~3 ms a test)
    opt.max_threads = 3;
    opt.max_writes_per_loc = scale() > 1 ? 3 : 2;
    opt.max_accesses = scale() > 1 ? 8 : 6;
    opt.warps = false;
    Test t = *gen_test(opt);
    mm::Model m;  // every model and reading of docs/model-notes.md
    m.kind = *rc::gen::element(mm::ModelKind::PTX75, mm::ModelKind::PTX75, mm::ModelKind::PTX6, mm::ModelKind::SC);
    if (*rc::gen::inRange(0, 4) == 0) {
      m.fence_sc_is_acq_rel = *rc::gen::arbitrary<bool>();
      m.observation_through_rmw = *rc::gen::arbitrary<bool>();
      m.reductions_acquire = *rc::gen::arbitrary<bool>();
      m.sc_per_location = *rc::gen::arbitrary<bool>();
    }
    auto a = outcomes(t, *z3, m), b = outcomes(t, *en, m);
    RC_LOG() << "z3:\n" << show(a) << "enum:\n" << show(b);
    RC_ASSERT(a == b);
    ++tests;
    outcomes_seen += static_cast<int>(a.size());
  });
  std::printf("props-engines: %d random litmus tests, %d permitted outcomes, Z3 == enumeration\n", tests,
              outcomes_seen);
  CHECK(tests >= 2000);
}

// Symmetry between identical threads (semantics/litmus/check.cpp,
// docs/model-notes.md): a random test with one thread copied (same place,
// a CTA of its own, or another cluster) must give the same states, counts,
// verdict and witnesses with the reduction as with every combination.
TEST_CASE("the symmetry reduction keeps states, counts and witnesses", "[props-engines]") {
  auto en = mm::make_enum_engine();
  int tests = 0, reduced = 0;
  check("symmetry on == off", 100, [&] {
    GenOptions opt;  // small: the copies multiply the combinations decided without the reduction
    opt.max_threads = 2;
    opt.max_writes_per_loc = 2;
    opt.max_accesses = 4;
    Test t = *gen_test(opt);
    const size_t k = *rc::gen::inRange<size_t>(0, t.threads.size());
    const int copies = *rc::gen::inRange(1, 3);  // one or two
    for (int c = 0; c < copies; ++c) {
      Thread th = t.threads[k];
      switch (*rc::gen::inRange(0, 3)) {
        case 0: break;                                        // same place
        case 1: th.place.cta = 1000 + c; break;               // a CTA of its own, same cluster
        default: th.place.cta = th.place.cluster = 2000 + c;  // a cluster of its own
      }
      th.place.name = "P" + std::to_string(t.threads.size());
      t.threads.push_back(th);
    }
    if (*rc::gen::arbitrary<bool>()) t.cond = Cond{};  // show every register, copies included
    mm::Model m;
    m.kind = *rc::gen::element(mm::ModelKind::PTX75, mm::ModelKind::PTX6, mm::ModelKind::SC);
    Program p = lower(t);
    CheckOptions on, off;
    on.model = off.model = m;
    off.symmetry = false;
    const CheckResult a = litmus::check(p, *en, on), b = litmus::check(p, *en, off);
    auto dump = [](const CheckResult& r) { return results_text(r, {.threads = true}); };
    RC_LOG() << "with symmetry:\n" << dump(a) << "every combination:\n" << dump(b);
    RC_ASSERT(dump(a) == dump(b));
    ++tests;
    reduced += a.skeletons < b.skeletons;
  });
  std::printf("props-engines: %d tests with copied threads, %d decided fewer combinations, same results\n", tests,
              reduced);
  CHECK(reduced > 0);  // the reduction is exercised, not vacuous
}

namespace {

// The enumeration engine with the private-location reduction, counting the
// trace combinations where it removed a candidate write of some read.
class CutProbe : public mm::Engine {
 public:
  std::string name() const override { return "enum"; }
  mm::EngineStats enumerate(const mm::Skeleton& s, const mm::Model& m, const mm::Limits& lim,
                            const mm::Visitor& visit) override {
    const std::vector<int> src = mm::private_read_sources(s, m);
    bool cut = false;
    for (size_t r = 0; r < src.size() && !cut; ++r) {
      if (src[r] == -2) continue;
      const mm::Event& er = s.events[r];
      for (size_t w = 0; w < s.events.size() && !cut; ++w) {
        const mm::Event& ew = s.events[w];
        const bool write = ew.kind == mm::EventKind::Write || ew.kind == mm::EventKind::Init;
        cut = write && static_cast<int>(w) != src[r] && static_cast<int>(w) != er.rmw_pair &&
              s.physical(static_cast<int>(w)) == s.physical(static_cast<int>(r)) && ew.value == er.value;
      }
    }
    cuts += cut;
    return engine->enumerate(s, m, lim, visit);
  }
  std::unique_ptr<mm::Engine> engine = mm::make_enum_engine(mm::EnumOptions{});
  int cuts = 0;
};

}  // namespace

// Locations no two threads share (memmodel/enum_engine.cpp,
// docs/model-notes.md): a random test with a location `p` accessed by one
// thread (stores, loads and atoms of random orders and scopes, at random
// places in its code; sometimes also by a second thread, where the
// reduction must not apply) gives the same states, counts and witnesses
// with the reduction as without, under every model and reading.
TEST_CASE("the private-location reduction keeps states, counts and witnesses", "[props-engines]") {
  CutProbe on;
  mm::EnumOptions no;
  no.private_locations = false;
  auto off = mm::make_enum_engine(no);
  int tests = 0, cut = 0;
  check("private locations on == off", 300, [&] {
    GenOptions opt;
    opt.max_threads = 3;
    opt.max_writes_per_loc = 2;
    opt.max_accesses = 5;
    opt.warps = false;
    Test t = *gen_test(opt);
    LocDecl p;
    p.name = "p";
    p.init = *rc::gen::inRange<uint64_t>(0, 2);
    t.locs.push_back(p);
    const mm::Order orders[] = {mm::Order::Weak, mm::Order::Relaxed, mm::Order::Acquire, mm::Order::Release,
                                mm::Order::AcqRel};
    const mm::Scope scopes[] = {mm::Scope::CTA, mm::Scope::Cluster, mm::Scope::GPU, mm::Scope::Sys};
    const size_t owner = *rc::gen::inRange<size_t>(0, t.threads.size());
    const bool shared = *rc::gen::inRange(0, 4) == 0;
    const int accesses = *rc::gen::inRange(1, 6);
    int nreg = 0;
    for (int a = 0; a < accesses; ++a) {
      const size_t th = shared && a == accesses - 1 ? (owner + 1) % t.threads.size() : owner;
      Instr in;
      in.loc = "p";
      in.order = orders[*rc::gen::inRange(0, 5)];
      in.scope = in.order == mm::Order::Weak ? mm::Scope::Sys : scopes[*rc::gen::inRange(0, 4)];
      const uint64_t v = *rc::gen::inRange<uint64_t>(0, 3);
      switch (*rc::gen::inRange(0, 4)) {
        case 0:
          in.kind = InstrKind::Store;
          if (in.order == mm::Order::Acquire || in.order == mm::Order::AcqRel) in.order = mm::Order::Release;
          in.args = {Operand{false, "", v}};
          break;
        case 1:
        case 2:
          in.kind = InstrKind::Load;
          if (in.order == mm::Order::Release || in.order == mm::Order::AcqRel) in.order = mm::Order::Acquire;
          in.dst = "rp" + std::to_string(nreg++);
          break;
        default:
          in.kind = InstrKind::Rmw;
          if (in.order == mm::Order::Weak) in.order = mm::Order::Relaxed, in.scope = mm::Scope::GPU;
          in.op = AluOp::Exch;  // values stay in {0, 1, 2} (an add would grow the traces' value sets)
          in.args = {Operand{false, "", v}};
          in.dst = "rp" + std::to_string(nreg++);
          break;
      }
      auto& code = t.threads[th].code;
      code.insert(code.begin() + static_cast<std::ptrdiff_t>(*rc::gen::inRange<size_t>(0, code.size() + 1)), in);
    }
    if (*rc::gen::arbitrary<bool>()) t.cond = Cond{};  // show every register
    mm::Model m;
    m.kind = *rc::gen::element(mm::ModelKind::PTX75, mm::ModelKind::PTX6, mm::ModelKind::SC);
    if (*rc::gen::inRange(0, 3) == 0) {
      m.fence_sc_is_acq_rel = *rc::gen::arbitrary<bool>();
      m.observation_through_rmw = *rc::gen::arbitrary<bool>();
      m.reductions_acquire = *rc::gen::arbitrary<bool>();
      m.sc_per_location = *rc::gen::arbitrary<bool>();
    }
    Program prog = lower(t);
    CheckOptions co;
    co.model = m;
    const int before = on.cuts;
    const CheckResult a = litmus::check(prog, on, co), b = litmus::check(prog, *off, co);
    auto dump = [](const CheckResult& r) { return results_text(r, {.orders = true}); };
    RC_LOG() << "with the reduction:\n" << dump(a) << "without:\n" << dump(b);
    RC_ASSERT(dump(a) == dump(b));
    ++tests;
    cut += on.cuts > before;
  });
  std::printf("props-engines: %d tests with a private location, %d where the reduction cut candidates, same results\n",
              tests, cut);
  CHECK(cut > 0);  // the reduction is exercised, not vacuous
}

TEST_CASE("the model is monotone under program changes", "[props-monotone]") {
  auto en = mm::make_enum_engine();
  std::map<Change, std::pair<int, int>> seen;  // per change: tests, tests whose outcomes moved
  check("weakening adds, strengthening removes outcomes", 800, [&] {
    GenOptions opt;
    opt.max_threads = 3;
    opt.strong = *rc::gen::arbitrary<bool>();  // strong tests: fences and scopes matter more often
    Test t = *gen_test(opt);
    Change k = *rc::gen::elementOf(all_changes());
    auto ms = mutations(t, k);
    RC_PRE(!ms.empty());
    Mutation mu = ms[*rc::gen::inRange<size_t>(0, ms.size())];
    Test u = apply(t, mu);
    mm::Model m;
    auto before = outcomes(t, *en, m), after = outcomes(u, *en, m);
    RC_LOG() << mu.describe() << "\nbefore:\n" << show(before) << "after:\n" << show(after);
    if (weakens(k)) RC_ASSERT(missing(before, after) == "");
    else RC_ASSERT(missing(after, before) == "");
    ++seen[k].first;
    seen[k].second += before != after;
  });
  int total = 0;
  for (const auto& [k, n] : seen) {
    std::printf("props-monotone: %-10s %4d mutated tests, %4d changed the outcomes\n", change_name(k), n.first,
                n.second);
    total += n.first;
    CHECK(n.second > 0);  // each change matters somewhere: the property is not vacuous
  }
  CHECK(total >= 800);
}

TEST_CASE("SC outcomes are PTX outcomes", "[props-monotone]") {
  auto en = mm::make_enum_engine();
  int checked = 0, strict = 0;
  check("SC is a subset of PTX", 400, [&] {
    Test t = *gen_test(GenOptions{});
    mm::Model sc, ptx;
    sc.kind = mm::ModelKind::SC;
    auto s = outcomes(t, *en, sc), p = outcomes(t, *en, ptx);
    RC_LOG() << "SC:\n" << show(s) << "PTX:\n" << show(p);
    RC_ASSERT(missing(s, p) == "");
    RC_ASSERT(!s.empty());  // SC always has an execution (the program has no loops)
    ++checked;
    strict += s != p;
  });
  std::printf("props-monotone: %d SC-vs-PTX tests, %d with outcomes SC forbids\n", checked, strict);
  CHECK(strict > 0);
}

TEST_CASE("every change of the hand-written tests is monotone", "[props-monotone]") {
  // The classic shapes of litmus/ and corpus/spec/, where fences and scopes
  // decide the verdict: every mutation of every kind.
  auto en = mm::make_enum_engine();
  mm::Model m;
  int checked = 0, moved = 0;
  // With PTXCHECK_PROPS_LONG=1 also the Dat3M corpus (minutes).
  std::vector<std::string> dirs{props::src_root() + "/litmus", props::src_root() + "/corpus/spec"};
  if (scale() > 1) dirs.push_back(props::shared_root() + "/corpus/dat3m-ptx/litmus");
  for (const auto& dir : dirs) {
    std::vector<std::string> files;
    if (!std::filesystem::is_directory(dir)) continue;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
      if (e.path().extension() == ".litmus") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      Test t = parse_litmus_file(f);
      auto before = outcomes(t, *en, m);
      for (Change k : all_changes())
        for (const Mutation& mu : mutations(t, k)) {
          INFO(f << ": " << mu.describe());
          auto after = outcomes(apply(t, mu), *en, m);
          if (weakens(k)) CHECK(missing(before, after) == "");
          else CHECK(missing(after, before) == "");
          ++checked;
          moved += before != after;
        }
    }
  }
  std::printf("props-monotone: %d mutants of hand-written tests, %d changed the outcomes\n", checked, moved);
  CHECK(moved > 0);
}
