// Latest reads of `ptxcheck outcomes`: a plain read R (`ld`, any order and
// scope) of a communicating location x reads the value of the latest write
// of x that the machine has executed, without a choice, when
//  (a) at least one write of x ran before R in this launch, and each of
//      them is ordered before R by program order or CTA/cluster barriers
//      (vector clocks, Hook::ordered: base causality order, PTX ISA 8.9.5);
//  (b) each write of x that ran in this launch was so ordered after every
//      write of x that ran before it (LatestRun::chained);
//  (c) every write of x that runs after R in this launch is so ordered
//      after R (checked at the write: latest_write);
//  (d) when CTAs are explored apart (explore.hpp), every write of x in
//      every launch is made by R's CTA (CommLoc::latest_cta), so R's value
//      does not depend on another CTA's path;
//  (e) no write of x in the launch is an asynchronous copy's or an
//      mbarrier operation's (their events are ordered or valued otherwise:
//      hook_async.cpp, hook_canon.cpp).
// (a) and (b) are decided when R runs. A write that breaks (c) turns the
// reads at R's PC back to value choices (CommLoc::latest_off: a read under
// a lock is ordered after the earlier holders' writes, but the later
// holders' writes follow it only through the lock), one that breaks (d) or
// (e) every read of x (CommLoc::latest); if some read relied on it, the
// exploration restarts.
//  (f) A write that never runs is not checked by (c): a launch can end with
//      a thread waiting at a barrier (CTA, cluster, warp) that a thread
//      spinning on a latest read keeps closed, and the writes after it run
//      in no launch. In an execution the search does not follow, a read
//      may read such a write: load buffering through the barrier, which
//      8.10.4 permits (the barrier is no dependency, and the spin's read of
//      that write is not before it in causality order while nothing
//      synchronizes). corpus/outcomes/s9_cl_lb_reset: both polls read their
//      own CTA's latest value, the poll of rank 1 spins forever, and the one
//      state was lost. So when a launch ends (latest_check) with a thread
//      that did not exit, was not dropped or cut by the search and is not
//      parked at a poll, update or wait (which block for real, or run on in
//      the run that did not park them), and a path from where it began to
//      wait (ThreadRec::stuck_pc) may write x, the reads of x in poll loops
//      (Shared::poll_at: the reads that keep their thread from the barrier)
//      at the PCs used in the launch choose again, as for a broken (c). A
//      launch the search stopped (a redundant spin iteration) is not
//      checked: the runs that cover it are. Not covered yet: a latest read
//      outside a poll loop whose value sends its thread into a spin
//      elsewhere (the -G lock kernels read their counter so, and checking
//      every latest read against every shared store after a barrier gave
//      them back to value choices: out of memory).
// PTXCHECK_OUTCOMES_NO_LATEST=1 turns this off
// (tests/corpus/outcomes_debuglock.py compares).
//
// Why this is exact. Soundness: R still becomes a read event whose value
// the engine must justify by a write (8.10), so every state listed comes
// from a consistent execution. Completeness: take a consistent execution X
// of the launch's path P, and R on P as above, after writes W1 .. Wk of x
// (k >= 1, in the machine's order). By (b) Wi precedes Wj in base causality
// order for i < j, so in coherence order (8.10.1 Coherence; all of them
// overlap x entirely: a location has one size), and every Wi precedes R in
// causality order by (a) (base causality, using the generic proxy at one
// address: proxy-preserved, 8.9.5). R cannot read a write that precedes Wk
// in coherence order (8.10.6 Causality item 2), which excludes W1 .. Wk-1
// and the initial value (coherence-before every write); nor a write that R
// precedes in causality order (8.10.6 Causality item 1), which by (c)
// excludes every later write of the launch. With (d), the launch holds
// every write that X's CTAs make (explored apart, another CTA writes no
// x). So R reads Wk in X, the value the machine's memory holds after Wk
// (the latest write of x it ran; locations do not overlap: mixed sizes are
// refused), and the search, following X's other choices, runs P with R
// reading that value. The -O0 and -G builds of `lock = cnt = 0` store cnt
// and read it back before `__syncthreads()`; the read chose among every
// count the lock holders write later, and lock among them too (probe9i's
// i21 -O0/-G: over 120 s and 15 GB; now the -O3 build's launches).
#include <set>

