// Canonical arrives: the read half of an mbarrier.arrive makes no choice
// when the order of a run's arrives cannot be observed (docs/outcomes.md
// "How the search scales", item 4).
//
// Without this, each arrive's read chooses among the values of the
// mbarrier word, so k arrivals on one mbarrier give about (k+1)^k runs. Of
// those, only the orders of the arrivals have consistent executions
// (atomicity, PTX ISA 8.10.3), and when nothing observes the order, one
// order suffices: the machine's (each arrive reads the machine's memory).
//
// Conditions, for a location M (an mbarrier object in shared memory), over
// one run:
//  (a) Every update of M is an mbarrier.arrive (not arrive_drop, no
//      expect_tx) with the same count, by a thread of the CTA owning M,
//      whose returned state is never read (no destination, or a register
//      dead after it). Then the arrives are pairwise morally strong (8.7:
//      one CTA, .cta scope), so in a consistent execution X they form one
//      chain in coherence order, each reading its predecessor (8.10.3,
//      8.9.6), and the value after the j-th arrive, v_j, depends only on j
//      (the same update each time). Reordering the chain changes no value a
//      thread uses.
//  (b) The plain writes of M (mbarrier.init) precede every arrive in
//      program order or through CTA barriers (8.9.4 item 2), and none
//      follows one: they precede the chain in coherence order (8.10.1).
//  (c) The other reads of M (test_wait, try_wait) of a run that is decided
//      (no thread of the CTA dropped as a redundant spin) read no value
//      v_1 .. v_{n-1} written by an arrive but the last: they observe no
//      arrive (the initial or init value) or all n of them (v_n), in any
//      order of the chain (observation order through the RMW chain, 8.9.2).
//  (d) No fence follows an arrive in its thread before the thread's next
//      read of M: an arrive's read is a strong read of M, which with a
//      later acquire fence forms an acquire pattern (8.8, third form) that
//      synchronizes with the arrives before it in the chain. With a later
//      read of M that reads v_n (the acquire pattern's second form), the
//      synchronization is that of the read alone (it observes every
//      arrive), which (c) makes the same for every order.
//  (e) A thread that arrives has not synchronized with another thread
//      through memory before (no communicating read, fence.sc or cluster
//      barrier, also not in a thread that reaches it through CTA barriers,
//      which the machine runs in order). Then every causality order
//      (8.9.5) between two arrives goes through program order or CTA
//      barriers, which the machine's order respects.
// Claim: for each consistent execution X of a run that chooses the arrive
// reads, the run that lets them read the machine's memory (same other
// choices; the same paths, since no thread uses an arrive's value) has a
// consistent execution X' with the same final state: the same events,
// each read of M reading the write at the same position of the chain (the
// same value), the arrives chained in the machine's order. By (c) and (d),
// X and X' have the same synchronizes-with relation (8.9.4): a read of M
// observes no arrive or all of them; the arrive reads' acquire patterns
// add nothing. So causality order is the same on every other location
// (the observation-order part of causality order, 8.9.5, relates only
// accesses of M), and so are their communications and the data races. On
// M, X' is consistent: coherence order is the machine's order, which
// contains causality order between arrives by (e) and puts the init first
// by (b); each read of M reads at position 0 or n of the chain, as in X,
// and a read that program order or causality puts after an arrive reads
// position n in X (else X breaks 8.10.5 or 8.10.6), so also in X'. A run
// that breaks a condition turns M back to choices (CommLoc::canon) and
// the exploration restarts; PTXCHECK_OUTCOMES_NO_CANON=1 turns it off.
#include <algorithm>

#include "semantics/outcomes/hook_impl.hpp"

