// Canonical arrives: the read half of an mbarrier.arrive makes no choice
// when the order of a run's arrives cannot be observed; canonical waits:
// a wait whose failure is redundant reads only values that complete its
// phase (docs/outcomes.md
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
//  (a) Every update of M is an mbarrier.arrive or arrive_drop (no
//      expect_tx) with the same count, by a thread of the CTA owning M,
//      whose returned state is never read (no destination, or a register
//      dead after it) or read only as the state operand of test_wait/
//      try_wait, also after movs (canon_step checks every use; a call or
//      a return in between counts as another use), and, when a state is
//      used, all the run's arrives read the same phase bit. Then the
//      arrives are pairwise morally strong (8.7: one CTA, .cta scope), so
//      in a consistent execution X they form one chain in coherence order,
//      each reading its predecessor (8.10.3, 8.9.6), and the value after
//      the j-th arrive, v_j, depends only on j (the same update each time).
//      An arrive_drop (instruction chapter 9.7.12.13.9 mbarrier.arrive_drop: an
//      arrive-on that also lowers the expected count of the next phases)
//      is another update, so with drops v_j depends on which updates come
//      first; but not at the two positions anything reads ((c), below): v_0,
//      and v_n and every phase boundary ((j)), where the pending count is
//      reloaded from an expected count lowered by the drops up to that
//      boundary, the same set in any order within a phase. The arrives'
//      states are used only by their phase bit, the same at every position
//      of a phase (pending reaches 0 at its last arrive in any order).
//      A wait uses only the phase bit of a state (PTX ISA 9.7.13.15
//      mbarrier.test_wait/try_wait: waitComplete says whether the phase the
//      state names has completed), and no phase completes before the
//      chain's last arrive (one phase bit), so every order gives each
//      state the same phase bit. Reordering the chain changes no value a
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
// (d2) A fence after arrives on M whose reads each began a phase of the
//      machine's chain (read v_0, or the value that completed the phase
//      before) is allowed: in X' the acquire pattern (8.8 third form) of
//      such an arrive's read synchronizes only with the arrives of the
//      earlier phases, which precede it in the chain of every consistent X
//      too (a single phase: none; several: the run must meet (j), whose
//      claim and (k)'s lemma fix every arrive's phase in X), so X''s
//      synchronization stays contained in X's. cuda::pipeline's destructor
//      (fence.sc, then a refcount update, by the lowest active lane, which
//      arrives first in its warp) is such a fence.
//  (e) A thread that arrives has not synchronized with another thread
//      through memory before (no communicating read but a weak ld, which
//      is no acquire pattern and morally strong with nothing, 8.8, 8.7,
//      and a blocking wait, which synchronizes only with arrives the
//      machine ran before it ((i), (j)); no fence.sc or cluster barrier;
//      also not in a thread that reaches it through CTA barriers, which
//      the machine runs in order). (e1) A read that is not itself an
//      acquire (a relaxed ld or atom) synchronizes with nothing until an
//      acquire fence or acquire operation on its location ends its acquire
//      pattern (8.8 forms 2, 3), and then only for what follows (8.8: the
//      last instruction of the pattern), so only that counts (an acquire
//      read does; canon_fence: an acquire fence after any strong read).
//      (e2) Nor does a wait of M2 whose value no strong write of the run
//      wrote and that follows no strong read of M2 in its thread: it reads a
//      weak write (mbarrier.init), which is in no release pattern (8.8: a
//      release operation, or a strong write after a release), and no RMW
//      lies between (8.9.2), so 8.9.4 item 4 gives it no synchronization;
//      canon_check confirms at the run's end that no strong write of the
//      run has the value (else CommLoc::plain_read off, restart).
//      Then every causality order
//      (8.9.5) between two arrives goes through program order or CTA
//      barriers, which the machine's order respects.
// Claim: for each consistent execution X of a run that chooses the arrive
// reads, the run that lets them read the machine's memory (same other
// choices; the same paths, since threads use an arrive's value at most
// as a wait's state, by its phase bit) has a
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
//
// Canonical and blocking waits on M, with their conditions (f)-(i), are in
// hook_wait.cpp.
//
// Several phases (j): a run whose arrives on M read more than one phase
// (one mbarrier reused: arrive_and_wait in a loop, a flipping parity) keeps
// the arrives canonical and the waits blocking when, over the run:
//  (j1) every thread T that arrives on M does so as its i-th arrive reads
//       phase i of the machine's chain (counting completed phases), and
//       between two of its arrives a blocking wait of T for the phase of
//       the first succeeded (the instruction chapter's 9.7.12.13.4 Phase
//       of the mbarrier object: a wait that returns true in each phase
//       before arrive-on operations of the next);
//  (j2) every other read of M is such a blocking wait (canon_read);
//  (j3) a blocking wait is by a thread that arrived on M, for the phase of
//       its latest arrive (the state's or the parity's bit is the bit that
//       arrive read), once, and since that arrive the thread received no
//       synchronization: its vector clock, its count of communicating
//       reads and its sync_in are as they were just after the arrive (a
//       fence there breaks (d)).
// The same count c for every arrive ((a)) and (j1) give: phase p of the
// chain consists of the p-th arrives of the threads that have one (each
// thread has at most one arrive per phase, and a phase completes after
// e/c arrives, e the expected count: 9.7.12.13.5 Arrive-on operation).
// With arrive_drop ((a)), a thread that dropped arrives on M no more (else
// (j) fails: canon_arrive), so phase p's arrives are the p-th arrives of the
// threads that did not drop in phases before p, and its size e_p/c, e_p =
// e - c * (drops before phase p), is fixed by the phases before it; below,
// "e/c arrives" and K are these sizes, phase by phase, and a position
// bound iK is their sum over the phases before i.
// Claim: every consistent execution X of a run R' that chooses the reads of
// M (with R's other choices) has the same phase structure, and the
// execution X' of R below has the same final state and races that include
// X's. Proof. The accesses of M are pairwise morally strong (8.7: one CTA,
// .cta scopes, strong), so program order and communication order on M are
// acyclic (8.10.5): they form one total order L in which each read reads
// the latest write. Induction along L: a thread's arrive and wait results
// depend only on phase bits (9.7.13.15; 9.7.12.13.11 test_wait/try_wait),
// so the threads run R's instructions as long as the results match R's.
// T's i-th arrive follows in L the success of T's wait for phase i-1, so
// phase i-1 completed (the chain is in L); phases before i consist of the
// earlier arrives, and phase i completes only with e/c arrives, one per
// thread, T's among them; so T's i-th arrive reads phase i and its state has
// R's phase bit. T's wait for phase i reads a write of L before T's next
// arrive: it fails until phase i completes (its failed polls are removable,
// (h)) and then succeeds, as in R; it cannot see phase i+1 complete (that
// needs T's next arrive). So the arrives form the same phases in X as in
// R; only their order within a phase and the positions the waits read may
// differ. X': the arrives chained in R's order (the machine's: within a
// phase any order is possible, the values depend only on the position, and
// causality between two arrives of one phase goes through program order or
// CTA barriers, by (e), now that a blocking wait synchronizes only with
// earlier phases, below), and each wait for phase i reads the boundary B_i,
// the write of phase i's last arrive. X' is consistent: in L, move each
// wait right after B_i; T's accesses of M before the wait are its arrives
// of phases <= i and earlier waits, all at or before B_i, so the new order
// is still one of 8.10.5. 8.10.6 on M: a write after B_i in coherence order
// that precedes the wait in causality order would be a later-phase arrive
// A' whose causality path enters T's thread before the wait; it cannot
// enter at or before T's phase-i arrive (then A' precedes that arrive in
// causality, so in coherence, 8.10.1, though its phase is later), and by
// (j3) T received nothing between its arrive and its wait (8.9.4: a fence,
// a barrier, an acquire read or a strong read in observation order would
// be needed, 8.9.2, 8.9.5). The wait reading B_i observes exactly the
// arrives of phases <= i (8.9.2 item 2 through the RMW chain) and, acquire
// against release, synchronizes with them (8.9.4 item 4); in X it
// observed those and possibly some of phase i+1. So X''s synchronization,
// and its causality order, are contained in X's: every axiom that holds
// in X holds in X' on the other locations (each forbids a cycle or
// requires an inclusion that removing causality edges keeps: 8.10.1,
// 8.10.2, 8.10.6), with the same communication and the same final state,
// and every race of X is one of X' (fewer causality edges, 8.7.1).
// Run-time part (canon_block_at): a blocking wait of a thread that arrived
// waits for the phase bit of its latest arrive; when it succeeds it reads
// (and its event carries) B_i's value and joins the clocks of the release
// arrives up to B_i (CanonRun::rel_at), not those of the machine's later
// arrives. (j5) The values of M repeat every second phase; an execution
// where a read takes an equal value of another phase is rejected by 8.10.5
// but multiplies the engine's search, so after phase 0 the events of M
// carry a tag of their chain position instead (bit 31, which no machine
// value has, and the position): each read has one write to read, B_i for a
// wait. A run that breaks (j) gets its machine values back (CanonRun::untag)
// and is judged by (a)-(h) as before: with a blocking wait it turns M's
// waits back to choices ((h)), with a used state (a) or a read of an
// intermediate value (c) M itself.
//
// Pipelines (k): mbarriers that hand phases to each other, as a producer/
// consumer pipeline through full[s] and empty[s] does (the producer arrives
// on full[s] once per item and waits only on empty[s], the consumer the
// other way round). PTXCHECK_OUTCOMES_NO_CROSS_WAIT=1 turns both parts off.
//  (k1) (e) also admits an arrive on M after a blocking wait on another
//       mbarrier M2: in X' every blocking wait reads its boundary, which the
//       machine wrote before the wait ran, so every synchronizes-with edge of
//       X' (CTA and cluster barriers, blocking waits) goes forward in the
//       machine's order, and with program order so does causality order
//       between two arrives of M (8.9.5): the machine's chain order contains
//       it, as 8.10.1 asks of X'. A run with such an arrive that breaks (j)
//       on M turns (k1) off for M (CommLoc::cross_wait) and restarts.
//  (k2) (j1) also accepts, between T's arrives on M of phases i-1 and i,
//       a successful blocking wait W for phase i-1 by another thread U
//       (U arrived in phase i-1: (j3)) that T's vector clock covers at its
//       second arrive (U's epoch at W: the clocks join only through program
//       order, CTA and cluster barriers, bar.warp.sync and the blocking
//       waits of (i)/(j4)), provided every canonical arrive of the run is
//       .release and every blocking wait .acquire (canon_check, else (j)
//       fails).
// Lemma: with (k), every consistent execution X (of the events of R up to
// each thread's first M-result that differs from R's, for every canonical
// M of the run at once; a differing result needs a misplaced arrive, below)
// puts every arrive in its phase of R. Write K for the arrives per phase
// (e/c), and say an arrive is misplaced in X when its position in M's chain
// (8.10.3, 8.9.6: the arrives are morally strong RMWs, one chain) is not
// among its R-phase's K positions. Suppose some are; for each M with one,
// let F(M) be the misplaced arrive at the lowest position p. The positions
// below p hold their R-phases, so F(M), T's arrive of R-phase i, lies in
// phase i-1 < i (p <= iK), and T's arrive of phase i-1 lies below it
// (8.10.5: program order). Take the wait W for phase i-1 that (j1)/(k2)
// found, by U: U's arrive of phase i-1 lies in phase >= i-1 in X (below p
// in its R-phase, else above p), W reads a later position (8.10.5) and
// succeeds, so it reads a write Wb at position >= iK >= p.
//  - If every synchronizes-with edge of the clock path from W to F(M) holds
//    in X: Wb precedes W in observation order (8.9.2), W precedes F(M) in
//    base causality order, so Wb precedes F(M) in causality order (8.9.5,
//    second form: one location, generic proxy) and in coherence order
//    (8.10.1), below p. A contradiction.
//  - Else take the path's last edge that fails in X: a blocking wait W2 on
//    M2 for phase j that does not observe an arrive A2 of R-phase <= j that
//    it joined in R (barriers synchronize in every execution, 8.9.4 items
//    2, 3). W2 reads position q >= (j+1)K2 as W does, unless F(M2) lies
//    below W2's thread's arrive of phase j; and if no arrive at a position
//    <= q were misplaced, the first (j+1)K2 positions would hold every arrive
//    of R-phase <= j, A2 among them. So F(M2) lies at or below q: W2 observes
//    it, F(M2) (.release) synchronizes with W2 (.acquire; 8.9.4 item 4),
//    and the rest of the path holds: F(M2) precedes F(M) in base causality
//    order, and F(M2) is itself a first misplaced arrive.
// With finitely many mbarriers, following the second case back from F(M)
// reaches some F(M1) twice: F(M1) synchronizes with a wait W1 on M1 that
// observes it, and W1 precedes F(M1) in base causality order (transitive),
// so F(M1) precedes itself in causality order (8.9.5, second form) and in
// coherence order (8.10.1), which is an order (8.9.6). So no arrive is
// misplaced; every successful wait for phase j reads at or after the
// boundary B_j of X (as W above) and observes at least the arrives of
// phases <= j, which the (j) claim's X' needs (X''s synchronization
// contained in X's); the rest of that claim holds as written, with (k1)
// for the chain order of X'.
#include <algorithm>
#include <bit>
#include <optional>

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

