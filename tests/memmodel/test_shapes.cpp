// Classic litmus shapes built by hand, with the verdicts PTX ISA 9.2
// chapter 8 states (section cited per test). A Skeleton fixes the value each
// read returns, so "allowed" means some consistent execution exists.
#include <catch2/catch.hpp>

#include "tests/memmodel/shapes.hpp"

using namespace ptxcheck::mm;
using namespace ptxcheck::mm::test;

TEST_CASE("MP: release/acquire forbids stale data (8.8, 8.9.4, 8.10.6)", "[mp]") {
  for (ModelKind k : {ModelKind::PTX75, ModelKind::PTX6, ModelKind::SC})
    CHECK_FALSE(allowed(mp(Order::Release, Order::Acquire, Scope::GPU), model(k)));
  // Relaxed flag accesses form no pattern: the stale read is allowed.
  CHECK(allowed(mp(Order::Relaxed, Order::Relaxed, Scope::GPU)));
  CHECK(allowed(mp(Order::Release, Order::Relaxed, Scope::GPU)));
  CHECK(allowed(mp(Order::Relaxed, Order::Acquire, Scope::GPU)));
  CHECK_FALSE(allowed(mp(Order::Relaxed, Order::Relaxed, Scope::GPU), model(ModelKind::SC)));
}

TEST_CASE("MP: scope must include the other thread (8.5, 8.7)", "[mp]") {
  CHECK_FALSE(allowed(mp(Order::Release, Order::Acquire, Scope::CTA, 0)));
  CHECK(allowed(mp(Order::Release, Order::Acquire, Scope::CTA, 1)));
  CHECK_FALSE(allowed(mp(Order::Release, Order::Acquire, Scope::GPU, 1)));
}

TEST_CASE("MP with fences: release/acquire patterns, form 3 (8.8)", "[mp]") {
  CHECK_FALSE(allowed(mp_fences(Order::AcqRel, Order::Relaxed)));
  CHECK(allowed(mp_fences(Order::AcqRel, Order::Weak)));
  // The MP litmus test of 8.10.6 uses fence.sc as the release/acquire fence.
  CHECK_FALSE(allowed(mp_fences(Order::SC, Order::Relaxed)));
  Model alt;
  alt.fence_sc_is_acq_rel = false;  // still forbidden, through Fence-SC order
  CHECK_FALSE(allowed(mp_fences(Order::SC, Order::Relaxed), alt));
}

TEST_CASE("SB: fence.sc restores SC, fence.acq_rel does not (8.10.6 SB)", "[sb]") {
  CHECK(allowed(sb(Order::Weak)));
  CHECK_FALSE(allowed(sb(Order::SC)));
  CHECK(allowed(sb(Order::AcqRel)));
  CHECK_FALSE(allowed(sb(Order::SC), model(ModelKind::PTX6)));
  CHECK_FALSE(allowed(sb(Order::Weak), model(ModelKind::SC)));
  // fence.sc.cta in different CTAs are not morally strong (8.9.3).
  CHECK(allowed(sb(Order::SC, Scope::CTA, 1)));
  CHECK_FALSE(allowed(sb(Order::SC, Scope::GPU, 1)));
}

TEST_CASE("LB: allowed without dependencies, thin air forbidden with them (8.10.4)", "[lb]") {
  for (bool deps : {false, true}) {
    SkelBuilder b;
    int x = b.loc("x"), y = b.loc("y");
    int p0 = b.thread(), p1 = b.thread();
    int r0 = b.ld(p0, x, 1), w0 = b.st(p0, y, 1);
    int r1 = b.ld(p1, y, 1), w1 = b.st(p1, x, 1);
    if (deps) {
      b.data(p0, r0, w0);
      b.data(p1, r1, w1);
    }
    CHECK(allowed(b.build()) == !deps);
    CHECK_FALSE(allowed(b.build(), model(ModelKind::SC)));
  }
}

TEST_CASE("IRIW: relaxed readers may disagree; fence.sc forbids it (8.10.2)", "[iriw]") {
  for (bool fences : {false, true}) {
    SkelBuilder b;
    int x = b.loc("x"), y = b.loc("y");
    int p0 = b.thread(), p1 = b.thread(), p2 = b.thread(), p3 = b.thread();
    b.st(p0, x, 1, Order::Relaxed, Scope::GPU);
    b.st(p1, y, 1, Order::Relaxed, Scope::GPU);
    b.ld(p2, x, 1, Order::Relaxed, Scope::GPU);
    if (fences) b.fence(p2, Order::SC, Scope::GPU);
    b.ld(p2, y, 0, Order::Relaxed, Scope::GPU);
    b.ld(p3, y, 1, Order::Relaxed, Scope::GPU);
    if (fences) b.fence(p3, Order::SC, Scope::GPU);
    b.ld(p3, x, 0, Order::Relaxed, Scope::GPU);
    CHECK(allowed(b.build()) == !fences);
    CHECK_FALSE(allowed(b.build(), model(ModelKind::SC)));
  }
}

