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
//  (a) Every update of M is an mbarrier.arrive (not arrive_drop, no
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
//  (e) A thread that arrives has not synchronized with another thread
//      through memory before (no communicating read but a weak ld, which
//      is no acquire pattern and morally strong with nothing, 8.8, 8.7,
//      and a blocking wait, which synchronizes only with arrives the
//      machine ran before it ((i), (j)); no fence.sc or cluster barrier;
//      also not in a thread that reaches it through CTA barriers, which
//      the machine runs in order). Then every causality order
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
// Canonical waits (canon_wait): a test_wait/try_wait W of M reads only the
// values that complete its phase when its failure is redundant, checked
// statically (Shared::wait_redundant): every path from W with its
// predicate false only computes registers (no memory access, fence,
// barrier, call or exit) and either
//  (f1) jumps back to the head of a loop that Hook::back_jump drops at once
//       (Shared::pure_loop, and so is every other backward jump to that
//       head, so the thread never records an arrival there): the thread is
//       parked and the run dropped, whatever W read; or
//  (f2) reaches a wait W' equal to W (same operation, order, scope, object
//       and state or parity operand, registers unchanged since W), and,
//       where W' succeeds, meets the path of W's success at a code index
//       where no live register was written on either path since W.
// W's result depends only on the phase bit of what it reads (9.7.13.15),
// so a failing W leaves the thread in one state whatever failing value it
// read. Let R_f be a run with the same other choices where W fails and
// R_t one where W reads the value v that W' read instead. By (f1) R_f is
// dropped, or by (f2) the thread in R_f does, after W's event, the reads
// of equal waits and then what it does in R_t after W: a consistent
// execution of R_f minus the events of W and the failed W's (reads, with
// the event of W' as W's: the same instruction semantics, at the same place
// among the thread's other events) is an execution of R_t, consistent
// because every axiom of 8.10 forbids a cycle or requires an inclusion
// in coherence order that a restriction keeps (8.9: dropping reads
// removes observation, synchronizes-with and causality edges, adds none),
// with the same final state. So R_f adds no final state. R_f also adds no
// value to the value sets that the runs of R_t's kind lack: the thread
// writes nothing between W and where R_t resumes, the other threads read
// communicating locations from the value sets, not from it, deterministic
// locations only in an order the barriers fix (which the parked thread
// can only hold back), and canonical arrives write v_1 .. v_n whatever
// their order; a run of R_t's kind does at least what R_f does unless it
// stops on an error: (g) a run with a wait reduced that stops on an error
// (a fault, a deadlock, the step limit) turns the reduction off for M
// (CommLoc::wait_canon) and restarts the exploration. When no value of M's
// set completes W's phase yet, W reads one failing value: by (f1) and
// (f2), every run where it fails is dropped, whichever failing value it
// read. PTXCHECK_OUTCOMES_NO_CANON=1 turns this off too.
//
// Blocking waits (canon_block, spin_jump): a canonical wait W of M (M
// canonical, an mbarrier of W's own CTA, no update of M in the run chose
// its value) that waits for phase 0, or for the phase of its thread's
// latest arrive on M (j), and whose failed polls only spin
// (Shared::wait_spins: wait_redundant, and every path from W with its
// predicate false, also past the backward jumps it takes, computes
// registers only until a wait with the same operands; that this one polls
// M for phase 0 again is checked as it runs, else M's waits stop blocking
// and the exploration restarts) reads the machine's value of M instead of
// a chosen one. If that value has not completed the phase, the poll leaves no
// event, and at the backward jump that ends the failed iteration the thread
// is parked (spin_jump); a write of M makes it ready again before the next
// instruction runs (wake_blocked: the Machine skips parked threads and ends
// the cluster quietly when only parked ones are left), and it polls again.
// A thread still parked when the launch ends waits for a phase that no
// write of the run completes: the run is dropped as a redundant spin.
//  (h) Every arrive of a run with a blocking wait on M reads phase 0, or
//      the run meets (j) below (canon_check; else M's waits stop blocking
//      and the exploration restarts). Then the values of M in the run are the plain writes'
//      (phase 0), v_1 .. v_{n-1} (phase 0) and, if the phase completes,
//      v_n (phase 1), and a wait for phase 0 succeeds exactly when it reads
//      v_n. A failed poll is a failed W of (f1)/(f2): removing it leaves an
//      execution of the run where the next poll is W, with the same final
//      state, as above, so the polls that fail add nothing. The poll that
//      succeeds reads v_n, the one value that completes the phase, as a
//      chosen read would; and if the phase never completes in the machine,
//      no write of the run completes it (the machine runs the whole
//      chain), so W fails in every execution and its thread never ends.
//  (i) Such a W that reads v_n with acquire semantics (not .relaxed)
//      synchronizes with every release arrive A_k of the chain (not
//      .relaxed; PTX ISA 9.7.13.15: arrive has .release and test_wait/
//      try_wait .acquire semantics by default, 8.8 first forms): v_n is
//      written only by the chain's last arrive (the plain writes and
//      v_1 .. v_{n-1} have phase bit 0), each arrive reads the one before
//      it in every consistent execution (atomicity, 8.10.3), so A_k's write
//      precedes W in observation order through the RMW chain (8.9.2 item
//      2), and A_k and W are morally strong (8.7: one CTA, scopes of at
//      least .cta). By 8.9.4 item 4 A_k synchronizes with W, so everything
//      before A_k in A_k's thread precedes everything after W in W's thread
//      in base causality order (8.9.5). W's thread joins the vector clocks
//      of those arrives (taken at each arrive, whose thread then starts a
//      new epoch), as a thread leaving a CTA barrier joins the clocks of
//      its arrivals (hook_barrier.cpp): a location whose every conflicting
//      pair of accesses is then ordered by these clocks, and so by
//      causality order in every consistent execution of the run, stays
//      deterministic (Hook::det_access): no data race (8.7.1), the writes
//      ordered in coherence order as in causality order (8.9.6, 8.10.1),
//      and a read returns the latest write before it in causality order
//      (8.10.6: not an earlier one, nor one after it). The machine runs the
//      thread after W only once the phase completed, so after every write
//      ordered before an arrive: the value it reads is that one. A write
//      after an arrive is not ordered (its thread's new epoch) and makes
//      the location communicating, as before.
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

