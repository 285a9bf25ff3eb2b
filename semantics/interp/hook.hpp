// Observation points of the Machine for tools that explore executions
// (semantics/outcomes): every global/shared memory access, fence, CTA
// barrier, backward branch and thread exit of a launch is reported to an
// ExecHook, which may replace the value a read returns (a choice of the
// memory model) and may stop the launch. Without a hook the Machine runs
// as before. Contract: the Machine calls a hook in its deterministic
// schedule order; a hook returning false stops the launch (RunResult is
// then partial and `stopped_by_hook` is set).
#pragma once
#include <cstdint>

#include "semantics/interp/ir.hpp"

namespace ptxcheck::interp {

struct Thread;
struct Cta;

enum class HookKind : uint8_t { Load, Store, RmwRead, RmwWrite };

struct HookAccess {
  const Inst* in = nullptr;
  HookKind kind = HookKind::Load;
  Space space = Space::Global;  // resolved: Global, Shared or SharedCluster
  uint64_t key = 0;   // stable address of the first byte: the global address, or
                      // kHookSharedKey | CTA uid << 32 | offset for shared memory
  unsigned size = 0;  // bytes
  int owner_cta = -1; // shared: uid of the CTA owning the bytes
  // A cp.async's access, reported at the copy's completion (PTX ISA
  // 8.9.1.1): ExecHook::async_issue's number of the copy + 1; 0 otherwise.
  uint32_t async = 0;
};
inline constexpr uint64_t kHookSharedKey = 1ull << 62;

class ExecHook {
 public:
  virtual ~ExecHook() = default;
  // A read (plain, or the read half of an atomic/mbarrier update): `v` holds
  // the value in the machine's memory; the hook may replace it.
  virtual bool read(Thread& t, const Cta& c, const HookAccess& a, uint64_t& v) = 0;
  virtual bool write(Thread& t, const Cta& c, const HookAccess& a, uint64_t v) = 0;
  virtual bool fence(Thread& t, const Cta& c, const Inst& in) = 0;
  // bar/barrier arrival (waits: sync/red; not arrive); count -1 = whole CTA.
  virtual bool barrier_arrive(Thread& t, const Cta& c, const Inst& in, uint32_t id, int count, bool waits) = 0;
  // Barrier `id` of CTA `c` completed (every recorded arrival took part).
  virtual void barrier_complete(const Cta& c, uint32_t id) = 0;
  // barrier.cluster.arrive / the completion of a cluster barrier phase.
  virtual bool cluster_arrive(Thread& t, const Cta& c, const Inst& in) = 0;
  virtual bool cluster_wait(Thread& t, const Cta& c, const Inst& in) = 0;
  virtual void cluster_complete() = 0;
  // A taken branch from `from` back to `to` <= from: go on, park the thread
  // (it runs again only if the hook makes it runnable, as hook_wait.cpp does
  // on an mbarrier write; parked at the end = deadlock), or stop the launch.
  enum class Jump : uint8_t { Continue, Park, Stop };
  virtual Jump back_jump(Thread& t, const Cta& c, uint32_t from, uint32_t to) = 0;
  // The read half of a scalar atomic update (atom/red, one element, not
  // packed) is about to run: true parks the thread before the instruction,
  // which it runs again from its start once the hook makes it runnable
  // (outcomes: an RMW that waits for the write it reads from, hook_chain.cpp).
  virtual bool rmw_wait(Thread&, const Cta&, const HookAccess&) { return false; }
  virtual void exited(Thread& t, const Cta& c) = 0;
  // A cp.async of thread `t` was issued (PTX ISA 8.9.1.1: ordered after the
  // thread's prior instructions, outside its program order), copying `src`
  // (size 0: nothing read, a zero fill) to `dst`: the copy's number, which
  // the accesses of its completion carry (HookAccess::async). Its reads of
  // the source and writes of the destination are reported when it
  // completes, followed by async_done: `waited` when a cp.async.wait_group /
  // wait_all or cp.async.mbarrier.arrive of the thread completed it (it is
  // ordered before the thread's later operations), false at the thread's
  // exit (ordered before nothing). A cp.async.bulk (IrOp::BulkCopy) the same
  // way: completed by cp.async.bulk.wait_group (`reads_only` for .read: only
  // its reads are ordered before the thread's later operations, and a later
  // async_done may complete the rest), or on its mbarrier, where its
  // complete_tx is reported as an update (RmwRead, RmwWrite) with `async`
  // set and async_done's `waited` false (the mbarrier's waits order it).
  virtual uint32_t async_issue(Thread&, const Cta&, const Inst&, const HookAccess& /*dst*/,
                               const HookAccess& /*src*/) {
    return 0;
  }
  virtual void async_done(Thread&, const Cta&, uint32_t /*id*/, bool /*waited*/, bool /*reads_only*/) {}
  // Warp `warp` of CTA `c` executed a warp-collective .sync instruction with
  // the lanes `lanes` (the ones the warp-sync-race class counts, races.hpp);
  // `orders`: it is bar.warp.sync, which orders memory among them (9.7.13.3).
  virtual void warp_collective(const Cta&, uint32_t /*warp*/, uint32_t /*lanes*/, bool /*orders*/) {}
  // Called before instruction `in` executes for the lanes `group` of a warp
  // (lanes[l] is lane l's thread), with `exec` the lanes whose guard holds:
  // a hook that follows values through registers (dependencies) sees every
  // executed instruction. Only when wants_steps() is true.
  virtual void step(Thread* /*lanes*/, const Cta&, const Inst&, uint32_t /*group*/, uint32_t /*exec*/) {}
  virtual bool wants_steps() const { return false; }
};

}  // namespace ptxcheck::interp