TEST_CASE("CoRR: morally strong reads cannot go back in coherence (8.10.5)", "[coherence]") {
  for (Order o : {Order::Relaxed, Order::Weak}) {
    SkelBuilder b;
    int x = b.loc("x");
    int p0 = b.thread(), p1 = b.thread();
    b.st(p0, x, 1, Order::Relaxed, Scope::Sys);
    b.ld(p1, x, 1, o, Scope::Sys);
    b.ld(p1, x, 0, o, Scope::Sys);
    const Skeleton s = b.build();
    // Weak reads race with the write; the axioms then say nothing (8.7.1).
    CHECK(allowed(s) == (o == Order::Weak));
    CHECK(allowed(s, model(ModelKind::PTX6)) == (o == Order::Weak));
  }
}

TEST_CASE("CoWR and CoWW in one thread (8.9.5 item 1, 8.10.1)", "[coherence]") {
  SkelBuilder b;
  int x = b.loc("x");
  int p0 = b.thread();
  b.st(p0, x, 1);
  b.ld(p0, x, 0);
  CHECK_FALSE(allowed(b.build()));
  SkelBuilder c;
  int y = c.loc("y");
  int q0 = c.thread();
  c.st(q0, y, 1);
  c.st(q0, y, 2);
  const Result r = run(c.build());
  REQUIRE(r.executions == 1);
  const Skeleton s = c.build();
  CHECK(s.events[r.all[0].final_write[0]].value == 2);  // the po-later write is final
}

TEST_CASE("2+2W: no reads, so only fence.sc orders the writes (8.10.1, 8.10.2)", "[coherence]") {
  for (bool fences : {false, true}) {
    SkelBuilder b;
    int x = b.loc("x"), y = b.loc("y");
    int p0 = b.thread(), p1 = b.thread();
    b.st(p0, x, 1, Order::Relaxed, Scope::GPU);
    if (fences) b.fence(p0, Order::SC, Scope::GPU);
    b.st(p0, y, 2, Order::Relaxed, Scope::GPU);
    b.st(p1, y, 1, Order::Relaxed, Scope::GPU);
    if (fences) b.fence(p1, Order::SC, Scope::GPU);
    b.st(p1, x, 2, Order::Relaxed, Scope::GPU);
    const Skeleton s = b.build();
    bool both_one = false;  // final x == 1 && y == 1
    for (const Execution& ex : run(s).all)
      if (s.events[ex.final_write[0]].value == 1 && s.events[ex.final_write[1]].value == 1) both_one = true;
    CHECK(both_one == !fences);
  }
}

TEST_CASE("Atomicity: litmus tests 1 and 2 of 8.10.3", "[atomicity]") {
  for (bool same_scope : {true, false}) {
    SkelBuilder b;
    int x = b.loc("x");
    int p0 = b.thread(0), p1 = b.thread(same_scope ? 0 : 1);
    b.rmw(p0, x, 0, 1, Order::Relaxed, same_scope ? Scope::Sys : Scope::CTA);
    b.rmw(p1, x, 0, 1, Order::Relaxed, same_scope ? Scope::Sys : Scope::GPU);
    // Both atomics read 0: final x == 1. Forbidden when morally strong.
    CHECK(allowed(b.build()) == !same_scope);
  }
  SkelBuilder b;
  int x = b.loc("x");
  int p0 = b.thread(), p1 = b.thread();
  b.rmw(p0, x, 0, 1, Order::Relaxed, Scope::Sys);
  b.rmw(p1, x, 1, 2, Order::Relaxed, Scope::Sys);
  const Skeleton s = b.build();
  const Result r = run(s);
  REQUIRE(r.executions == 1);
  CHECK(s.events[r.all[0].final_write[0]].value == 2);
}

TEST_CASE("Fence-SC: order between morally strong fence.sc only (8.9.3, 8.10.2)", "[fencesc]") {
  // SB with fence.sc: two fence-SC orders, each rules out one stale read.
  const Skeleton s = sb(Order::SC);
  SkelBuilder b;
  int x = b.loc("x"), y = b.loc("y");
  int p0 = b.thread(), p1 = b.thread();
  b.st(p0, x, 1, Order::Relaxed, Scope::GPU);
  b.fence(p0, Order::SC, Scope::GPU);
  b.ld(p0, y, 0, Order::Relaxed, Scope::GPU);
  b.st(p1, y, 1, Order::Relaxed, Scope::GPU);
  b.fence(p1, Order::SC, Scope::GPU);
  b.ld(p1, x, 1, Order::Relaxed, Scope::GPU);
  const Result r = run(b.build());
  REQUIRE(r.executions == 1);
  const Skeleton t = b.build();
  REQUIRE(r.all[0].fsc.size() == 2);
  CHECK(r.all[0].fsc[0] == b.id(p0, 1));  // P0's fence must come first
  CHECK_FALSE(allowed(s));
}

