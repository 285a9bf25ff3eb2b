// The async proxy in the memory model (PTX ISA 8.6 Proxies, 8.9.1.1
// Asynchronous Operations, 8.9.5 proxy-preserved base causality; the
// instruction descriptions of cp.async.bulk, cp.async.bulk.wait_group,
// fence.proxy.async and mbarrier.try_wait). Each verdict is argued from the
// text next to it.
#include <catch2/catch.hpp>

#include "memmodel/relations.hpp"
#include "memmodel/static_relations.hpp"
#include "tests/memmodel/shapes.hpp"

using namespace ptxcheck::mm;
using namespace ptxcheck::mm::test;

TEST_CASE("Async events are outside program order, ordered after prior instructions (8.9.1.1)", "[async]") {
  const Skeleton s = bulk_store(false, StateSpace::Any, 1, 1);
  const StaticRelations st = build_static(s, Model{});
  const AsyncOp& op = s.async_ops.at(0);
  REQUIRE(op.mem.size() == 2);
  const int r = op.mem[0], w = op.mem[1], st_s = s.po[0][0], flag = s.po[0][1];
  CHECK(st.async_events.has(r));
  CHECK_FALSE(st.po.has(st_s, r));          // not program order
  CHECK(st.async_issue.has(st_s, r));       // but ordered after the prior st
  CHECK(st.async_order.has(r, w));          // a copy reads, then writes
  CHECK(st.async_order.has(op.fence, flag));  // wait_group 0 completes it before the release
  CHECK_FALSE(st.generic.has(r));           // performed in the async proxy
  CHECK_FALSE(st.ms.has(st_s, r));          // different proxies are never morally strong (8.7)
}

TEST_CASE("Bulk store: a generic write reaches the bulk copy only through fence.proxy.async", "[async]") {
  // 9.7.9.25.2: "Accessing the same memory location across multiple proxies
  // needs a cross-proxy fence. For the async proxy, fence.proxy.async should
  // be used". 8.9.5: the generic st and the async read are ordered in base
  // causality (8.9.1.1 issue order) but proxy-preserved only with a proxy
  // fence of the async proxy on the path. So the copy may read the stale 0
  // unless the fence covers shared memory (9.7.13.4: "The memory ordering is
  // limited only to operations performed on objects in the state space
  // specified").
  CHECK(allowed(bulk_store(false, StateSpace::Any, 0, 0)));
  CHECK_FALSE(allowed(bulk_store(true, StateSpace::Any, 0, 0)));
  CHECK_FALSE(allowed(bulk_store(true, StateSpace::Shared, 0, 0)));
  CHECK(allowed(bulk_store(true, StateSpace::Global, 0, 0)));  // fence.proxy.async.global: wrong space
  for (bool fence : {false, true}) CHECK(allowed(bulk_store(fence, StateSpace::Any, 1, 1)));
}

TEST_CASE("Bulk store: wait_group makes the copy's writes visible, wait_group.read does not", "[async]") {
  // cp.async.bulk.wait_group: completion includes "Writes being made visible
  // to the executing thread", followed by the implicit generic-async proxy
  // fence (9.7.9.25.2); the release/acquire on flag carries that to P1. The
  // .read modifier waits only for the reads of the source.
  CHECK_FALSE(allowed(bulk_store(true, StateSpace::Any, 1, 0)));
  CHECK(allowed(bulk_store(true, StateSpace::Any, 1, 0, true)));
  CHECK(allowed(bulk_store(true, StateSpace::Any, 1, 1, true)));
}

TEST_CASE("Bulk load: mbarrier complete-tx and an acquire wait publish the copy, not prior instructions", "[async]") {
  // cp.async.bulk: "the complete-tx operation on the mbarrier has .release
  // semantics at the .cluster scope"; mbarrier.try_wait with .acquire
  // returning True forms an acquire pattern. The copy's write to s precedes
  // the complete-tx and its implicit proxy fence, so a generic read of s
  // after the wait sees it.
  CHECK_FALSE(allowed(bulk_load_mbarrier(false, 0, 1)));
  CHECK(allowed(bulk_load_mbarrier(false, 7, 1)));
  // A relaxed wait forms no acquire pattern.
  CHECK(allowed(bulk_load_mbarrier(true, 0, 1)));
  // 8.9.1.1: the complete-tx "does not transitively establish ordering with
  // respect to prior instructions from the issuing thread": P0's earlier
  // st x may still be unseen.
  CHECK(allowed(bulk_load_mbarrier(false, 7, 0)));
}

TEST_CASE("wgmma.mma_async is not ordered after prior instructions (8.9.1.1)", "[async]") {
  // The same bulk-store shape with an operation of the wgmma kind: even the
  // proxy fence does not order the earlier st before its read.
  SkelBuilder b;
  int s = b.loc("s");
  b.space(s, StateSpace::Shared);
  int p0 = b.thread(0);
  b.st(p0, s, 1);
  b.pfence(p0, ProxyFenceKind::Async);
  int op = b.async(p0, AsyncOpKind::Wgmma);
  b.async_read(op, s, 0);
  CHECK(allowed(b.build()));
}
