// The Z3 engine on the classic shapes, asserting the verdicts PTX ISA 9.2
// chapter 8 states (section cited per test). A Skeleton fixes the value
// each read returns, so "allowed" means some consistent execution exists.
#include <catch2/catch.hpp>

#include "tests/z3/z3_shapes.hpp"

using namespace ptxcheck::mm;
using namespace ptxcheck::mm::z3test;

namespace {
const ModelKind kAll[] = {ModelKind::PTX75, ModelKind::PTX6, ModelKind::SC};
}

TEST_CASE("z3 MP: release/acquire patterns forbid stale data (8.8, 8.9.4, 8.10.6)", "[mp]") {
  for (ModelKind k : kAll) CHECK_FALSE(allowed(mp(Order::Release, Order::Acquire, Scope::GPU), model(k)));
  CHECK(allowed(mp(Order::Relaxed, Order::Relaxed, Scope::GPU)));
  CHECK(allowed(mp(Order::Release, Order::Relaxed, Scope::GPU)));
  CHECK(allowed(mp(Order::Relaxed, Order::Acquire, Scope::GPU)));
  CHECK_FALSE(allowed(mp(Order::Relaxed, Order::Relaxed, Scope::GPU), model(ModelKind::SC)));
  // 8.7: .cta operations in different CTAs are not morally strong.
  CHECK(allowed(mp(Order::Release, Order::Acquire, Scope::CTA, 1)));
  CHECK_FALSE(allowed(mp(Order::Release, Order::Acquire, Scope::CTA, 0)));
  // 8.10.6 Litmus Test MP: fence; relaxed flag on both sides.
  CHECK_FALSE(allowed(mp_fences(Order::SC, Order::Relaxed)));
  CHECK_FALSE(allowed(mp_fences(Order::AcqRel, Order::Relaxed)));
  CHECK(allowed(mp_fences(Order::AcqRel, Order::Weak)));  // weak flag: no pattern
}

TEST_CASE("z3 SB: only fence.sc forbids both stale reads (8.10.6 Litmus Test SB)", "[sb]") {
  CHECK(allowed(sb(Order::Weak)));
  CHECK(allowed(sb(Order::AcqRel)));
  for (ModelKind k : kAll) CHECK_FALSE(allowed(sb(Order::SC), model(k)));
  CHECK_FALSE(allowed(sb(Order::Weak), model(ModelKind::SC)));
  // 8.9.3: fence.sc.cta in different CTAs are not morally strong.
  CHECK(allowed(sb(Order::SC, Scope::CTA, 1)));
}

TEST_CASE("z3 LB: allowed without dependencies, thin air forbidden (8.10.4)", "[lb]") {
  CHECK(allowed(lb(false)));
  CHECK(allowed(lb(false), model(ModelKind::PTX6)));
  CHECK_FALSE(allowed(lb(false), model(ModelKind::SC)));
  for (ModelKind k : kAll) CHECK_FALSE(allowed(lb(true), model(k)));
}

TEST_CASE("z3 IRIW: relaxed readers may disagree; fence.sc makes them agree", "[iriw]") {
  CHECK(allowed(iriw(Order::Weak)));
  CHECK(allowed(iriw(Order::AcqRel)));
  CHECK_FALSE(allowed(iriw(Order::SC)));
  CHECK_FALSE(allowed(iriw(Order::Weak), model(ModelKind::SC)));
}

TEST_CASE("z3 CoRR: morally strong reads respect coherence (8.10.5)", "[corr]") {
  for (ModelKind k : kAll) CHECK_FALSE(allowed(corr(Order::Relaxed), model(k)));
  // Weak reads are not morally strong with the write of another thread.
  CHECK(allowed(corr(Order::Weak)));
}

TEST_CASE("z3 2+2W: final x==1 && y==1 needs a coherence cycle with po", "[2+2w]") {
  // x == 1 and y == 1 finally: both first stores are co-last.
  auto both_first_last = [](const Skeleton& s, const Model& m) {
    const Run r = run_engine("z3", s, m);
    for (const Key& k : r.keys) {
      const auto& fw = std::get<2>(k);
      if (s.events[fw[0]].value == 1 && s.events[fw[1]].value == 1) return true;
    }
    return false;
  };
  CHECK(both_first_last(two_two_w(Order::Relaxed), model(ModelKind::PTX75)));
  CHECK_FALSE(both_first_last(two_two_w(Order::Relaxed), model(ModelKind::SC)));
  // Release stores: po; sync... nothing reads, so still no causality.
  CHECK(both_first_last(two_two_w(Order::Release), model(ModelKind::PTX75)));
}