int Hook::canon_arrive(ThreadRec& r, const interp::Thread& t, const interp::Cta& c, const HookAccess& a, int li,
                       uint64_t v) {
  const CommLoc& l = sh_.locs[static_cast<size_t>(li)];
  if (sh_.no_canon || !l.canon) return 0;
  const interp::Inst& in = *a.in;
  CanonRun& cr = canon_[li];
  bool ok = (in.mbar == MbarOp::Arrive || in.mbar == MbarOp::ArriveDrop) && !in.expect_tx &&
            a.space == interp::Space::Shared && a.owner_cta == static_cast<int>(c.uid) && !r.sync_in &&
            (r.block_in == -1 || r.block_in == li || (!sh_.no_cross_wait && l.cross_wait));  // (e), (k1)
  // (a): the returned state is dead, or used only as a wait's state
  // operand (canon_step checks each use).
  bool tok = false;
  if (ok && in.dst[0].kind == interp::Opnd::Reg) {
    const uint32_t pc = static_cast<uint32_t>(a.in - sh_.prog->code.data());
    const std::vector<char>* live = sh_.live_at(t.func, pc + 1);
    tok = !live || in.dst[0].slot >= live->size() || (*live)[in.dst[0].slot];
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
  // (a): the phase bit of the state this arrive returns; with states in
  // use, all arrives of the run must return the same one (canon_check).
  const int ph = static_cast<int>(v >> 63);
  if (cr.phase >= 0 && cr.phase != ph) cr.phases = 2;
  cr.phase = ph;
  // (j1): the thread's i-th arrive reads phase i of the chain, and a
  // blocking wait for the phase of its previous arrive succeeded since:
  // its own, or (k2) another thread's that its clock covers.
  if (in.order == mm::Order::Relaxed) relaxed_mbar_ = true;
  CanonRun::Arriver& ar = cr.arrivers[t.gid];
  bool waited = ar.waited;
  if (!waited && ar.arrives > 0 && !sh_.no_cross_wait && ar.phase < cr.waits_at.size())
    for (auto [g, e] : cr.waits_at[ar.phase])
      if (g < r.vc.size() && r.vc[g] >= e) {
        waited = true;
        cr.by_other = true;
        break;
      }
  // (j): a thread that dropped arrives no more.
  if (ar.arrives != cr.done || (ar.arrives > 0 && !waited) || ar.dropped) cr.phased = false;
  if (in.mbar == MbarOp::ArriveDrop) ar.dropped = true;
  ar.phase = cr.done;
  if (r.block_in != -1) cr.after_block = true;
  if (r.block_in != -1 && r.block_in != li) cr.after_cross = true;
  ar.bit = v >> 63;
  ar.waited = false;
  ++ar.arrives;
  cr.rd_bit = v >> 63;
  r.ev_tag = true;  // (j5)
  r.ev_value = cr.n > 0 ? cr.last_ev : v;
  if (tok) {
    cr.tok = true;
    if (r.canon_tok.empty()) ++canon_toks_;
    r.canon_tok.emplace_back(t.reg_base + in.dst[0].slot, li);
  }
  // (d2): the arrive begins a phase of the machine's chain (it reads the
  // init value or the value that completed the phase before).
  const int at = cr.n == 0 ? 0 : !cr.bound.empty() && cr.last == cr.bound.back() ? 1 : 2;
  auto p = std::find_if(r.canon_pending.begin(), r.canon_pending.end(), [&](const auto& x) { return x.first == li; });
  if (p == r.canon_pending.end())
    r.canon_pending.emplace_back(li, at);
  else
    p->second = std::max(p->second, at);
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
    // Blocking waits: a release arrive (PTX ISA 8.8, first form) passes on
    // what its thread did before it; what the thread does after it is not
    // (a new epoch of its clock, as after a CTA barrier arrival).
    if (a.in->order != mm::Order::Relaxed) {
      if (cr.rel.size() < r.vc.size()) cr.rel.resize(r.vc.size(), 0);
      for (size_t k = 0; k < r.vc.size(); ++k) cr.rel[k] = std::max(cr.rel[k], r.vc[k]);
    }
    ++r.vc[r.t->gid];
    // (j): the phase this arrive completes, if any: the value it wrote
    // (the boundary a wait for the phase reads) and the clocks of the
    // release arrives up to it.
    // (j5): after phase 0, the event carries a tag of the chain position
    // (bit 31, never set in the machine's values, and the position in bits
    // 32-62) instead of the value, which repeats every second phase.
    uint64_t ev = v;
    if (cr.done > 0) {
      ev = (v & 0x800000007fffffffull) | (1ull << 31) | (uint64_t{cr.n & 0x7fffffffu} << 32);
      cr.untag[ev] = v;
    }
    cr.last_ev = ev;
    r.ev_tag = true;
    r.ev_value = ev;
    if ((v >> 63) != cr.rd_bit) {
      cr.bound.push_back(v);
      cr.bound_ev.push_back(ev);
      cr.rel_at.push_back(cr.rel);
      ++cr.done;
    }
    CanonRun::Arriver& ar = cr.arrivers[r.t->gid];
    ar.vc = r.vc;
    ar.sync_reads = r.sync_reads;
    ar.sync_in = r.sync_in;
    return true;
  }
  auto it = canon_.find(li);
  if (it == canon_.end()) {
    if (sh_.no_canon || !sh_.locs[static_cast<size_t>(li)].canon) return true;
    it = canon_.emplace(li, CanonRun{}).first;
  }
  if (it->second.n > 0) return canon_break(li);  // (b): a plain write after an arrive
  it->second.plain.emplace_back(r.t->gid, r.vc[r.t->gid]);
  it->second.plain_vals.insert(v);
  return true;
}

