// Waits on an mbarrier in the outcomes ExecHook (hook_impl.hpp): canonical
// and blocking waits, and the threads parked until a write lets them run
// (wake_blocked, also for RMW chains, hook_chain.cpp, and grid counters,
// hook_grid.cpp). The conditions (a)-(e) on the arrives and the several-
// phase and pipeline rules (j), (k) are in hook_canon.cpp.
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
//  (l) Not the initial contents after a write the clock covers: W's
//      candidates leave out values[0] (the location's initial value, PTX
//      ISA 8.2.6: a hypothetical write W0 before any thread starts) when
//      another candidate completes W's phase, no write of any run so far
//      wrote that value (CommLoc::init_written; an update whose read read it
//      under (l) itself does not count, below), and a write Wp of M in this
//      run precedes W in causality order: W's own thread wrote it, or W's
//      clock covers Wp's (gid, epoch) (writes_at_, program order and CTA
//      barriers, 8.9.4 item 2, and the joins of blocking waits (i), as
//      Hook::ordered is used for (b) and det_access). W0 precedes every
//      overlapping write in coherence order (executed before any thread;
//      memmodel's initial writes first), so by 8.10.6 Causality item 2 W
//      cannot read from W0; and no other write of the run has that value,
//      so a run where W reads it has no consistent execution where W reads
//      it. (The run where W reads another completing value v' has the same
//      thread behaviour after W: W's result is the phase bit only.) A
//      fresh mbarrier waited on with parity 1 (libcu++'s
//      pipeline::producer_acquire) completes at once on both the init value
//      and the memory before init: without (l) each polling thread doubled
//      the launches (probe9i's i16m, 5 * 2^N). An update (an arrive) whose
//      read half read that value with such a Wp before it read W0 in no
//      consistent execution (the same item) or a write of the value that is
//      itself counted, so its write does not set init_written (rmw_floored).
//      The first counted write of the value, in any run, sets init_written;
//      if a wait left the value out before (CommLoc::init_dropped), the run
//      stops and the exploration restarts with (l) off for M: a later write
//      of the value (mbarrier.inval writes 0) may be what W reads.
//      PTXCHECK_OUTCOMES_NO_INIT_FLOOR=1 turns (l) off.
//  (m) Before any update: a wait W that several values complete (parity 1
//      on a fresh barrier: every phase-0 value does) reads the machine's
//      value when no strong write of M has run yet, every write of M so
//      far precedes W in causality order (W's thread, or its clock covers
//      the writer's epoch), W's thread read M never before and received no
//      synchronization through memory (sync_in: (e), (e1), (e2)). Then
//      every operation before W in causality order ran before W in the
//      machine (program order, CTA barriers and blocking waits go forward),
//      so no strong write of M precedes W; W reading the machine's latest
//      (plain) write P is consistent on M (8.10.5: no earlier read of M in
//      W's thread; 8.10.6: P precedes W, and nothing after P in coherence
//      does). For an execution X where W reads an arrive's value v_k
//      instead, the execution X' where W reads P has the same thread
//      behaviour (W's result is its phase bit: 9.7.13.15), the same final
//      state, and a synchronization contained in X's (a weak write is in no
//      release pattern, 8.8), so every axiom that holds in X holds in X'
//      and X's races are X''s (8.7.1). Without (m) the (c) check of
//      hook_canon.cpp saw W read v_k and turned M's arrives to choices.
//      PTXCHECK_OUTCOMES_NO_PIPE_SYNC=1 turns (m) off with (d2), (e1), (e2);
//      PTXCHECK_OUTCOMES_NO_INIT_FLOOR=1 turns it off with (l).
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

