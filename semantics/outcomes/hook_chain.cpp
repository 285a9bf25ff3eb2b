// RMW chains of `ptxcheck outcomes` (CommLoc::rmw_chain): an atomic update
// of a communicating location reads the latest write the machine has
// executed there, and the search chooses *when* it runs instead of *what*
// it reads. Choosing a value made each update's read a choice over the
// location's value set (every subset sum of n updates, grown to a
// fixpoint), and almost every combination was then pruned: 4 threads
// taking a ticket with atomicAdd took 508,232 launches, 36 s.
//
// Hook::rmw_wait runs before the read half of an update U of location x
// (atom/red, one scalar element, not cas, not an exch whose result is
// dead, Hook::exch_any): when another thread of U's CTA may still write x
// (it has not exited, is not parked at an update of x or by the loop
// bound, and some path from its PC stores, updates or calls:
// Shared::may_write), it chooses between running U now, reading the
// machine's memory, and parking the thread until the next write of x
// (wake_blocked), when it chooses again. Conditions, checked in
// every run (chain_write; a run that breaks one turns x back to value
// choices and the exploration restarts):
//  (a) every write of x in every launch is made by threads of one CTA
//      (CommLoc::writer_cta), so its updates are pairwise morally strong
//      (same bytes, strong, scopes including both threads: PTX ISA 8.7)
//      and what a CTA explored apart reads does not depend on another
//      CTA's path (explore.hpp);
//  (b) every other write of x (plain, cas, any-value exch, vector or
//      packed atomic) is ordered with every update of the run and with
//      every other such write by program order or CTA/cluster barriers
//      (vector clocks, Hook::ordered); an update that precedes, in the
//      machine's order, an update of the other write's own thread that is
//      program-order-before it counts as ordered before it (observation
//      order through the chain, then program order: causality order, 8.9.5
//      second form; the sample's last block resets its ticket counter);
//  (c) when the launch ends with updates parked (nothing could run), they
//      wait on x alone: no update waits on another location and no thread
//      waits at a blocking mbarrier wait (chain_check);
//  (d) a plain read R of x ordered after every write of x so far in the run
//      (by R's CTA, at least one of them an update) reads the machine's
//      value too (chain_tail), and every later write of x must be ordered
//      after R.
//
// Why this is exact. Soundness: the read still becomes an event whose value
// the engine must justify by a write (8.10), so every state listed comes
// from a consistent execution. Completeness: take a consistent execution X
// and x as above. Coherence order on x is total: updates are pairwise
// morally strong and related (8.9.6); every other write is related to each
// update and to each other write by causality (program order and barrier
// synchronization are base causality order, 8.9.4, 8.9.5), hence in coherence
// order the same way (8.10.1 Coherence), and the initial write comes first.
// An update U reads from its immediate co-predecessor P: not from a write
// after U (8.10.5 Sequential Consistency Per Location for a morally strong
// source; 8.10.6 Causality 1 or 8.10.1 for an ordered other write), no
// morally strong write between (8.10.3 Atomicity of RMW operations), no
// other write between (each is causality-before U, so U cannot read a
// write before it, 8.10.6 Causality 2, or after U, 8.10.1). Follow X's
// choices for every other read and run U when P has executed, else wait.
// Then every write executes after all its co-predecessors (an other write
// is causality-after them, so after them in the machine; an update after
// P), so the executed writes are always a co-prefix and the machine's
// memory holds its last one: U reads exactly P. Waiting is offered when
// it is needed: if P has not executed, P's thread has a path to it, so it
// counts above, unless it is parked at an update of x (or the loop bound
// cut it: then so is this path); if every thread that has not exited waits
// on x, the waits form a cycle as below. This path ends with an update
// parked only if the waits form a cycle: U waits for P, whose thread
// waits at an update U2 of x program-order-before P or at a barrier that
// another thread blocks, at some U2 of x before its arrival; either way U2
// precedes P in causality order, so U2 precedes U in coherence order
// (8.10.1), and U2 waits for its own predecessor: an infinite descending
// chain in a finite coherence order. So a launch that ends with updates
// waiting on x alone (c) stands for no execution and is dropped, unless
// the loop bound cut a thread (whose later writes could end the wait: the
// run counts as cut) or an error stopped it (its diagnostic is kept).
// Waits on two locations can form a real cycle (load buffering over two
// counters, which 8.10.4 permits), hence (c). A read R as in (d), on the
// same path: the writes executed before R are a co-prefix and each is
// causality-before R, so R reads none before the prefix's last (8.10.6
// Causality 2); every later write is causality-after R, and R reads none of
// them (8.10.6 Causality 1): R reads the machine's value. (A reader of the
// final count after __syncthreads() otherwise chose among every subset sum.)
//
// Not covered (notes/sound9c.md): a grid counter of global memory written
// by updates only, with polls parked on it while a thread waits at a
// barrier after which it stores the counter weakly (a reset): the launch is
// dropped by (c), though the reset may be read through load buffering
// (8.10.4 lets a barrier stand where a dependency would be needed);
// tests/corpus/lb/lb.cu lb_reset loses its one state. Checking the writes
// after the wait points (hook_grid.cpp (f6)) gave grid.sync kernels with
// blocks of several threads back to value choices (out of memory).
//
// Each order of the updates of x is one path (a ticket of n threads: n!
// paths, every one a distinct final state when the tickets are stored).
// PTXCHECK_OUTCOMES_NO_RMW_CHAIN=1 turns this off (value choices, for
// cross-checks: tests/corpus/ticket).
#include <algorithm>
#include <map>
#include <set>

