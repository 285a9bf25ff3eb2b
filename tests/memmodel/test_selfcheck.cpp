// Engine self-consistency on random small Skeletons, for every model kind:
//  - every execution the engine reports satisfies every axiom
//    (violated_axioms is empty for it), and
//  - a brute force over all rf and all total coherence orders finds no
//    consistent candidate (violated_axioms empty) whose reads-from and final
//    values the engine missed: pruning never rejects a consistent candidate.
#include <catch2/catch.hpp>

#include <random>
#include <set>

#include "memmodel/relations.hpp"
#include "parser/diagnostic.hpp"
#include "memmodel/static_relations.hpp"
#include "tests/memmodel/skel_builder.hpp"

using namespace ptxcheck::mm;
using namespace ptxcheck::mm::test;

namespace {

Skeleton random_skeleton(std::mt19937& g) {
  auto pick = [&](int n) { return static_cast<int>(g() % static_cast<unsigned>(n)); };
  SkelBuilder b;
  const int nloc = 1 + pick(2);
  std::vector<int> locs;
  for (int l = 0; l < nloc; ++l) locs.push_back(b.loc("v" + std::to_string(l)));
  if (pick(4) == 0) locs.push_back(b.loc("alias", 0, locs[0]));
  if (pick(4) == 0) locs.push_back(b.loc("surf", 0, locs[0], Proxy::Surface));
  const int nthreads = 2 + pick(2);
  const Order orders[] = {Order::Weak, Order::Relaxed, Order::Acquire, Order::Release};
  const Scope scopes[] = {Scope::CTA, Scope::GPU, Scope::Sys};
  for (int t = 0; t < nthreads; ++t) {
    int th = b.thread(pick(2));
    const int nops = 1 + pick(3);
    for (int i = 0; i < nops; ++i) {
      const int l = locs[pick(static_cast<int>(locs.size()))];
      const Scope sc = scopes[pick(3)];
      switch (pick(7)) {
        case 0:
        case 1: {
          Order o = orders[pick(4)];
          if (o == Order::Acquire) o = Order::Relaxed;
          b.st(th, l, 1 + pick(2), o, sc);
          break;
        }
        case 2:
        case 3: {
          Order o = orders[pick(4)];
          if (o == Order::Release) o = Order::Acquire;
          b.ld(th, l, pick(3), o, sc);
          break;
        }
        case 4: b.rmw(th, l, pick(3), 1 + pick(2), orders[1 + pick(3)], sc, pick(4) == 0); break;
        case 5: b.fence(th, pick(2) ? Order::SC : Order::AcqRel, sc); break;
        default:
          if (pick(2)) b.bar(th, 1);
          else b.pfence(th, pick(2) ? ProxyFenceKind::Alias : ProxyFenceKind::Surface);
      }
    }
  }
  return b.build();
}

using Outcome = std::pair<std::vector<int>, std::vector<int>>;  // rf, final values

std::vector<int> final_values(const Skeleton& s, const std::vector<int>& fw) {
  std::vector<int> out;
  for (int w : fw) out.push_back(w < 0 ? -1 : static_cast<int>(s.events[w].value));
  return out;
}

void brute_force(const Skeleton& s, const Model& m, const std::set<Outcome>& reported, int& consistent) {
  const StaticRelations st = build_static(s, m);
  const std::vector<int> reads = st.reads.elements();
  std::vector<std::vector<int>> cands;
  for (int r : reads) {
    std::vector<int> c;
    for (int w : st.writes.elements())
      if (s.physical(w) == s.physical(r) && s.events[w].value == s.events[r].value && w != s.events[r].rmw_pair &&
          (!st.init.has(w) || st.init_of_physical[s.physical(w)] == w))
        c.push_back(w);
    cands.push_back(c);
  }
  Model total = m;
  total.kind = ModelKind::SC;
  const auto pairs = must_order_pairs(st, total);  // all same-location pairs
  const Relation init_co = forced_coherence(s, st, Relation(st.n));
  std::vector<int> rf(s.events.size(), -1);
  std::function<void(size_t)> go = [&](size_t i) {
    if (i == reads.size()) {
      enumerate_coherence(init_co, pairs, [&](const Relation& co) {
        Execution ex;
        ex.rf = rf;
        ex.co = co.pairs();
        if (!violated_axioms(s, m, ex).empty()) return true;
        ++consistent;
        std::vector<int> fw;
        for (const auto& c : final_write_candidates(s, st, co)) fw.push_back(c.empty() ? -1 : c[0]);
        CHECK(reported.count({rf, final_values(s, fw)}) == 1);
        return true;
      });
      return;
    }
    for (int w : cands[i]) {
      rf[reads[i]] = w;
      go(i + 1);
    }
    rf[reads[i]] = -1;
  };
  go(0);
}

}  // namespace