namespace {

// The phase bit a test_wait/try_wait waits on: the state operand's bit 63,
// or the parity operand's bit 0 (the phase has completed when the object's
// phase bit differs from it; Machine: exec_async.cpp). None when the
// operand is neither a register nor an immediate.
std::optional<uint64_t> waited_phase(const interp::Thread& t, const interp::Inst& in) {
  uint64_t x = 0;
  if (in.src[0].kind == interp::Opnd::Reg)
    x = t.regs[t.reg_base + in.src[0].slot];
  else if (in.src[0].kind == interp::Opnd::Imm)
    x = in.src[0].imm;
  else
    return std::nullopt;
  return in.mbar == MbarOp::Wait ? x >> 63 : x & 1;
}

}  // namespace

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
  bool ok = in.mbar == MbarOp::Arrive && !in.expect_tx && a.space == interp::Space::Shared &&
            a.owner_cta == static_cast<int>(c.uid) && !r.sync_in &&
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
  if (ar.arrives != cr.done || (ar.arrives > 0 && !waited)) cr.phased = false;
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
    ar.comm_reads = r.comm_reads;
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

void Hook::canon_read(ThreadRec& r, int li, uint64_t v) {
  const bool blocked = r.block_read;
  r.block_read = false;
  std::erase(r.canon_pending, li);
  if (sh_.no_canon || !sh_.locs[static_cast<size_t>(li)].canon) return;
  CanonRun& cr = canon_[li];
  if (!blocked) cr.phased = false;  // (j2): every other read of M is a blocking wait
  cr.reads.emplace_back(r.t->gid, v);
}

