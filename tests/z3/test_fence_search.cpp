// The enumeration engine decides the Fence-SC order by search
// (memmodel/fence_sc.hpp); it must report exactly the executions, with the
// same counts, that trying every Fence-SC order reports (make_enum_perm_engine),
// and that the Z3 engine reports. Fence-heavy random Skeletons: 2-4 threads,
// fence.sc of mixed scopes between most operations, threads in two CTAs (so
// some fence pairs are not morally strong), weak and strong writes (so some
// write pairs are ordered only by causality), atomics and barriers.
#include <catch2/catch.hpp>

#include <random>

#include "tests/memmodel/skel_builder.hpp"
#include "tests/z3/z3_shapes.hpp"

using namespace ptxcheck::mm;
using namespace ptxcheck::mm::z3test;

namespace {

Skeleton fence_heavy(uint32_t seed) {
  std::mt19937 rng(seed);
  auto pick = [&](int n) { return int(rng() % uint32_t(n)); };
  test::SkelBuilder b;
  std::vector<int> locs{b.loc("x"), b.loc("y")};
  if (pick(2)) locs.push_back(b.loc("z"));
  std::vector<int> next_value(locs.size(), 1);
  const Scope scopes[] = {Scope::CTA, Scope::GPU, Scope::Sys};
  const int nthreads = 2 + pick(3);
  for (int t = 0; t < nthreads; ++t) {
    const int p = b.thread(pick(2));
    const int nops = 1 + pick(3);
    for (int i = 0; i < nops; ++i) {
      if (i > 0 || pick(3) == 0) b.fence(p, pick(4) ? Order::SC : Order::AcqRel, scopes[1 + pick(2) - (pick(4) == 0)]);
      const int li = pick(int(locs.size()));
      const int k = pick(8);
      const Scope sc = scopes[pick(3)];
      if (k < 3) b.st(p, locs[li], next_value[li]++, pick(3) ? Order::Relaxed : Order::Weak, sc);
      else if (k < 6) b.ld(p, locs[li], uint64_t(pick(2) ? 0 : 1 + pick(next_value[li])), pick(3) ? Order::Relaxed : Order::Weak, sc);
      else if (k < 7) b.rmw(p, locs[li], uint64_t(pick(2)), next_value[li]++, Order::Relaxed, sc);
      else b.bar(p, 0, BarrierOp::Sync);
    }
  }
  return b.build();
}

// Readings under which Fence-SC matters differently (PTX6 also checks it on
// fences in causality).
std::vector<std::pair<std::string, Model>> readings() {
  std::vector<std::pair<std::string, Model>> out;
  for (ModelKind k : {ModelKind::PTX75, ModelKind::PTX6}) {
    Model m;
    m.kind = k;
    out.push_back({"kind" + std::to_string(int(k)), m});
  }
  Model v75;
  v75.observation_through_rmw = false;
  v75.sc_per_location = false;
  out.push_back({"dat3m-v7.5", v75});
  Model nosc;
  nosc.fence_sc_is_acq_rel = false;
  out.push_back({"fence.sc-not-acq_rel", nosc});
  return out;
}

}  // namespace

TEST_CASE("Fence-SC search equals trying every order, and agrees with z3", "[fencesearch]") {
  uint64_t executions = 0;
  int with_fences = 0;
  for (uint32_t seed = 1; seed <= 400; ++seed) {
    const Skeleton s = fence_heavy(seed);
    int sc = 0;
    for (const Event& e : s.events) sc += e.kind == EventKind::Fence && e.order == Order::SC;
    with_fences += sc >= 3;
    for (const auto& [name, m] : readings()) {
      INFO("seed " << seed << " / " << name);
      const Run search = run_engine("enum", s, m);
      const Run orders = run_engine("enum-perm", s, m);
      CHECK(search.count == search.keys.size());
      CHECK(search.count == orders.count);
      CHECK(search.keys == orders.keys);
      if (seed % 3 == 0) CHECK(run_engine("z3", s, m).keys == search.keys);
      executions += search.count;
    }
  }
  CHECK(with_fences > 150);
  CHECK(executions > 1000);
}

TEST_CASE("Fence-SC search: SB rings keep exactly the all-zero outcome out", "[fencesearch]") {
  for (int n = 2; n <= 6; ++n) {
    test::SkelBuilder b;
    std::vector<int> x;
    for (int i = 0; i < n; ++i) x.push_back(b.loc("x" + std::to_string(i)));
    for (int i = 0; i < n; ++i) {
      const int p = b.thread(i);
      b.st(p, x[i], 1, Order::Relaxed, Scope::GPU);
      b.fence(p, Order::SC, Scope::GPU);
      b.ld(p, x[(i + 1) % n], 0, Order::Relaxed, Scope::GPU);
    }
    INFO("ring of " << n);
    CHECK(run_engine("enum", b.build(), Model{}).count == 0);
  }
}