void Hook::canon_read(ThreadRec& r, int li, uint64_t v, bool plain) {
  if (plain) plain_reads_.emplace_back(li, v);  // (e2)
  const bool blocked = r.block_read;
  r.block_read = false;
  std::erase_if(r.canon_pending, [&](const auto& x) { return x.first == li; });
  if (sh_.no_canon || !sh_.locs[static_cast<size_t>(li)].canon) return;
  CanonRun& cr = canon_[li];
  if (!blocked) cr.phased = false;  // (j2): every other read of M is a blocking wait
  cr.reads.emplace_back(r.t->gid, v);
}

bool Hook::canon_plain(const ThreadRec& r, int li) const {
  if (sh_.no_canon || sh_.no_pipe_sync || !sh_.locs[static_cast<size_t>(li)].plain_read) return false;
  return std::none_of(r.events.begin(), r.events.end(), [&](const mm::Event& e) {
    return e.loc == li && e.kind == mm::EventKind::Read && e.order != mm::Order::Weak;
  });
}

bool Hook::canon_fence(ThreadRec& r, const interp::Inst& in) {
  // (e): fence.sc synchronizes (8.9.4 item 1); an acquire fence after a
  // strong read ends an acquire pattern (8.8 form 3).
  const auto strong_read = [](const mm::Event& e) {
    return e.kind == mm::EventKind::Read && e.order != mm::Order::Weak;
  };
  if (in.order == mm::Order::SC || ((in.order == mm::Order::Acquire || in.order == mm::Order::AcqRel) &&
                                    std::any_of(r.events.begin(), r.events.end(), strong_read)))
    r.sync_in = true;
  if (r.canon_pending.empty()) return true;
  // (d), (d2): only arrives that began their phase; after phase 0, the run
  // must meet (j) (canon_check).
  std::vector<std::pair<int, int>> pending;
  pending.swap(r.canon_pending);
  for (auto [li, at] : pending) {
    if (at == 2 || sh_.no_pipe_sync) return canon_break(li);
    if (at == 1) canon_[li].fence_later = true;
  }
  return true;
}