TEST_CASE("z3 atomicity of morally strong RMWs (8.10.3 Litmus Tests 1, 2)", "[atomicity]") {
  for (ModelKind k : kAll) CHECK_FALSE(allowed(atomic_inc(Scope::Sys, Scope::Sys, 0), model(k)));
  CHECK(allowed(atomic_inc(Scope::CTA, Scope::GPU, 1)));
}

TEST_CASE("z3 Fence-SC order is existential and per (rf, co) (8.9.3, 8.10.2)", "[fencesc]") {
  // SB with fence.sc: the other three outcomes stay allowed, each with a witness order.
  const Skeleton s = sb(Order::SC);
  const Run r = run_engine("z3", s, Model{});
  CHECK(r.count == 0);
  Skeleton ok = s;
  for (auto& e : ok.events)
    if (e.kind == EventKind::Read && e.loc == 1) e.value = 1;  // P0 reads y == 1
  auto eng = make_z3_engine();
  uint64_t n = 0;
  eng->enumerate(ok, Model{}, {}, [&](const Execution& ex) {
    CHECK(ex.fsc.size() == 2);
    CHECK(violated_axioms(ok, Model{}, ex).empty());
    ++n;
    return true;
  });
  CHECK(n > 0);
}

TEST_CASE("z3 barriers synchronize threads of one CTA (8.9.4 item 2)", "[barrier]") {
  CHECK_FALSE(allowed(mp_barrier(0)));
  CHECK(allowed(mp_barrier(1)));  // different CTAs: no synchronization
  CHECK_FALSE(allowed(mp_barrier(0, BarrierOp::Arrive)));  // arrive releases to sync
  // A barrier for three threads orders the store before both loads; one
  // that expects four never completes (no terminating execution).
  CHECK_FALSE(allowed(quorum(3)));
  CHECK_FALSE(allowed(quorum(4)));
  CHECK(run_engine("z3", quorum(4), Model{}).count == 0);
  // A quorum of two: P0 may arrive last, so P1's stale read is allowed.
  CHECK(allowed(quorum(2)));
}

TEST_CASE("z3 proxies: aliases need an alias proxy fence (8.6, 8.10.6 CoWR)", "[proxy]") {
  CHECK(allowed(cowr_alias(false)));
  CHECK_FALSE(allowed(cowr_alias(true)));
  // Observation through an atomic (8.9.2 item 2), unless Dat3M v7.5's reading.
  Model through;
  CHECK_FALSE(allowed(mp_rmw_chain(Order::Relaxed, false), through));
  CHECK_FALSE(allowed(mp_rmw_chain(Order::Relaxed, true), through));
  Model v75;
  v75.observation_through_rmw = false;
  CHECK(allowed(mp_rmw_chain(Order::Relaxed, false), v75));
}

TEST_CASE("z3 async proxy: fence.proxy.async, wait_group and mbarrier complete-tx (8.9.1.1)", "[proxy]") {
  // Verdicts argued in tests/memmodel/test_async.cpp.
  CHECK(allowed(test::bulk_store(false, StateSpace::Any, 0, 0)));
  CHECK_FALSE(allowed(test::bulk_store(true, StateSpace::Shared, 0, 0)));
  CHECK(allowed(test::bulk_store(true, StateSpace::Global, 0, 0)));
  CHECK_FALSE(allowed(test::bulk_store(true, StateSpace::Any, 1, 0)));
  CHECK(allowed(test::bulk_store(true, StateSpace::Any, 1, 0, true)));
  CHECK_FALSE(allowed(test::bulk_load_mbarrier(false, 0, 1)));
  CHECK(allowed(test::bulk_load_mbarrier(true, 0, 1)));
  CHECK(allowed(test::bulk_load_mbarrier(false, 7, 0)));
}