#include "semantics/outcomes/hook_impl.hpp"

namespace ptxcheck::outcomes {

using interp::HookAccess;
using interp::Inst;

bool Hook::rmw_wait(interp::Thread& t, const interp::Cta& c, const HookAccess& a) {
  if (sh_.no_rmw_chain) return false;
  const int li = comm_loc(a);
  if (li < 0) return false;
  CommLoc& l = sh_.locs[static_cast<size_t>(li)];
  const Inst& in = *a.in;
  if (!l.rmw_chain || exch_any(t, a)) return false;
  ThreadRec& r = rec(t, c);
  // A CAS only as that of a CAS retry loop (hook_cas.cpp).
  if (in.atom == arith::AtomOp::Cas && !cas_chain(r, t, a, li)) return false;
  r.chain_li = li;
  // Another thread of the CTA that is not done (ready, at a barrier, or
  // parked at an update of another location or at a blocking mbarrier wait,
  // which a write this thread makes may end) and may still write x on some
  // path from where it is (Shared::may_write; a converged warp keeps its
  // PC; the lower lanes of t's group have run this instruction in this
  // step, or skip it; a lane woken at it in this step is not in the group).
  // Threads parked at updates of x alone wait for such a thread.
  // A thread parked at an update of another location (or at a blocking
  // mbarrier wait) may run again after a write this thread makes: waiting
  // there can end in waits on two locations, which (c) turns to choices.
  // For a grid counter, threads of every CTA (hook_grid.cpp (g1)).
  if (!written_.empty()) wake_blocked();  // threads a write of this step lets run
  const bool shared = (a.key & interp::kHookSharedKey) != 0;
  const uint32_t pc = static_cast<uint32_t>(a.in - sh_.prog->code.data());
  if (round_on(li) || !other_writer(t, c, li, pc, shared, grid_on(li))) return false;  // hook_round.cpp
  r.chain_chose = true;
  if (choose(2, sh_.unit_of(c)) == 0) return false;
  r.chain_li = -1;
  step_group_ &= ~(1u << (t.lin % 32));  // did not run it
  blocked_.push_back({&t, &c, t.gid, li, true, false, writes_});
  stuck_at(r, t, pc);
  return true;
}

bool Hook::chain_break(int li) {
  sh_.locs[static_cast<size_t>(li)].rmw_chain = false;
  restart = true;
  return false;
}

bool Hook::chain_write(ThreadRec& r, int li, bool upd) {
  if (sh_.no_rmw_chain) return true;
  CommLoc& l = sh_.locs[static_cast<size_t>(li)];
  if (!l.rmw_chain) return true;
  const int64_t cta = r.cta_uid;
  l.writer_cta = l.writer_cta == -1 || l.writer_cta == cta ? cta : -2;
  l.had_chain = l.had_chain || upd;
  if (l.had_chain && l.writer_cta == -2 && !grid_on(li)) return chain_break(li);  // (a); hook_grid.cpp (g1)
  ChainRun& cr = chain_[li];
  cr.cta = cr.cta == -1 || cr.cta == cta ? cta : -2;
  const uint32_t gid = r.t->gid, ep = r.vc[gid];
  auto before = [&](const std::vector<std::pair<uint32_t, uint32_t>>& xs, size_t from = 0) {
    for (size_t k = from; k < xs.size(); ++k)
      if (xs[k].first != gid && !ordered(r, xs[k].first, xs[k].second)) return false;
    return true;
  };
  if (!before(cr.tail)) return chain_break(li);  // (d)
  // (b): the earlier writes (in the machine) must be ordered before this one.
  if (upd) {
    if (cr.others_unordered || !before(cr.other)) return chain_break(li);
    cr.upd.emplace_back(gid, ep);
  } else {
    // An update of this thread read its predecessor in the chain: each
    // update before it precedes its read in observation order (8.9.2,
    // morally strong by (a)), so precedes this write, program-order-after
    // that read, in causality order (8.9.5, second form). The last block
    // that resets the sample's ticket counter with a plain store.
    size_t own = 0;
    for (size_t k = cr.upd.size(); k-- > 0 && !own;)
      if (cr.upd[k].first == gid) own = k + 1;
    if (!before(cr.upd, own)) return chain_break(li);
    cr.others_unordered = cr.others_unordered || !before(cr.other);
    if (cr.others_unordered && !cr.upd.empty()) return chain_break(li);
    cr.other.emplace_back(gid, ep);
  }
  return true;
}

bool Hook::chain_tail(const ThreadRec& r, int li) {
  if (sh_.no_rmw_chain || !sh_.locs[static_cast<size_t>(li)].rmw_chain) return false;
  auto it = chain_.find(li);
  if (it == chain_.end()) return false;
  ChainRun& cr = it->second;
  if (cr.upd.empty() || cr.others_unordered || cr.cta != static_cast<int64_t>(r.cta_uid)) return false;
  const uint32_t gid = r.t->gid;
  for (const auto* xs : {&cr.upd, &cr.other})
    for (auto [g, e] : *xs)
      if (g != gid && !ordered(r, g, e)) return false;
  cr.tail.emplace_back(gid, r.vc[gid]);
  return true;
}

bool Hook::chain_check(bool stopped) {
  // Per unit (explore.hpp): the waits of a unit (a cluster explored apart)
  // involve its own threads and locations only, so the cycle argument of
  // (c) holds in each unit alone (two clusters' gathers may each end with
  // an update parked on its own counter).
  std::map<uint32_t, std::set<int>> waiting;
  std::set<uint32_t> mbar;
  for (const Blocked& b : blocked_) {
    const uint32_t u = sh_.unit_of_uid(th[b.gid].cta_uid);
    if (b.rmw || b.poll)  // a grid counter's poll waits on its location (hook_grid.cpp)
      waiting[u].insert(b.li);
    else
      mbar.insert(u);
  }
  if (waiting.empty()) return true;
  // Polls of flags and waits on several locations (hook_grid.cpp (f5)):
  // only when every other thread has exited or was dropped or cut.
  std::set<uint32_t> done = exited_;
  bool polls = true;
  for (const Blocked& b : blocked_) polls = polls && b.poll, done.insert(b.gid);
  for (uint32_t g = 0; g < th.size(); ++g)
    if (th[g].seen && (th[g].cut || th[g].killed)) done.insert(g);
  const bool all_done = polls && done.size() == nthreads_ && !sh_.no_flag;
  bool broke = false;
  for (auto& [u, w] : waiting) {
    bool here = false;
    if (mbar.count(u)) {
      here = true;
    } else if (w.size() > 1) {
      if (all_done)
        w = {*w.begin()};
      else
        here = true;
    } else {
      // One location x. hook_grid.cpp (f6): a poll parked on a location
      // with plain stores needs them ordered with its polls.
      const CommLoc& l = sh_.locs[static_cast<size_t>(*w.begin())];
      bool parked_poll = false, narrow = false;
      for (const Blocked& b : blocked_)
        if (b.poll && sh_.unit_of_uid(th[b.gid].cta_uid) == u) parked_poll = true, narrow = narrow || b.narrow;
      if (parked_poll && (l.gw_plain || narrow) && !all_done)
        here = narrow || sh_.no_cluster_counter || !only_updates_left(u, l);
    }
    if (here)  // (c); hook_grid.cpp (f5)
      for (int li : w) sh_.locs[static_cast<size_t>(li)].rmw_chain = false;
    broke = broke || here;
  }
  if (broke) {
    restart = true;
    return false;
  }
  std::set<uint32_t> cut;
  for (const ThreadRec& r : th)
    if (r.seen && r.cut) cut.insert(sh_.unit_of_uid(r.cta_uid));
  // Dropped by canon_check (killed) but when the bound cut a thread of the
  // unit (whose later writes could end the waits: the run counts as cut)
  // or an error stopped the launch.
  std::erase_if(blocked_, [&](const Blocked& b) {
    return (b.rmw || b.poll) && (stopped || cut.count(sh_.unit_of_uid(th[b.gid].cta_uid)));
  });
  return true;
}

}  // namespace ptxcheck::outcomes