bool Hook::canon_check(bool stopped) {
  if (!round_check()) return false;         // hook_round.cpp (r5)
  if (!chain_check(stopped)) return false;  // updates still waiting (hook_chain.cpp)
  for (const Blocked& b : blocked_) {       // a blocking wait that never completes
    killed = true;
    th[b.gid].killed = true;
  }
  if (stopped && !waits_reduced_.empty()) {  // (g)
    for (int li : waits_reduced_) sh_.locs[static_cast<size_t>(li)].wait_canon = false;
    restart = true;
    return false;
  }
  std::set<uint32_t> dropped;  // CTAs with a thread dropped as a redundant spin
  for (const ThreadRec& r : th)
    if (r.seen && r.killed) dropped.insert(r.cta_uid);
  // (k2) with a .relaxed arrive or wait in the run: (j) does not hold.
  if (relaxed_mbar_)
    for (auto& [li, cr] : canon_)
      if (cr.by_other) cr.phased = false;
  // (k1) in a run outside (j): the location's arrives after a blocking wait
  // on another one turn the run's arrives to choices from now on (as (e)
  // did before (k1); cheaper than turning every arrive to choices).
  auto cross_off = [&](int li) {
    sh_.locs[static_cast<size_t>(li)].cross_wait = false;
    restart = true;
    return false;
  };
  // Several phases (an arrive read phase bit 1) need (j).
  auto phased = [](const CanonRun& cr) { return (cr.phases <= 1 && cr.phase <= 0) || cr.phased; };
  for (int li : waits_blocked_) {  // (h): the run's arrives read one phase, phase 0, or (j)
    auto it = canon_.find(li);
    if (it != canon_.end() && !phased(it->second)) {
      // (e) outside (j): an arrive after a blocking wait; else (h).
      if (it->second.after_cross) return cross_off(li);
      if (it->second.after_block) return canon_break(li);
      sh_.locs[static_cast<size_t>(li)].wait_block = false;
      restart = true;
      return false;
    }
  }
  for (auto& [li, cr] : canon_) {
    if (cr.n == 0) continue;
    if (cr.after_cross && !phased(cr)) return cross_off(li);    // (k1) outside (j)
    if (cr.after_block && !phased(cr)) return canon_break(li);  // (e) outside (j)
    if (!cr.untag.empty() && !cr.phased)                        // (j5): only (j) runs keep the tags
      for (ThreadRec& r : th)
        for (mm::Event& e : r.events)
          if (e.loc == li)
            if (auto u = cr.untag.find(e.value); u != cr.untag.end()) e.value = u->second;
    if (cr.fence_later && !cr.phased) return canon_break(li);    // (d2)
    if ((cr.phases > 1 || cr.phase > 0) && cr.phased) continue;  // (j): (a) by phases, (c) blocking waits only
    if (cr.tok && cr.phases > 1) return canon_break(li);         // (a)
    for (auto [g, v] : cr.reads)                                 // (c)
      if (cr.inter.count(v) && !dropped.count(th[g].cta_uid)) return canon_break(li);
  }
  // (e2): no strong write of the run wrote what such a wait read (the events'
  // values, after (j5)'s untagging).
  for (auto [li, v] : plain_reads_)
    for (const ThreadRec& r : th)
      for (const mm::Event& e : r.events)
        if (e.loc == li && e.kind == mm::EventKind::Write && e.value == v && e.order != mm::Order::Weak) {
          sh_.locs[static_cast<size_t>(li)].plain_read = false;
          restart = true;
          return false;
        }
  return true;
}