TEST_CASE("Barriers: bar.cta.sync orders a CTA, not other CTAs (8.9.4 item 2)", "[barrier]") {
  for (int cta1 : {0, 1}) {
    SkelBuilder b;
    int x = b.loc("x");
    int p0 = b.thread(0), p1 = b.thread(cta1);
    b.st(p0, x, 1);
    b.bar(p0, 1);
    b.bar(p1, 1);
    b.ld(p1, x, 0);
    CHECK(allowed(b.build()) == (cta1 == 1));
  }
  // bar.arrive releases but does not wait: the reverse direction is not ordered.
  SkelBuilder b;
  int x = b.loc("x");
  int p0 = b.thread(), p1 = b.thread();
  b.bar(p0, 2, BarrierOp::Arrive);
  b.st(p0, x, 1);
  b.bar(p1, 2);
  b.ld(p1, x, 1);
  CHECK(allowed(b.build()));
  SkelBuilder c;
  int y = c.loc("y");
  int q0 = c.thread(), q1 = c.thread();
  c.st(q0, y, 1);
  c.bar(q0, 2, BarrierOp::Arrive);
  c.bar(q1, 2);
  c.ld(q1, y, 0);
  CHECK_FALSE(allowed(c.build()));
}

TEST_CASE("Aliases need fence.proxy.alias (8.6, CoWR litmus of 8.10.6)", "[proxy]") {
  for (bool fence : {false, true}) {
    SkelBuilder b;
    int x = b.loc("x");
    int y = b.loc("y", 0, x);  // generic alias: another virtual address
    int p0 = b.thread();
    b.st(p0, x, 1);
    if (fence) b.pfence(p0, ProxyFenceKind::Alias);
    b.ld(p0, y, 0);
    CHECK(allowed(b.build()) == !fence);
    CHECK_FALSE(allowed(b.build(), model(ModelKind::PTX6)));  // no proxies in v6.0
  }
}

TEST_CASE("Proxy MP: a surface write needs fence.proxy.surface (8.6)", "[proxy]") {
  for (bool fence : {false, true}) {
    SkelBuilder b;
    int x = b.loc("x");
    int s = b.loc("s", 0, x, Proxy::Surface);
    int f = b.loc("flag");
    int p0 = b.thread(), p1 = b.thread();
    b.st(p0, s, 2);
    if (fence) b.pfence(p0, ProxyFenceKind::Surface);
    b.st(p0, f, 1, Order::Release, Scope::GPU);
    b.ld(p1, f, 1, Order::Acquire, Scope::GPU);
    b.ld(p1, x, 0);
    CHECK(allowed(b.build()) == !fence);
  }
}

TEST_CASE("Reductions do not form acquire patterns (8.11.1)", "[atomicity]") {
  for (bool red : {true, false}) {
    SkelBuilder b;
    int x = b.loc("x"), f = b.loc("flag");
    int p0 = b.thread(), p1 = b.thread();
    b.st(p0, x, 42);
    b.st(p0, f, 1, Order::Release, Scope::GPU);
    b.rmw(p1, f, 1, 2, Order::Relaxed, Scope::Sys, red);
    b.fence(p1, Order::Acquire, Scope::GPU);
    b.ld(p1, x, 0);
    CHECK(allowed(b.build()) == red);
  }
}

namespace {
// Dat3M's quorum tests (litmus/PTX/Barrier/quorum1-*): three threads at a
// barrier expecting `count`; P1 reads x after the barrier, P0 wrote it before.
Skeleton quorum1(int count, uint64_t r0) {
  SkelBuilder b;
  int x = b.loc("x");
  int p0 = b.thread(), p1 = b.thread(), p2 = b.thread();
  b.st(p0, x, 1);
  b.bar(p0, 1, BarrierOp::Sync, count);
  b.bar(p1, 1, BarrierOp::Sync, count);
  b.ld(p1, x, r0);
  b.bar(p2, 1, BarrierOp::Sync, count);
  return b.build();
}
}  // namespace

TEST_CASE("Barrier thread counts: first arrivals complete it, a count too large hangs", "[barrier]") {
  CHECK_FALSE(allowed(quorum1(3, 0)));  // all three synchronize
  CHECK(allowed(quorum1(3, 1)));
  CHECK(allowed(quorum1(2, 0)));        // P1 and P2 may complete it without P0
  CHECK_FALSE(allowed(quorum1(4, 1)));  // never completes: no terminating execution
  CHECK_FALSE(allowed(quorum1(4, 0)));
  // quorum3-fail: whoever completes the barrier first, a late arrival is
  // still ordered after them, so P0 and P2 cannot both see P1's writes.
  SkelBuilder b;
  int x = b.loc("x"), y = b.loc("y");
  int p0 = b.thread(), p1 = b.thread(), p2 = b.thread();
  b.ld(p0, x, 1);
  b.bar(p0, 1, BarrierOp::Sync, 2);
  b.bar(p1, 1, BarrierOp::Sync, 2);
  b.st(p1, x, 1);
  b.st(p1, y, 1);
  b.ld(p2, y, 1);
  b.bar(p2, 1, BarrierOp::Sync, 2);
  const Skeleton s = b.build();
  CHECK_FALSE(allowed(s));
}