bool Hook::canon_fence(ThreadRec& r, const interp::Inst& in) {
  if (in.order == mm::Order::SC) r.sync_in = true;  // (e): fence.sc synchronizes (8.9.4 item 1)
  if (r.canon_pending.empty()) return true;
  const int li = r.canon_pending.front();  // (d)
  r.canon_pending.clear();
  return canon_break(li);
}

bool Hook::canon_check(bool stopped) {
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
    if ((cr.phases > 1 || cr.phase > 0) && cr.phased) continue;  // (j): (a) by phases, (c) blocking waits only
    if (cr.tok && cr.phases > 1) return canon_break(li);         // (a)
    for (auto [g, v] : cr.reads)                                 // (c)
      if (cr.inter.count(v) && !dropped.count(th[g].cta_uid)) return canon_break(li);
  }
  return true;
}

bool Hook::canon_wait(const interp::Thread& t, const HookAccess& a, int li, std::vector<uint32_t>& cand) {
  const CommLoc& l = sh_.locs[static_cast<size_t>(li)];
  const interp::Inst& in = *a.in;
  if (sh_.no_canon || !l.wait_canon || l.size != 8 || (in.mbar != MbarOp::Wait && in.mbar != MbarOp::WaitParity))
    return false;
  if (!sh_.wait_redundant(t.func, static_cast<uint32_t>(a.in - sh_.prog->code.data()))) return false;
  const std::optional<uint64_t> phase = waited_phase(t, in);
  if (!phase) return false;
  const uint64_t want = *phase;
  for (uint32_t k = 0; k < l.values.size(); ++k)
    if ((l.values[k] >> 63) != want) cand.push_back(k);
  if (!cand.empty()) {
    waits_reduced_.insert(li);
    return true;
  }
  // No value completes the phase yet: one failing value stands for all
  // (the run is dropped whichever it reads).
  cand.push_back(0);
  return true;
}

int Hook::canon_block(ThreadRec& r, const interp::Thread& t, const interp::Cta& c, const HookAccess& a, int li,
                      uint64_t& v) {
  const int spun = r.spin_li;
  const int res = canon_block_at(r, t, c, a, li, v);
  if (spun >= 0 && (res == 0 || li != spun)) {
    // A spinning thread polls something else (a register of the loop
    // changed the object or the phase): its failed polls are not those of
    // one wait. Fall back to choices.
    sh_.locs[static_cast<size_t>(spun)].wait_block = false;
    restart = true;
    return -1;
  }
  return res;
}