void Hook::canon_step(interp::Thread* lanes, const interp::Inst& in, uint32_t exec) {
  for (uint32_t b = exec; b; b &= b - 1) {
    interp::Thread& t = lanes[std::countr_zero(b)];
    if (t.gid >= th.size() || th[t.gid].canon_tok.empty()) continue;
    ThreadRec& r = th[t.gid];
    auto find = [&](uint32_t slot) {
      const uint32_t abs = t.reg_base + slot;
      for (size_t k = 0; k < r.canon_tok.size(); ++k)
        if (r.canon_tok[k].first == abs) return static_cast<int>(k);
      return -1;
    };
    std::vector<std::pair<uint32_t, int>> keep;  // tokens copied by a mov
    auto use = [&](const interp::Opnd& o, bool as_state) {
      if (o.kind != interp::Opnd::Reg) return;
      const int k = find(o.slot);
      if (k < 0) return;
      if (as_state) return;
      if (in.op == IrOp::Mov && &o == &in.src[0] && !o.negate && in.dwidth == 64 &&
          in.dst[0].kind == interp::Opnd::Reg && !in.guarded) {
        keep.emplace_back(t.reg_base + in.dst[0].slot, r.canon_tok[static_cast<size_t>(k)].second);
        return;
      }
      canon_break(r.canon_tok[static_cast<size_t>(k)].second);
    };
    // Instructions whose register traffic the operands do not show (calls,
    // returns, matrix and tensor sites, wgmma registers): any state in use
    // breaks (a).
    if ((in.op == IrOp::Ret && t.frames.empty()) || in.op == IrOp::Exit) {
      r.canon_tok.clear();  // the thread ends
    } else if (in.op == IrOp::Call || in.op == IrOp::Ret || in.op == IrOp::Mma || in.op == IrOp::Tensor ||
               in.op == IrOp::Tex || in.op == IrOp::Unsupported || in.wg_reg) {
      for (auto [slot, li] : r.canon_tok) canon_break(li);
    } else {
      const bool wait = in.op == IrOp::Mbarrier && in.mbar == MbarOp::Wait;
      for (unsigned k = 0; k < 4; ++k) use(in.src[k], wait && k == 0);
      if (in.addr.base == interp::Addr::Reg)
        use(interp::Opnd{interp::Opnd::Reg, interp::SReg::zero, false, in.addr.slot, 0}, false);
      if (in.addr2.base == interp::Addr::Reg)
        use(interp::Opnd{interp::Opnd::Reg, interp::SReg::zero, false, in.addr2.slot, 0}, false);
      if (in.guarded) use(interp::Opnd{interp::Opnd::Reg, interp::SReg::zero, false, in.guard, 0}, false);
    }
    // A register this instruction writes no longer holds a state (unless
    // guarded: it may keep it).
    if (!in.guarded)
      for (unsigned k = 0; k < 4; ++k)
        if (in.dst[k].kind == interp::Opnd::Reg)
          if (const int x = find(in.dst[k].slot); x >= 0) r.canon_tok.erase(r.canon_tok.begin() + x);
    for (auto& e : keep) r.canon_tok.push_back(e);
    if (r.canon_tok.empty()) --canon_toks_;
  }
}

}  // namespace ptxcheck::outcomes