TEST_CASE("reported executions are consistent; consistent candidates are reported", "[selfcheck]") {
  std::mt19937 g(2024);
  int total_reported = 0, total_consistent = 0;
  for (int iter = 0; iter < 150; ++iter) {
    const Skeleton s = random_skeleton(g);
    for (ModelKind k : {ModelKind::PTX75, ModelKind::PTX6, ModelKind::SC}) {
      const Model m = model(k);
      std::set<Outcome> reported;
      for (const Execution& ex : run(s, m).all) {
        INFO("iteration " << iter << " model " << static_cast<int>(k));
        CHECK(violated_axioms(s, m, ex).empty());
        reported.insert({ex.rf, final_values(s, ex.final_write)});
        ++total_reported;
      }
      brute_force(s, m, reported, total_consistent);
    }
  }
  // The generator must produce both consistent and inconsistent programs.
  CHECK(total_reported > 50);
  CHECK(total_consistent > 50);
}

TEST_CASE("violated_axioms names the axiom a forbidden candidate breaks", "[selfcheck]") {
  // MP with release/acquire, stale data read: Causality (8.10.6).
  SkelBuilder b;
  int x = b.loc("x"), f = b.loc("flag");
  int p0 = b.thread(), p1 = b.thread();
  b.st(p0, x, 1);
  b.st(p0, f, 1, Order::Release, Scope::GPU);
  b.ld(p1, f, 1, Order::Acquire, Scope::GPU);
  b.ld(p1, x, 0);
  const Skeleton s = b.build();
  Execution ex;
  ex.rf.assign(s.events.size(), -1);
  ex.rf[b.id(p1, 0)] = b.id(p0, 1);
  ex.rf[b.id(p1, 1)] = 0;  // the initial write of x
  ex.co = {{0, b.id(p0, 0)}, {1, b.id(p0, 1)}};
  const auto v = violated_axioms(s, Model{}, ex);
  REQUIRE(v.size() == 1);
  CHECK(v[0] == "Causality (PTX ISA 8.10.6)");
  // The same candidate under SC breaks the single total order.
  CHECK(violated_axioms(s, model(ModelKind::SC), ex) ==
        std::vector<std::string>{"Sequential consistency (one total order)"});
  // A coherence order against program order breaks Coherence (8.10.1).
  SkelBuilder c;
  int y = c.loc("y");
  int q0 = c.thread();
  c.st(q0, y, 1);
  c.st(q0, y, 2);
  const Skeleton t = c.build();
  Execution bad;
  bad.rf.assign(t.events.size(), -1);
  bad.co = {{0, c.id(q0, 0)}, {0, c.id(q0, 1)}, {c.id(q0, 1), c.id(q0, 0)}};
  const auto w = violated_axioms(t, Model{}, bad);
  REQUIRE_FALSE(w.empty());
  CHECK(w[0] == "Coherence (PTX ISA 8.10.1)");
}

TEST_CASE("limits end the enumeration with LimitError", "[selfcheck]") {
  SkelBuilder b;
  int x = b.loc("x");
  for (int t = 0; t < 4; ++t) {
    int p = b.thread();
    for (int i = 0; i < 3; ++i) {
      b.st(p, x, 1 + (t + i) % 2);
      b.ld(p, x, 1 + i % 2);
    }
  }
  const Skeleton s = b.build();
  auto eng = make_enum_engine();
  Limits tiny;
  tiny.timeout_s = 1e-9;
  CHECK_THROWS_AS(eng->enumerate(s, Model{}, tiny, [](const Execution&) { return true; }), ptxcheck::LimitError);
  Limits cap;
  cap.max_executions = 1;
  CHECK_THROWS_AS(eng->enumerate(s, Model{}, cap, [](const Execution&) { return true; }), ptxcheck::LimitError);
  // Stopping from the visitor is not an error.
  uint64_t seen = 0;
  eng->enumerate(s, Model{}, {}, [&](const Execution&) { return ++seen < 2; });
  CHECK(seen == 2);
}