#include "semantics/outcomes/hook_impl.hpp"

namespace ptxcheck::outcomes {

bool Hook::latest_read(const ThreadRec& r, const interp::HookAccess& a, int li, uint32_t pc) {
  CommLoc& l = sh_.locs[static_cast<size_t>(li)];
  if (sh_.no_latest || !l.latest || a.async || l.latest_off.count(pc)) return false;
  if (sh_.decompose && l.latest_cta != static_cast<int64_t>(r.cta_uid)) return false;  // (d)
  auto w = writes_at_.find(li);
  if (w == writes_at_.end() || w->second.empty()) return false;  // (a)
  LatestRun& lr = latest_[li];
  if (!lr.chained) return false;  // (b)
  const uint32_t gid = r.t->gid;
  for (auto [g, e] : w->second)
    if (g != gid && !ordered(r, g, e)) return false;  // (a)
  lr.reads.push_back({gid, r.vc[gid], pc, sh_.poll_at(r.t->func, pc) ? 1u : 0u});
  l.latest_used = true;
  return true;
}

bool Hook::latest_write(const ThreadRec& r, const interp::HookAccess& a, int li) {
  if (sh_.no_latest) return true;
  CommLoc& l = sh_.locs[static_cast<size_t>(li)];
  const int64_t cta = r.cta_uid;
  l.latest_cta = l.latest_cta == -1 || l.latest_cta == cta ? cta : -2;
  if (!l.latest) return true;
  auto broken = [&] {
    l.latest = false;
    if (!l.latest_used) return true;  // no read relied on it
    restart = true;
    return false;
  };
  if ((sh_.decompose && l.latest_cta == -2) || a.async || !a.in || a.in->op == interp::IrOp::Mbarrier)
    return broken();  // (d), (e)
  LatestRun& lr = latest_[li];
  const uint32_t gid = r.t->gid;
  bool late = false;  // (c): the reads at the PC of one that this write is not ordered after choose again
  for (const auto& [g, e, pc, poll] : lr.reads)
    if (g != gid && !ordered(r, g, e)) late = true, l.latest_off.insert(pc);
  if (late) {
    restart = true;
    return false;
  }
  if (auto w = writes_at_.find(li); lr.chained && w != writes_at_.end())
    for (auto [g, e] : w->second)
      if (g != gid && !ordered(r, g, e)) lr.chained = false;  // (b)
  return true;
}

bool Hook::latest_check(bool stopped) {
  if (sh_.no_latest || latest_.empty() || stopped) return true;
  std::set<uint32_t> parked;
  for (const Blocked& b : blocked_) parked.insert(b.gid);
  bool again = false;
  for (uint32_t g = 0; g < th.size(); ++g) {
    const ThreadRec& r = th[g];
    if (!r.seen || exited_.count(g) || r.cut || r.killed || parked.count(g)) continue;
    for (auto& [li, lr] : latest_) {
      if (lr.reads.empty()) continue;
      CommLoc& l = sh_.locs[static_cast<size_t>(li)];
      const bool shared = (l.key & interp::kHookSharedKey) != 0;
      const bool may =
          r.stuck_pc == ~0u ||
          (shared ? sh_.may_write(r.stuck_func, r.stuck_pc, true)
                  : !r.stuck_known || std::any_of(r.stuck_writes.begin(), r.stuck_writes.end(), [&](auto w) {
                      return std::get<0>(w) < l.key + l.size && l.key < std::get<1>(w);
                    }));
      if (!may) continue;
      for (const auto& [rg, re, pc, poll] : lr.reads)
        if (poll && rg != g && l.latest_off.insert(pc).second) again = true;
    }
  }
  if (again) restart = true;
  return !again;
}

}  // namespace ptxcheck::outcomes
