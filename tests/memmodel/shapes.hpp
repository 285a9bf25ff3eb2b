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

}  // namespace ptxcheck::mm::test
