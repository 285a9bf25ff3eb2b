// The litmus shapes both Skeleton test suites use (tests/memmodel checks
// the spec's verdicts with the enumeration engine, tests/z3 with Z3 and the
// cross-checks): MP with flag orders or fences, SB with optional fences.
#pragma once
#include "tests/memmodel/skel_builder.hpp"

namespace ptxcheck::mm::test {

// MP: P0 writes data then flag; P1 reads the flag (1) then stale data (0).
inline Skeleton mp(Order st_flag, Order ld_flag, Scope sc, int cta1 = 0) {
  SkelBuilder b;
  int x = b.loc("x"), f = b.loc("flag");
  int p0 = b.thread(0), p1 = b.thread(cta1);
  b.st(p0, x, 1);
  b.st(p0, f, 1, st_flag, sc);
  b.ld(p1, f, 1, ld_flag, sc);
  b.ld(p1, x, 0);
  return b.build();
}

// MP with `flag`-ordered flag accesses and a fence of order `fence` on each side.
inline Skeleton mp_fences(Order fence, Order flag, int cta1 = 0) {
  SkelBuilder b;
  int x = b.loc("x"), f = b.loc("flag");
  int p0 = b.thread(0), p1 = b.thread(cta1);
  b.st(p0, x, 1);
  b.fence(p0, fence, Scope::GPU);
  b.st(p0, f, 1, flag, Scope::GPU);
  b.ld(p1, f, 1, flag, Scope::GPU);
  b.fence(p1, fence, Scope::GPU);
  b.ld(p1, x, 0);
  return b.build();
}

// SB: each thread writes its location and reads the other's initial 0;
// `fence` between them in each thread (Order::Weak: no fences).
inline Skeleton sb(Order fence, Scope fence_scope = Scope::GPU, int cta1 = 0) {
  SkelBuilder b;
  int x = b.loc("x"), y = b.loc("y");
  int p0 = b.thread(0), p1 = b.thread(cta1);
  b.st(p0, x, 1, Order::Relaxed, Scope::GPU);
  if (fence != Order::Weak) b.fence(p0, fence, fence_scope);
  b.ld(p0, y, 0, Order::Relaxed, Scope::GPU);
  b.st(p1, y, 1, Order::Relaxed, Scope::GPU);
  if (fence != Order::Weak) b.fence(p1, fence, fence_scope);
  b.ld(p1, x, 0, Order::Relaxed, Scope::GPU);
  return b.build();
}

// The async proxy (PTX ISA 8.6, 8.9.1.1; "Async Proxy" 9.7.9.25.2 and the
// cp.async.bulk, cp.async.bulk.wait_group and fence.proxy.async
// descriptions). Bulk store: P0 writes shared s with a generic st, then
// (optionally) fence.proxy.async with state space `fs`, then
// cp.async.bulk.global.shared::cta.bulk_group copies s to global g (reading
// `copied`), commit/wait_group (`.read` if wait_read), and a release of flag;
// P1 acquires flag == 1 and reads g == `seen`.
inline Skeleton bulk_store(bool fence, StateSpace fs, uint64_t copied, uint64_t seen, bool wait_read = false) {
  SkelBuilder b;
  int s = b.loc("s"), g = b.loc("g"), f = b.loc("flag");
  b.space(s, StateSpace::Shared);
  int p0 = b.thread(0), p1 = b.thread(1);
  b.st(p0, s, 1);
  if (fence) b.pfence(p0, ProxyFenceKind::Async, fs);
  int op = b.async(p0, AsyncOpKind::Bulk);
  b.async_read(op, s, copied);
  b.async_write(op, g, copied);
  b.async_fence(op);
  b.wait(p0, op, wait_read);
  b.st(p0, f, 1, Order::Release, Scope::GPU);
  b.ld(p1, f, 1, Order::Acquire, Scope::GPU);
  b.ld(p1, g, seen);
  return b.build();
}

// Bulk load with mbarrier completion: P0 writes global x, then issues
// cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes copying
// global g (7) to shared s, complete-tx on bar; P1 (same CTA) waits on bar
// (mbarrier.try_wait, acquire unless `relaxed`), reading its completion,
// then reads s == `seen_s` and x == `seen_x`.
inline Skeleton bulk_load_mbarrier(bool relaxed, uint64_t seen_s, uint64_t seen_x) {
  SkelBuilder b;
  int s = b.loc("s"), g = b.loc("g", 7), x = b.loc("x"), bar = b.loc("bar");
  b.space(s, StateSpace::Shared);
  b.space(bar, StateSpace::Shared);
  int p0 = b.thread(0), p1 = b.thread(0);
  b.st(p0, x, 1);
  int op = b.async(p0, AsyncOpKind::Bulk);
  b.async_read(op, g, 7);
  b.async_write(op, s, 7);
  b.async_fence(op);
  b.complete_tx(op, bar, 1);
  b.ld(p1, bar, 1, relaxed ? Order::Relaxed : Order::Acquire, Scope::CTA);
  b.ld(p1, s, seen_s);
  b.ld(p1, x, seen_x);
  return b.build();
}

}  // namespace ptxcheck::mm::test