namespace ptxcheck::outcomes {

using interp::HookAccess;
using interp::IrOp;
using interp::MbarOp;

bool Hook::canon_break(int li) {
  sh_.locs[static_cast<size_t>(li)].canon = false;
  restart = true;
  return false;
}

int Hook::canon_arrive(ThreadRec& r, const interp::Thread& t, const interp::Cta& c, const HookAccess& a, int li) {
  const CommLoc& l = sh_.locs[static_cast<size_t>(li)];
  if (sh_.no_canon || !l.canon) return 0;
  const interp::Inst& in = *a.in;
  CanonRun& cr = canon_[li];
  bool ok = in.mbar == MbarOp::Arrive && !in.expect_tx && a.space == interp::Space::Shared &&
            a.owner_cta == static_cast<int>(c.uid) && !r.sync_in;
  if (ok && in.dst[0].kind == interp::Opnd::Reg) {  // (a): the returned state is dead
    const uint32_t pc = static_cast<uint32_t>(a.in - sh_.prog->code.data());
    const std::vector<char>* live = sh_.live_at(t.func, pc + 1);
    ok = live && in.dst[0].slot < live->size() && !(*live)[in.dst[0].slot];
  }
  uint64_t count = 1;
  if (in.src[0].kind == interp::Opnd::Imm)
    count = in.src[0].imm;
  else if (in.src[0].kind == interp::Opnd::Reg)
    count = t.regs[t.reg_base + in.src[0].slot];
  else if (in.src[0].kind != interp::Opnd::None)
    ok = false;
  count &= 0x7fffffffu;
  if (ok && cr.n > 0 && count != cr.count) ok = false;
  for (auto [g, e] : cr.plain)  // (b)
    ok = ok && (g == t.gid || ordered(r, g, e));
  if (!ok && cr.n == 0) {
    cr.other_rmw = true;
    return 0;
  }
  if (!ok || cr.other_rmw) {
    canon_break(li);
    return -1;
  }
  cr.count = count;
  r.canon_li = li;
  if (std::find(r.canon_pending.begin(), r.canon_pending.end(), li) == r.canon_pending.end())
    r.canon_pending.push_back(li);
  return 1;
}

bool Hook::canon_write(ThreadRec& r, const HookAccess& a, int li, uint64_t v) {
  if (a.kind == interp::HookKind::RmwWrite) {
    if (r.canon_li != li) return true;
    r.canon_li = -1;
    CanonRun& cr = canon_[li];
    if (cr.n > 0) cr.inter.insert(cr.last);
    cr.last = v;
    ++cr.n;
    return true;
  }
  auto it = canon_.find(li);
  if (it == canon_.end()) {
    if (sh_.no_canon || !sh_.locs[static_cast<size_t>(li)].canon) return true;
    it = canon_.emplace(li, CanonRun{}).first;
  }
  if (it->second.n > 0) return canon_break(li);  // (b): a plain write after an arrive
  it->second.plain.emplace_back(r.t->gid, r.vc[r.t->gid]);
  return true;
}

void Hook::canon_read(ThreadRec& r, int li, uint64_t v) {
  std::erase(r.canon_pending, li);
  if (sh_.no_canon || !sh_.locs[static_cast<size_t>(li)].canon) return;
  canon_[li].reads.emplace_back(r.t->gid, v);
}

bool Hook::canon_fence(ThreadRec& r, const interp::Inst& in) {
  if (in.order == mm::Order::SC) r.sync_in = true;  // (e): fence.sc synchronizes (8.9.4 item 1)
  if (r.canon_pending.empty()) return true;
  const int li = r.canon_pending.front();  // (d)
  r.canon_pending.clear();
  return canon_break(li);
}

bool Hook::canon_check() {
  std::set<uint32_t> dropped;  // CTAs with a thread dropped as a redundant spin
  for (const ThreadRec& r : th)
    if (r.seen && r.killed) dropped.insert(r.cta_uid);
  for (auto& [li, cr] : canon_) {
    if (cr.n == 0) continue;
    for (auto [g, v] : cr.reads)  // (c)
      if (cr.inter.count(v) && !dropped.count(th[g].cta_uid)) return canon_break(li);
  }
  return true;
}

}  // namespace ptxcheck::outcomes
