// Synchronization through grid counters and flags of `ptxcheck outcomes`
// (hook_grid.cpp (g4), (f4)): a poll's thread joins the clocks of the
// release patterns its read observes (grid_sync, grid_flush, grid_fence),
// and tickets (t), grid counters without polls, whose updates' reads do.
//
// Tickets (t). A last block (`__threadfence(); if (atomicInc(&count, n) ==
// n - 1) { __threadfence(); read what every CTA wrote }`, the
// threadFenceReduction sample, a histogram whose last CTA copies the global
// bins) or a work queue's `atomicAdd(&next, 1)` updates a global word from
// several CTAs and uses the result without polling it. With the CTAs
// explored apart, each update's read was a value choice, and so was each
// last-block read of what the other CTAs wrote: a bin that the CTAs
// atomicAdd into was a choice over every partial sum, composed across CTAs
// (probe9j's j19m: 2 CTAs x 2 bins 1,464 launches; 2 x 3 and 3 x 2 out of
// memory at 2 GB; j19, 3 CTAs x 64 threads and 4 bins, at 3 GB).
// A location is a ticket once a run shows writes by two CTAs, every write an
// update (atom/red of one scalar, not cas or exch) of scope .gpu or .sys, or
// a plain store as flags allow ((f1): the sample's last block resets the
// count), and an update (atom, not red) of scope .gpu or wider whose result
// register is live after it (Hook::result_unused; with its result dead it
// is a commuting update, hook_det.cpp, and a bin that the last block reads
// would be chained in every order of its updates), after a release of its
// thread and .acquire or followed on some path by an acquire (else (t1)
// cannot synchronize and joining only costs launches: grid_update). It is
// then a grid counter without polls (Hook::grid_ready): the CTAs are
// explored as one unit, taking turns in one round-robin (explore.cpp: a CTA
// parked at its update resumes after another CTA's write), and (g1), (g2)
// hold as argued in hook_grid.cpp (each update reads the machine's latest
// write of the chain, its coherence predecessor, in every consistent
// execution of the run), and:
//  (t1) the read half R of an update U, reading W_n, the latest write of the
//       chain, synchronizes with every W_j, j <= n, that is the write of a
//       release pattern (8.8 form 1: W_j's update is .release or stronger;
//       form 3: a release fence of scope .gpu or wider precedes it in
//       program order), when U is .acquire or stronger (acquire form 1: its
//       thread joins those clocks at R), or, for a relaxed U, from its
//       thread's next acquire fence of scope .gpu or wider on (acquire form
//       3: a strong read, then fence.acquire, fence.acq_rel or fence.sc;
//       grid_fence). W_j precedes R in observation order: R reads W_n,
//       morally strong (two updates of scope .gpu or wider on the same
//       bytes, 8.7; 8.9.2 item 1), and W_j precedes R through the atomic
//       updates W_j+1 .. W_n, each reading its predecessor (8.9.2 item 2,
//       8.10.3). The first operation of the release pattern and the last of
//       the acquire pattern are strong with scopes of .gpu or wider, so
//       morally strong (8.7), and the patterns synchronize (8.9.4 item 4):
//       all that precedes the release pattern in program order (and, as the
//       clock at the pattern holds, in causality order: CTA barriers) then
//       precedes all that follows the acquire pattern in causality order
//       (8.9.5). This is (g4) with R for the poll (grid_sync); a red's
//       read forms no acquire pattern (8.8, last note) and is left out.
// So a last block's reads of what every CTA wrote before its fenced ticket
// are ordered after each such write by the clocks: the location stays
// deterministic (with the bins' atomicAdds, commuting updates that the
// clocks order before every other access, hook_det.cpp) and each read takes
// its one value (8.10.6 Causality 2), without a choice. With no fence after
// the ticket (the sample as written) or none before it, no pattern forms:
// the data stays communicating and the stale states are listed. Under-
// approximation only: a missed pattern leaves a location communicating and
// costs launches, never states. PTXCHECK_OUTCOMES_NO_TICKET=1 turns (t) off
// (tickets choose values with the CTAs apart; tests/corpus/outcomes_ticket9.py
// compares).
#include "semantics/outcomes/hook_impl.hpp"