bool Hook::canon_wait(const ThreadRec& r, const interp::Thread& t, const HookAccess& a, int li, uint64_t mv,
                      std::vector<uint32_t>& cand) {
  CommLoc& l = sh_.locs[static_cast<size_t>(li)];
  const interp::Inst& in = *a.in;
  if (sh_.no_canon || !l.wait_canon || l.size != 8 || (in.mbar != MbarOp::Wait && in.mbar != MbarOp::WaitParity))
    return false;
  if (!sh_.wait_redundant(t.func, static_cast<uint32_t>(a.in - sh_.prog->code.data()))) return false;
  const std::optional<uint64_t> phase = waited_phase(t, in);
  if (!phase) return false;
  const uint64_t want = *phase;
  // (l): not the initial contents (values[0], no write of any run wrote
  // that value) after a write of M that W's thread's clock covers, when
  // another value completes the phase.
  const bool floor = !l.init_written && l.values.size() > 1 && init_floor(r, li);
  for (uint32_t k = floor ? 1 : 0; k < l.values.size(); ++k)
    if ((l.values[k] >> 63) != want) cand.push_back(k);
  if (floor && cand.empty() && (l.values[0] >> 63) != want) cand.push_back(0);
  // (m): before any update of M, the machine's value (a plain write's).
  if (cand.size() > 1 && (mv >> 63) != want && before_updates(r, li)) {
    auto k = std::find(l.values.begin(), l.values.end(), mv);
    if (k != l.values.end()) cand.assign(1, static_cast<uint32_t>(k - l.values.begin()));
  }
  if (!cand.empty()) {
    waits_reduced_.insert(li);
    if (floor && cand[0] != 0 && (l.values[0] >> 63) != want) l.init_dropped = true;
    return true;
  }
  // No value completes the phase yet: one failing value stands for all
  // (the run is dropped whichever it reads).
  cand.push_back(0);
  return true;
}

bool Hook::poll_cand(const interp::Thread& t, const HookAccess& a, int li, std::vector<uint32_t>& cand) {
  const CommLoc& l = sh_.locs[static_cast<size_t>(li)];
  const interp::Function& f = sh_.prog->funcs[t.func];
  if (sh_.no_canon || sh_.no_poll_unroll || !l.wait_canon || a.size != a.in->size ||
      t.reg_base + f.nregs > t.regs.size())
    return false;
  const uint32_t pc = static_cast<uint32_t>(a.in - sh_.prog->code.data());
  if (!sh_.poll_unrolled(t.func, pc, t.regs.data() + t.reg_base, l.values, cand)) return false;
  waits_reduced_.insert(li);  // (g)
  return true;
}

bool Hook::before_updates(const ThreadRec& r, int li) const {
  if (sh_.no_pipe_sync || sh_.no_init_floor || r.sync_in) return false;
  auto it = writes_at_.find(li);
  if (it == writes_at_.end()) return false;
  for (auto [g, e] : it->second)  // every write so far precedes W in causality order
    if (g != r.t->gid && !ordered(r, g, e)) return false;
  const auto own_read = [&](const mm::Event& e) { return e.loc == li && e.kind == mm::EventKind::Read; };
  if (std::any_of(r.events.begin(), r.events.end(), own_read)) return false;
  const auto strong = [&](const mm::Event& e) {
    return e.loc == li && e.kind == mm::EventKind::Write && e.order != mm::Order::Weak;
  };
  for (const ThreadRec& o : th)  // and is a plain write
    if (std::any_of(o.events.begin(), o.events.end(), strong)) return false;
  return true;
}

bool Hook::init_floor(const ThreadRec& r, int li) const {
  if (sh_.no_init_floor) return false;
  auto it = writes_at_.find(li);
  if (it == writes_at_.end()) return false;
  for (auto [g, e] : it->second)
    if (g == r.t->gid || ordered(r, g, e)) return true;
  return false;
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
  // reads are as after the arrive; a weak ld of a communicating location
  // between them, such as a read of a slot before the wait, is none: it
  // forms no acquire pattern and is morally strong with no write, so no
  // observation order or synchronization reaches the thread through it,
  // PTX ISA 8.8, 8.7, 8.9.2, 8.9.4) and did not wait for that phase yet.
  if (!ar || ar->waited || ar->vc != r.vc || ar->sync_reads != r.sync_reads || ar->sync_in != r.sync_in)
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

}  // namespace ptxcheck::outcomes
