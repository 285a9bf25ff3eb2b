// Barrier completion (bar/barrier, barrier.cluster) and deadlock reports:
// the parts of the scheduler (machine.cpp) that decide when waiting threads
// go on.
#include <string>
#include <vector>

#include "semantics/interp/exec_util.hpp"
#include "semantics/interp/machine_state.hpp"

namespace ptxcheck::interp {

// PTX ISA 9.7.13.1 bar, barrier: a barrier completes when the expected number of threads
// arrived; without a count, every (non-exited) thread of the CTA.
void Machine::check_barrier(Cta& c, uint32_t id) {
  BarrierState& b = c.bars[id];
  uint32_t live = static_cast<uint32_t>(c.threads.size()) - c.exited;
  uint32_t need = b.expected ? b.expected : live;
  if (b.arrived < need || b.arrived == 0) return;
  if (!b.expected && c.exited) {
    Thread& t0 = c.threads[b.waiting.empty() ? 0 : b.waiting[0]];
    diag(DiagKind::BarrierDivergence, false, c, t0, prog.code[t0.pc ? t0.pc - 1 : 0],
         "barrier " + std::to_string(id) + " completed without " + std::to_string(c.exited) +
             " thread(s) of the CTA that exited before arriving (undefined behaviour, PTX ISA 9.7.13.1 bar, barrier)");
  }
  ++c.bar_generation;
  if (races.enabled) {
    // PTX ISA 8.9.4 item 2: the arrivals synchronize with the waits of this
    // barrier instance. When every running thread waits here, the CTA's
    // generation advances instead of a clock per thread (races.hpp).
    const bool cta_wide = !b.arrive_only && b.waiting.size() == live;
    KnowP k = races.merge(b.rels, cta_wide, c.uid, c.first_gid, static_cast<uint32_t>(c.threads.size()));
    if (cta_wide) ++c.full_gen;
    for (uint32_t ti : b.waiting) c.threads[ti].sync.k = k;
    // Releases started by a fence.sc that the strong reads of a waiting
    // thread observed: a later fence.sc of a waiting thread acquires them
    // (Races::carry_sc). Threads that only arrive ran on since they arrived:
    // their reads are left out.
    std::vector<ThreadSync::Pend> sc;
    for (uint32_t ti : b.waiting) Races::gather_sc(sc, c.threads[ti].sync);
    if (!sc.empty())
      for (uint32_t ti : b.waiting) Races::carry_sc(c.threads[ti].sync, sc);
  }
  if (hook_) hook_->barrier_complete(c, id);
  for (uint32_t ti : b.waiting) {
    Thread& t = c.threads[ti];
    if (t.bar_red_pending) {
      uint32_t r = b.red_popc;
      const Inst& in = prog.code[t.pc - 1];
      if (in.mode == 1) r = b.red_and;
      if (in.mode == 2) r = b.red_or;
      t.regs[t.reg_base + t.bar_red_dst] = r;
      t.bar_red_pending = false;
    }
    t.st = TState::Ready;
  }
  for (auto& w : c.warps) unconverge(w);
  b = BarrierState{};
}

// barrier.cluster (PTX ISA 9.7.13.3 barrier.cluster): the phase completes when every live
// thread of the cluster arrived; waiters of the phase are then released.
void Machine::check_cluster_barrier() {
  uint32_t live = 0;
  for (auto& c : ctas) live += static_cast<uint32_t>(c->threads.size()) - c->exited;
  if (cluster_arrived < live || !cluster_arrived) return;
  cluster_arrived = 0;
  if (races.enabled) {  // PTX ISA 8.9.4 item 3: arrive synchronizes with wait
    cluster_done[cluster_phase & 1] = races.merge(cluster_rels, false, 0, 0, 0);
    cluster_rels.clear();
  }
  ++cluster_phase;
  if (hook_) hook_->cluster_complete();
  for (auto& c : ctas) {
    ++c->bar_generation;
    for (auto& t : c->threads)
      if (t.st == TState::ClusterWait) {
        t.st = TState::Ready;
        if (races.enabled && prog.code[t.pc - 1].order != mm::Order::Relaxed)
          Races::join(t.sync, cluster_done[t.cl_phase & 1]);
      }
    for (auto& w : c->warps) unconverge(w);
  }
}

void Machine::deadlock(Cta& c) {
  for (auto& t : c.threads) {
    if (t.st == TState::Exited) continue;
    const Inst& in = prog.code[t.pc ? t.pc - 1 : 0];
    std::string what = t.st == TState::Barrier    ? "waits at a CTA barrier that can never complete"
                       : t.st == TState::WarpWait ? "waits for warp lanes that never reach the same .sync instruction"
                       : t.st == TState::ClusterWait ? "waits at a cluster barrier that can never complete"
                                                     : "cannot make progress";
    const Inst& at = t.st == TState::WarpWait ? prog.code[t.pc] : in;
    diag(DiagKind::BarrierDeadlock, true, c, t, at,
         "deadlock: thread " + what + " (" + std::to_string(c.exited) + " of " + std::to_string(c.threads.size()) +
             " threads exited)");
    break;
  }
  stop_ = true;
}

}  // namespace ptxcheck::interp