namespace ptxcheck::outcomes {

using gridx::acquires;
using gridx::includes;
using gridx::join;
using gridx::releases;
using gridx::wide;
using interp::HookAccess;
using interp::HookKind;
using interp::Inst;
using interp::IrOp;

void Hook::grid_flush(ThreadRec& r) {
  const ThreadRec::Poll p = r.poll;
  r.poll.li = -1;
  --polls_;
  const Inst& in = *p.in;
  mm::Event e;
  e.kind = mm::EventKind::Read;
  e.loc = p.li;
  e.value = p.v;
  e.scope = in.scope;
  e.order = in.order;
  ++r.comm_reads;
  ++r.sync_reads;
  r.sync_in = true;
  canon_read(r, p.li, p.v);
  const int id = push(r, std::move(e), &in);
  if (r.read_chain.size() <= static_cast<size_t>(id)) r.read_chain.resize(static_cast<size_t>(id) + 1);
  r.read_chain[static_cast<size_t>(id)] = sh_.chain_of(p.li, p.v);
  // 8.10.4: the loop's exit, and with it everything after, depends on the
  // value; so does the destination, if the thread has not overwritten it.
  if (!r.tracking) r.tracking = true, ++tracking_;
  merge(r.ctrl_on, Deps{id});
  const interp::Thread& t = *r.t;
  if (r.rdeps.size() < t.regs.size()) r.rdeps.resize(t.regs.size());
  if (in.dst[0].kind == interp::Opnd::Reg && t.reg_base + in.dst[0].slot < r.rdeps.size())
    r.rdeps[t.reg_base + in.dst[0].slot] = Deps{id};
  r.grid_floor[p.li] = p.pos;
  round_flush(p.li, t.gid);  // (g7)
  grid_sync(r, p.li, p.pos, in);
}

void Hook::grid_sync(ThreadRec& r, int li, uint32_t pos, const Inst& in) {
  // (g4): the release patterns of the chain up to the write read; (f4):
  // a plain write W_j precedes the poll in observation order only as the
  // write read, or through updates W_j+1 .. W_k reading their predecessors
  // (8.9.2), each pair morally strong (8.7).
  const GridRun& g = grid_[li];
  std::vector<uint32_t> j;
  bool other = false;
  const int64_t cta = r.cta_uid;
  const uint64_t key = sh_.locs[static_cast<size_t>(li)].key;
  auto incl = [key](mm::Scope s, int64_t a, int64_t b) { return includes(s, a, b, key); };
  for (uint32_t k = pos; k > 0 && k <= g.rel.size() && k <= g.pos.size(); --k) {
    const GridRun::Pos& w = g.pos[k - 1];
    // The write and the poll, and the first operation of the release
    // pattern (the write or its fence) with the poll's thread.
    const std::vector<uint32_t>& rel = w.cta == cta ? g.rel[k - 1] : w.rel_wide;
    if (w.strong && incl(w.scope, w.cta, cta) && incl(in.scope, cta, w.cta) && !rel.empty()) {
      join(j, rel);
      other = other || w.cta != cta;
    }
    if (k == pos && !(w.strong && incl(w.scope, w.cta, cta) && incl(in.scope, cta, w.cta))) break;
    if (!w.upd || k < 2) break;
    const GridRun::Pos& b = g.pos[k - 2];  // W_k reads W_k-1: morally strong
    if (!(b.strong && incl(b.scope, b.cta, w.cta) && incl(w.scope, w.cta, b.cta))) break;
  }
  if (j.empty()) return;
  if (acquires(in.order)) {
    join(r.vc, j);
  } else {
    join(r.acq_pending, j);
    r.acq_wide = r.acq_wide || other;
  }
}

void Hook::grid_update(ThreadRec& r, const interp::Thread& t, const HookAccess& a, int li, bool chain) {
  const Inst& in = *a.in;
  if (sh_.no_grid || a.kind != HookKind::RmwRead || in.op != IrOp::Atom || in.atom == arith::AtomOp::Cas ||
      in.atom == arith::AtomOp::Exch)
    return;
  CommLoc& l = sh_.locs[static_cast<size_t>(li)];
  if (l.grid == 0) {
    // (t): a ticket, once its writes show two CTAs (Hook::grid_ready), when
    // (t1) may let it synchronize: its thread released before it (8.8
    // release forms 1-3: ThreadRec::released) and it is .acquire or an
    // acquire may follow it in its thread (Shared::acquire_from). Else
    // joining the CTAs would only explore as one unit what the units
    // explored apart compose: the data stays communicating either way
    // (the threadFenceReduction sample without the fence after its ticket:
    // 63,966 launches joined, 1,464 apart).
    const uint32_t pc = static_cast<uint32_t>(a.in - sh_.prog->code.data());
    if (l.ticket || sh_.no_ticket || !wide(in.scope) || in.ndst != 1 || in.dst[0].kind != interp::Opnd::Reg ||
        !(r.released || releases(in.order)) || result_unused(t, t.func, pc + 1, in.dst[0].slot, t.frames.size()))
      return;
    int k = acquires(in.order) ? 1 : sh_.acquire_from(t.func, pc + 1);
    for (size_t i = t.frames.size(); k == 2 && i-- > 0;) k = sh_.acquire_from(t.frames[i].func, t.frames[i].ret_pc);
    l.ticket = k != 0;
    return;
  }
  // (t1): the update read the latest write of the chain (hook_chain.cpp).
  if (chain && grid_on(li)) grid_sync(r, li, static_cast<uint32_t>(grid_[li].vals.size()), in);
}

void Hook::grid_fence(ThreadRec& r, const Inst& in) {
  if (!sh_.grid_any || (sh_.no_flag && !wide(in.scope))) return;
  // 8.8 acquire form 3: a relaxed poll, then this fence (morally strong with
  // the release pattern's first operation: its scope includes the writers,
  // (f4)).
  if (acquires(in.order) && !r.acq_pending.empty() && (wide(in.scope) || !r.acq_wide)) {
    join(r.vc, r.acq_pending);
    r.acq_pending.clear();
    r.acq_wide = false;
  }
  // 8.8 release form 3: this fence, then an update of a grid counter.
  if (releases(in.order)) {
    r.rel_vc = r.vc;
    if (wide(in.scope)) r.rel_wide = r.vc;
    ++r.vc[r.t->gid];
  }
}

}  // namespace ptxcheck::outcomes