int Hook::canon_block_at(ThreadRec& r, const interp::Thread& t, const interp::Cta& c, const HookAccess& a, int li,
                         uint64_t& v) {
  const CommLoc& l = sh_.locs[static_cast<size_t>(li)];
  const interp::Inst& in = *a.in;
  if (sh_.no_canon || !l.canon || !l.wait_canon || !l.wait_block || l.size != 8 ||
      (in.mbar != MbarOp::Wait && in.mbar != MbarOp::WaitParity) || a.space != interp::Space::Shared ||
      a.owner_cta != static_cast<int>(c.uid))
    return 0;
  auto it = canon_.find(li);
  if (it != canon_.end() && it->second.other_rmw) return 0;  // the machine's value came from a choice
  // (h), (j): a thread that arrived on M waits for the phase of its latest
  // arrive (the state's phase bit, or the parity, is the bit that arrive
  // read), any other thread for phase 0.
  const std::optional<uint64_t> phase = waited_phase(t, in);
  if (!phase) return 0;
  CanonRun& cr = canon_[li];
  auto ai = cr.arrivers.find(t.gid);
  CanonRun::Arriver* ar = ai != cr.arrivers.end() ? &ai->second : nullptr;
  if (ar ? *phase != ar->bit : *phase != 0) return 0;
  if (!sh_.wait_spins(t.func, static_cast<uint32_t>(a.in - sh_.prog->code.data()))) return 0;
  waits_reduced_.insert(li);
  waits_blocked_.insert(li);
  if (!ar) cr.phased = false;  // (j3): a thread that did not arrive on M
  if ((v >> 63) == *phase) {   // the phase has not completed in the machine: block
    r.spin_li = li;
    r.spin_serial = writes_;
    return 2;
  }
  r.spin_li = -1;
  r.block_read = true;
  r.block_in = r.block_in == -1 || r.block_in == li ? li : -2;
  // (j3): a thread that waits on M arrived on it, and since its latest
  // arrive it received no synchronization (its clock and synchronizing
  // reads are as after the arrive) and did not wait for that phase yet.
  if (!ar || ar->waited || ar->vc != r.vc || ar->comm_reads != r.comm_reads || ar->sync_in != r.sync_in)
    cr.phased = false;
  const uint32_t p = ar ? ar->phase : 0;
  if (ar) ar->waited = true;
  if (in.order == mm::Order::Relaxed) relaxed_mbar_ = true;
  if (ar) {  // (k2): a wait for phase p that other threads' next arrives may follow
    if (cr.waits_at.size() <= p) cr.waits_at.resize(p + 1);
    cr.waits_at[p].emplace_back(t.gid, r.vc[t.gid]);
  }
  // (i), (j4): the wait reads the value the last arrive of its phase wrote
  // (the machine may be further on), with acquire semantics: it
  // synchronizes with every release arrive of that phase and the ones
  // before it in the chain.
  if (p < cr.bound.size()) {
    v = cr.bound[p];
    r.ev_tag = true;
    r.ev_value = cr.bound_ev[p];
    if (in.order != mm::Order::Relaxed) {
      const std::vector<uint32_t>& rel = cr.rel_at[p];
      for (size_t k = 0; k < r.vc.size() && k < rel.size(); ++k) r.vc[k] = std::max(r.vc[k], rel[k]);
    }
  }
  return 1;
}

interp::ExecHook::Jump Hook::spin_jump(ThreadRec& r, interp::Thread& t, const interp::Cta& c) {
  // The failed poll's iteration ends: the thread waits, parked, until a
  // write of M (wake_blocked). A thread still parked when the launch ends
  // (no thread could run any more) waits for a phase that no write of the
  // run completes: as a dropped spin, the run is dropped (canon_check).
  // (A write of M since the poll, by a lane of this warp that ran in
  // between: poll again.)
  if (auto it = loc_written_.find(r.spin_li); it != loc_written_.end() && it->second > r.spin_serial)
    return Jump::Continue;
  blocked_.push_back({&t, &c, t.gid, r.spin_li});
  return Jump::Park;
}

void Hook::wake_blocked() {
  std::vector<Blocked> keep;
  for (const Blocked& b : blocked_) {
    // (An update waits for a write after it parked: hook_chain.cpp.)
    // (A grid counter's poll waits until the chain has `since` writes: hook_grid.cpp.)
    if (!written_.count(b.li) || (b.rmw && loc_written_[b.li] <= b.since) ||
        (b.poll && grid_[b.li].vals.size() < b.since)) {
      keep.push_back(b);
      continue;
    }
    // As Machine::unconverge: the warp's lanes leave its converged group, so
    // that the next step picks the lanes to run among the ready ones.
    interp::Cta& cta = const_cast<interp::Cta&>(*b.cta);
    interp::Warp& w = cta.warps[b.t->lin / 32];
    if (w.conv) {
      for (uint32_t g = w.group; g; g &= g - 1) cta.threads[w.first + std::countr_zero(g)].pc = w.pc;
      w.conv = false;
    }
    b.t->st = interp::TState::Ready;
  }
  blocked_ = std::move(keep);
  written_.clear();
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
