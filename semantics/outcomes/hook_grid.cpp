// Grid counters of `ptxcheck outcomes` (CommLoc::grid): a global word that
// threads of several CTAs update with atomics and poll in a spin loop until
// it reaches a value, as cooperative_groups' grid.sync() does (each CTA's
// thread 0: bar.sync; atom.add.release.gpu; ld.acquire.gpu until the top
// bit flips; bar.sync) and as hand-written grid barriers do with a
// __threadfence() and volatile polls. Explored as before, each update of
// the word read a chosen value (the CTAs are explored apart, so hook_chain's
// condition (a) fails), and every read after the barrier of what another
// CTA wrote before it was a choice too: a CTA summing 24 parts took 2^24
// paths.
//
// A location x is a grid counter once a run shows: writes of x by threads of
// two CTAs, every write of x an update U (atom, one scalar element, not cas
// or exch) of scope .gpu or .sys, and a poll of x, a strong read of scope
// .gpu or .sys in a loop (Shared::pure_loop) whose other instructions only
// compute registers or branch (Shared::poll_at). Then the CTAs are explored
// together (one unit: a grid counter joins CTAs as a cluster barrier does,
// explore.hpp) and:
//  (g1) the updates of x form one RMW chain in the machine's order
//       (hook_chain.cpp, whose argument holds unchanged with the grid as
//       the unit: its condition (a) is there so that the updates are
//       pairwise morally strong, which scope .gpu gives across CTAs, PTX
//       ISA 8.7, and so that a CTA explored apart does not read another
//       CTA's path, moot here); Hook::rmw_wait offers every update to wait
//       while a thread of any CTA may still write x (other_writer);
//  (g2) checked in every run, else x goes back to value choices and the
//       exploration restarts (grid_break): every write of x is such an
//       update, and each read of x (an update's read half, a poll) reads a
//       value that no write at a position from its thread's floor (below)
//       to the one it reads has (unique). A read program-order-after its
//       thread's write W or read of W cannot read from a write
//       coherence-before W (8.10.6 Causality 2; the chain is x's coherence
//       order, 8.10.3, 8.9.6), and reading a later write of the same value
//       would only synchronize more: in every consistent execution of the
//       run, each read reads from the write the run gave it, or a later one;
//  (g3) before a poll P runs (grid_step), the search chooses the write of
//       the chain that P reads, among those executed from the floor (the
//       latest write its thread made or read there) to the latest, or to
//       park the thread until the next write of x, offered while another
//       thread of the grid may still write x (other_writer); after a wait
//       it chooses among the newer writes only (it did nothing meanwhile:
//       reading an older one then is the run that read it before waiting).
//       P's event waits until its thread leaves the loop (grid_flush, at
//       its next instruction that does more than compute registers or
//       branch; its destination then depends on it, and so, by control,
//       does all that follows, 8.10.4). If the loop goes back instead
//       (grid_jump), P failed and leaves no event: a failed iteration of a
//       pure loop is redundant (docs/outcomes.md "Spin loops": removing its
//       reads removes edges and adds none, 8.10), and the choices of
//       another write or of waiting cover what follows; the launch stops.
//       Completeness: take a consistent execution X where P reads W_k.
//       Coherence (the chain) puts W_k at or after P's floor; W_k is not
//       causality-after P (8.10.6 Causality 1), so its thread reaches it
//       without P's thread going on, and the run that parks P's thread
//       until W_k has run, then reads it, follows X;
//  (g4) synchronization: a poll P that reads W_k (k-th in the chain)
//       synchronizes with every write W_j, j <= k, that is the write of a
//       release pattern (8.8: U itself .release/.acq_rel/.sc, form 1, or a
//       release fence of scope .gpu or wider before it in program order,
//       form 3), when P is .acquire (form 1), or, for a relaxed P, from its
//       thread's next acquire fence of scope .gpu or wider on (form 3):
//       W_j precedes P in observation order through the updates
//       W_{j+1} .. W_k, each an atomic reading its predecessor (8.9.2 item
//       2; (g2): in every consistent execution of the run), and the first
//       operation of the release pattern and the last of the acquire
//       pattern are strong with scopes .gpu or wider, so morally strong
//       (8.7), and the patterns synchronize (8.9.4 item 4), which puts
//       everything program-order-before the release pattern (and before
//       it in causality order, as the clock at the pattern holds: CTA
//       barriers) before everything after the acquire pattern in causality
//       order (8.9.5). So P's thread joins the vector clocks taken at those
//       patterns, as a thread leaving a CTA barrier does (hook_barrier.cpp),
//       and each release starts a new epoch of its thread (later writes are
//       not covered). A location whose writes all come before such a
//       pattern and whose reads come after such a join stays deterministic:
//       a read after grid.sync() of what another CTA wrote before it takes
//       its one value (8.10.6 Causality 2: the writes before it in
//       causality order hide every coherence-earlier one) without a choice.
//       This under-approximates the synchronization of every consistent
//       execution of the run, which is what keeping a location
//       deterministic needs; a missed pattern (a .cta fence, a relaxed
//       update without a fence) only leaves the data communicating.
//
// Flags (f). The same holds for a location written by plain stores, as a
// producer's `full` word or a consumer's `ack` (probe9h's h01v: items handed
// through one shared slot took 5^n paths, each slot read a choice over the
// slot's values, only one consistent; n = 5 ran over 120 s). A location is
// a flag once a run shows a poll of it and every write of it a plain store
// of one scalar (updates as above only once it joins two CTAs: a word that
// one CTA writes with updates keeps its RMW chain), written by one CTA: its
// shared memory (explored with the CTA apart, as only its own threads and,
// with clusters, the whole grid explored as one unit, reach it), or any
// location in a launch explored whole; written by
// two CTAs, it joins them as a grid counter does. Then:
//  (f1) the chain is x's coherence order: every plain store follows the
//       latest write in causality order (the clocks: program order,
//       barriers, joins), so it follows it in coherence order (8.10.1), or
//       its thread read that write (the poll's floor) before it, all three
//       strong in one CTA, so pairwise morally strong (8.7), and coherence
//       order cannot go the other way (8.10.5); an update reads its
//       predecessor (hook_chain.cpp). Checked in every run (grid_write),
//       else x goes back to value choices (flag_co_order_1/_2: two
//       unordered stores);
//  (f2) with plain stores, the write a poll reads is the only one of its
//       value after its floor, also among the writes executed after it
//       (grid_read) and the ones the run makes later, unless they follow the
//       poll in causality order (grid_write checks each write against the
//       polls that read its value; 8.10.6 Causality 1 keeps the poll from
//       reading those): so in every consistent execution of the run the
//       poll reads exactly that write, the condition of (g4);
//  (f3) the choice of (g3) for a poll of shared memory is made as it reads
//       (grid_step resolves global addresses only): a write from its floor
//       to the latest, or waiting: it reads the latest value, and if the loop
//       goes back it parks at the backward jump until the next write, then
//       polls again from the loop head with the newer writes only; if that
//       value leaves the loop, the run is the one that chose the latest
//       write: it is dropped (Hook::step). The floor is also the latest
//       write ordered before the poll by the clocks (8.10.6 Causality 2:
//       a write after `__syncthreads()` hides the initial value);
//  (f4) synchronization (g4) needs observation order (8.9.2): a plain write
//       W_j precedes the poll only as the write it reads, or through
//       updates W_j+1 .. W_k, each reading its predecessor; W_j and the poll
//       strong with scopes including each other's thread, as the first
//       operation of the release pattern (W_j or a fence before it) and
//       the last of the acquire pattern (the poll or a fence after it):
//       morally strong (8.7, 8.9.4 item 4). Within one CTA every scope
//       does; across CTAs .gpu or wider (a .cluster scope is not used:
//       less synchronization is assumed, never more). A relaxed poll
//       without a fence after it synchronizes with nothing
//       (flag_mp_noacq keeps its stale state);
//  (f5) a launch that ends with polls parked stands for no execution only
//       when the argument of hook_chain.cpp (c) covers it: polls on one
//       grid counter of updates, or, for flags and polls on several
//       locations, when every other thread has exited or was dropped or
//       cut. Then each parked poll P reads, in any execution extending the
//       run, a write the run has not executed, which follows in program
//       order the poll where its own thread is parked, and so depends on
//       it by control (the loop's exit decides all that follows, 8.10.4);
//       following those writes from poll to poll closes a cycle of
//       reads-from and dependencies, which No Thin Air forbids (8.10.4).
//       A thread waiting at a barrier breaks the chain (a barrier is no
//       dependency: load buffering through it is permitted,
//       flag_lb_barrier): those locations go back to value choices.
//  (f6) a launch that ends with polls (and updates) parked on one location
//       x alone, no other wait in the unit, while other threads still wait
//       at barriers, stands for no execution, as in (c) of hook_chain.cpp,
//       when (only_updates_left) from where each thread of the unit that
//       has not exited began to wait (ThreadRec::stuck_pc), no path writes
//       memory of x's space but by updates (atom, red; not cas or exch) of a
//       scope that includes every thread that may access x, and each parked
//       poll has such a scope (scope_covers): so every write of x the run
//       has not executed is such an update, and it is morally strong with
//       every poll and update of x (8.7). Proof: take an execution
//       extending the run. Each parked R (a poll, or an update's read)
//       reads a write W the run has not executed (the run that reads an
//       executed one is another choice). W's thread is parked at some R'
//       program-order-before W (or R' = W, an update parked at itself), or
//       waits at a barrier that can complete only after a thread parked at
//       some R' arrives, so R' precedes W in base causality order (8.9.4
//       items 2 and 3, 8.9.5). Following R -> R' among finitely many R
//       closes a cycle. For each link, W precedes R in observation order
//       (morally strong, R reads W: 8.9.2), so W precedes the next write
//       W' (R precedes W' in base causality order, same address: 8.9.5
//       item 2) in causality order, hence in coherence order (8.10.1); for
//       R' = W' an update, W precedes it in coherence order (8.10.5). The
//       cycle in coherence order contradicts 8.9.6 (a partial order). The
//       store that initialises a counter in shared memory before the
//       cluster.sync() is executed before any thread waits, so it is no
//       such later write. Otherwise (f5). A weak store after the barrier
//       is read through load buffering: tests/corpus/lb/lb.cu lb_cl_reset.
//  (g5) shared memory is accessed only by the threads of its CTA's cluster
//       (PTX ISA 5.1.7), so there a scope of .cluster includes every thread
//       that may access x (8.5): a location in shared memory written by
//       two CTAs of its cluster (ranks 1.. store into rank 0's shared
//       memory through .shared::cluster and add 1 to its counter with
//       atom.add.release.cluster; rank 0 polls it) is a grid counter when
//       its updates have scope .cluster or wider: they are then pairwise
//       morally strong (8.7) and (g1)-(g4) hold as argued. It joins no
//       units (its cluster is one, explore.hpp), and a thread that may
//       still write it is looked for in that cluster only (other_writer).
//       Its polls choose as (f3) does; the store that initialises it is a
//       plain store (f1). PTXCHECK_OUTCOMES_NO_CLUSTER_COUNTER=1
//       turns (g5) and (f6) off (tests/corpus/outcomes_cluster.py
//       compares: b9_cluster4_gather 3,503 launches without, 22 with).
//  (g6) a poll is not offered the positions whose value makes its loop go
//       back (hook_poll.cpp: computed from the thread's registers, so the
//       alternatives are a function of the run so far);
//  (g7) a grid counter whose values are used only through their top bit
//       (cooperative_groups' grid.sync) runs its updates in the machine's
//       order, round by round, and each poll reads the write that ends its
//       round (hook_round.cpp, conditions (r1)-(r6) and the argument).
// tests/corpus/flag/flag.cu has a kernel for each condition; h01v with 5
// items: 26 launches instead of more than 120 s.
// Tickets, grid counters whose updates' results are used without a poll (a
// last block), and the synchronization of (g4): hook_grid_sync.cpp.
// PTXCHECK_OUTCOMES_NO_GRID=1 turns this off (tests/corpus/outcomes_grid.py
// compares); PTXCHECK_OUTCOMES_NO_FLAG=1 only the flags (f) (grid counters
// of updates by two CTAs at .gpu scope stay; tests/corpus/outcomes_flag.py).
#include <algorithm>
#include <bit>

#include "semantics/outcomes/hook_impl.hpp"

namespace ptxcheck::outcomes {

using interp::HookAccess;
using interp::HookKind;
using interp::Inst;
using interp::IrOp;

namespace {

using gridx::releases;
using gridx::shared_key;
using gridx::wide;

// (g5): a scope that includes every thread that may access the location at
// `key`: .gpu or .sys, or .cluster for shared memory (PTX ISA 5.1.7).
bool wide_for(uint64_t key, mm::Scope s) { return wide(s) || (shared_key(key) && s == mm::Scope::Cluster); }

// (g2): the value at chain position `pos` (0: the initial value) differs
// from the values at positions `floor` .. pos - 1, the writes a read
// program-order-after its thread's write or read at `floor` might also read
// from (8.10.6 Causality 2 excludes every write coherence-before that one;
// a later write of the same value would only synchronize more).
bool unique(const std::vector<uint64_t>& vals, uint64_t init, uint32_t floor, uint32_t pos) {
  auto at = [&](uint32_t q) { return q == 0 ? init : vals[q - 1]; };
  for (uint32_t q = floor; q < pos; ++q)
    if (at(q) == at(pos)) return false;
  return true;
}

// A grid counter of global memory written by two CTAs explores the CTAs (the
// clusters) as one unit; shared memory belongs to one cluster, one unit.
bool joins(const CommLoc& l) { return l.gw_cta == -2 && !shared_key(l.key); }

}  // namespace

bool Shared::poll_at(uint32_t func, uint32_t pc) {
  auto [it, fresh] = poll_cache.try_emplace({func, pc}, false);
  if (!fresh) return it->second;
  // The backward jumps after pc (a loop's body is short) whose loop holds pc.
  const interp::Function& f = prog->funcs[func];
  uint32_t end = static_cast<uint32_t>(prog->code.size());
  for (const interp::Function& g : prog->funcs)
    if (g.defined && g.entry_pc > f.entry_pc) end = std::min(end, g.entry_pc);
  for (uint32_t q = pc; q < end && q < pc + 64; ++q) {
    const Inst& b = prog->code[q];
    if (b.op != IrOp::Bra || b.target > pc) continue;
    if (!pure_loop(func, b.target, q) || !in_pure_loop(func, b.target, q, pc)) continue;
    const std::vector<uint32_t>& body = loop_code[std::make_tuple(func, b.target, q)];
    if (std::all_of(body.begin(), body.end(), [&](uint32_t x) {
          return x == pc || prog->code[x].op == IrOp::Bra || computes_registers(prog->code[x].op);
        }))
      return poll_cache[{func, pc}] = true;
  }
  return false;
}

// (f6): a scope that includes every thread that may access the location
// at `key`: (g5), or any scope for shared memory without clusters.
bool Hook::scope_covers(uint64_t key, mm::Scope s) const {
  return wide_for(key, s) || (shared_key(key) && sh_.cl[0] * sh_.cl[1] * sh_.cl[2] == 1);
}

bool Hook::grid_on(int li) const {
  const CommLoc& l = sh_.locs[static_cast<size_t>(li)];
  // (f): a flag of one CTA's shared memory is explored with its CTA apart.
  return !sh_.no_grid && (!sh_.decompose || shared_key(l.key)) && l.grid == 1 && l.rmw_chain;
}

bool Hook::grid_ready(const CommLoc& l) const {
  if (l.gw_bad) return false;
  // (t): a ticket of global memory written by two CTAs (hook_grid_sync.cpp).
  if (!l.polled) return l.ticket && joins(l) && !l.gw_narrow && (!l.gw_plain || !sh_.no_flag);
  if (l.gw_cta == -2 && !shared_key(l.key)) return !l.gw_narrow && (!l.gw_plain || !sh_.no_flag);  // joins the CTAs
  // (g5): shared memory written by two CTAs of its cluster, updates of
  // scope .cluster or wider.
  if (l.gw_cta == -2) return !sh_.no_cluster_counter && !sh_.no_flag && !l.gw_narrow;
  // (f): written by one CTA, by plain stores only: its shared memory, or a
  // launch explored whole. Updates of one CTA (a bitmask that warps
  // fetch_or into while another warp polls it) keep the RMW chains of
  // hook_chain.cpp: as a flag every order of the updates was searched
  // (probe9i's i45: 190 launches, 0.2 s, became 15,790, 14 s).
  return !sh_.no_flag && !l.gw_upd && (shared_key(l.key) || !sh_.decompose);
}

bool Hook::only_updates_left(uint32_t u, const CommLoc& l) {
  // (f6): from where each thread of unit u that may still run began to
  // wait, no path writes memory of x's space but by an update whose scope
  // includes every thread that may access x (Shared::may_write).
  for (uint32_t g = 0; g < th.size(); ++g) {
    const ThreadRec& r = th[g];
    if (!r.seen) return false;  // (not seen: where it is is not known)
    if (sh_.unit_of_uid(r.cta_uid) != u || exited_.count(g) || r.cut || r.killed) continue;
    if (r.stuck_pc == ~0u) return false;
    if (shared_key(l.key) ? sh_.may_write(r.stuck_func, r.stuck_pc, true, true)
                          : !r.stuck_known || std::any_of(r.stuck_writes.begin(), r.stuck_writes.end(), [&](auto w) {
                              return !std::get<2>(w) && std::get<0>(w) < l.key + l.size && l.key < std::get<1>(w);
                            }))
      return false;
  }
  return true;
}

bool Hook::grid_break(int li) {
  CommLoc& l = sh_.locs[static_cast<size_t>(li)];
  l.grid = -1;
  l.rmw_chain = false;
  sh_.grid_joined =
      std::any_of(sh_.locs.begin(), sh_.locs.end(), [](const CommLoc& k) { return k.grid == 1 && joins(k); });
  restart = true;
  return false;
}

uint32_t Hook::grid_floor_of(const ThreadRec& r, int li) {
  uint32_t floor = 0;
  if (auto f = r.grid_floor.find(li); f != r.grid_floor.end()) floor = f->second;
  if (sh_.no_flag) return floor;
  const GridRun& g = grid_[li];
  for (uint32_t q = static_cast<uint32_t>(g.pos.size()); q > floor; --q) {
    const GridRun::Pos& p = g.pos[q - 1];
    if (p.gid == r.t->gid || ordered(r, p.gid, p.ep)) return q;
  }
  return floor;
}

bool Hook::other_writer(const interp::Thread& t, const interp::Cta& c, int li, uint32_t pc, bool shared, bool grid) {
  // A thread parked at an update of another location (or at a blocking
  // wait) may run again after a write this thread makes.
  std::set<uint32_t> parked_elsewhere;
  for (const Blocked& b : blocked_)
    if (b.li != li) parked_elsewhere.insert(b.gid);
  auto any_in = [&](const interp::Cta& k) {
    for (const interp::Thread& o : k.threads) {
      if (&o == &t || o.st == interp::TState::Exited) continue;
      if (o.st == interp::TState::Parked && !parked_elsewhere.count(o.gid)) continue;
      const interp::Warp& w = k.warps[o.lin / 32];
      uint32_t at = w.conv ? w.pc : o.pc;
      if (&k == &c && at == pc && o.lin / 32 == t.lin / 32 && o.lin < t.lin && (step_group_ >> (o.lin % 32) & 1)) ++at;
      if (sh_.may_write(o.func, at, shared)) return true;
    }
    return false;
  };
  if (any_in(c)) return true;
  if (!grid) return false;
  if (!shared_key(sh_.locs[static_cast<size_t>(li)].key)) {
    if (ctas_seen_ < sh_.nctas) return true;  // a CTA that has not run yet
    for (const interp::Cta* k : ctas_)
      if (k && k != &c && any_in(*k)) return true;
    return false;
  }
  // (g5): shared memory, only the CTAs of c's cluster (PTX ISA 5.1.7).
  uint32_t seen = 0;
  for (const interp::Cta* k : ctas_)
    if (k && k->cluster_uid == c.cluster_uid) {
      ++seen;
      if (k != &c && any_in(*k)) return true;
    }
  return seen < sh_.cl[0] * sh_.cl[1] * sh_.cl[2];  // one that has not run yet
}

bool Hook::grid_write(ThreadRec& r, const HookAccess& a, int li, uint64_t v) {
  if (sh_.no_grid) return true;
  CommLoc& l = sh_.locs[static_cast<size_t>(li)];
  if (l.grid < 0) return true;
  const Inst& in = *a.in;
  const bool upd = a.kind == HookKind::RmwWrite && (in.op == IrOp::Atom || in.op == IrOp::Red) &&
                   in.atom != arith::AtomOp::Cas && in.atom != arith::AtomOp::Exch && a.size == in.size &&
                   in.ety != arith::Ty::f16x2 && in.ety != arith::Ty::bf16x2;
  // (f1): a plain store of one scalar.
  const bool plain = !sh_.no_flag && a.kind == HookKind::Store && in.op == IrOp::St && a.size == in.size;
  const int64_t cta = r.cta_uid;
  const bool was_joined = joins(l), was_round = round_on(li);
  l.gw_cta = l.gw_cta == -1 || l.gw_cta == cta ? cta : -2;
  l.gw_bad = l.gw_bad || !(upd || plain);
  l.gw_narrow = l.gw_narrow || (upd && !wide_for(l.key, in.scope));
  l.gw_plain = l.gw_plain || plain;
  l.gw_upd = l.gw_upd || upd;
  if (l.grid == 0) {
    if (!grid_ready(l)) return true;
    // A grid counter: explore the CTAs together (explore.cpp) and restart;
    // a flag of one CTA (f) keeps the units.
    l.grid = 1;
    l.rmw_chain = true;
    sh_.grid_any = true;
    sh_.grid_joined = sh_.grid_joined || joins(l);
    restart = true;
    return false;
  }
  if (joins(l) && !was_joined) {
    // A flag of one CTA that another CTA writes: a grid counter now, if
    // it is one (the CTAs join), else value choices.
    if (!grid_ready(l)) return grid_break(li);
    sh_.grid_joined = true;
    restart = true;
    return false;
  }
  if (!grid_on(li)) return true;
  // (g2), (f1); updates of two CTAs morally strong (8.7).
  if (!(upd || plain) ||
      (upd && l.gw_cta == -2 && in.scope < (shared_key(l.key) ? mm::Scope::Cluster : mm::Scope::GPU)))
    return grid_break(li);
  if (was_round && !(upd && round_on(li))) return round_break(li);  // (g7) (r1)
  if (was_round && !round_write(r, *r.t, a, li, v)) return false;
  GridRun& g = grid_[li];
  const uint32_t gid = r.t->gid;
  if (upd) {
    // (g2): the update reads the previous position's value, which no write
    // its thread may still read from has.
    if (!unique(g.vals, l.init, grid_floor_of(r, li), static_cast<uint32_t>(g.vals.size()))) return grid_break(li);
  } else if (!g.pos.empty() && g.pos.back().gid != gid && !ordered(r, g.pos.back().gid, g.pos.back().ep)) {
    // (f1): a plain store must follow the latest write in causality order
    // (8.10.1), or its thread read that write before it, all three strong
    // in one CTA (8.10.5: communication order cannot contradict program
    // order among morally strong operations).
    const GridRun::Pos& w = g.pos.back();
    auto f = r.grid_floor.find(li);
    if (!(w.strong && w.cta == cta && in.order != mm::Order::Weak && f != r.grid_floor.end() &&
          f->second == g.pos.size()))
      return grid_break(li);
  }
  if (l.gw_plain)
    for (auto [rg, re, rv] : g.reads)  // (f2): a poll that read v must not read this write
      if (rv == v && rg != gid && !ordered(r, rg, re)) return grid_break(li);
  g.vals.push_back(v);
  // (g4): the clock this write's release pattern carries (8.8 forms 1 and
  // 3; (f4): also of any scope, for a poll of its own CTA).
  std::vector<uint32_t> rel;
  GridRun::Pos p{gid, r.vc[gid], cta, upd, in.order != mm::Order::Weak, in.scope, {}};
  if (releases(in.order)) {
    rel = r.vc;
    if (wide(in.scope) || (shared_key(l.key) && in.scope == mm::Scope::Cluster)) p.rel_wide = r.vc;  // (f4)
    ++r.vc[gid];  // later writes of the thread are not covered
  } else {
    rel = r.rel_vc;
    p.rel_wide = r.rel_wide;
  }
  g.rel.push_back(std::move(rel));
  g.pos.push_back(std::move(p));
  r.grid_floor[li] = static_cast<uint32_t>(g.vals.size());  // (g3): its own write
  return true;
}

int Hook::grid_read(ThreadRec& r, const interp::Thread& t, const interp::Cta& c, const HookAccess& a, int li,
                    uint64_t& v) {
  if (sh_.no_grid || a.kind != HookKind::Load) return 0;
  const Inst& in = *a.in;
  if (in.op != IrOp::Ld || in.order == mm::Order::Weak || (sh_.no_flag && !wide(in.scope))) return 0;
  CommLoc& l = sh_.locs[static_cast<size_t>(li)];
  if (l.grid < 0) return 0;
  const uint32_t pc = static_cast<uint32_t>(a.in - sh_.prog->code.data());
  if (!sh_.poll_at(t.func, pc)) return 0;
  if (l.grid == 0) {
    l.polled = true;
    if (!grid_ready(l)) return 0;
    l.grid = 1;
    l.rmw_chain = true;
    sh_.grid_any = true;
    sh_.grid_joined = sh_.grid_joined || joins(l);
    restart = true;
    return -1;
  }
  if (!grid_on(li)) return 0;
  GridRun& g = grid_[li];
  const uint32_t n = static_cast<uint32_t>(g.vals.size());
  uint32_t pos = 0;
  bool wait = false;
  if (shared_key(l.key) && !sh_.no_flag) {
    // (f3): shared memory (grid_step resolves global addresses only): the
    // choice of (g3) is made here, as the poll reads. Waiting reads the
    // latest value, which must fail: the thread parks at its backward
    // jump (grid_jump), and leaving the loop with it is redundant (the
    // choice of the latest write covers that run: step).
    const uint32_t floor = grid_floor_of(r, li);
    const uint32_t now = floor <= n ? n - floor + 1 : 0;
    const uint32_t waits =
        other_writer(t, c, li, pc, true, !sh_.decompose || uint64_t{sh_.cl[0]} * sh_.cl[1] * sh_.cl[2] > 1) ? 1 : 0;
    if (now + waits == 0) return 0;
    const std::vector<uint32_t> offer = grid_offer(t, pc, li, n, now, waits);  // (g6)
    const uint32_t k = choose(static_cast<uint32_t>(offer.size()) + waits, sh_.unit_of(c));
    if (k < offer.size()) {
      pos = offer[k];
    } else {
      pos = n;
      wait = true;
    }
  } else {
    if (r.want_li != li) return 0;  // (no position chosen before it ran: a value choice)
    // (g3): the write at the position grid_step chose.
    pos = r.want;
    r.want_li = -1;
    if (pos > n) return 0;
  }
  const uint32_t floor = grid_floor_of(r, li);
  if (!wait && !unique(g.vals, l.init, floor, pos)) return grid_break(li) ? 0 : -1;  // (g2)
  v = pos == 0 ? l.init : g.vals[pos - 1];
  if (!wait && l.gw_plain) {
    // (f2): no later write, executed or not, has the value either.
    for (uint32_t q = pos + 1; q <= n; ++q)
      if (g.vals[q - 1] == v) return grid_break(li) ? 0 : -1;
    g.reads.emplace_back(t.gid, r.vc[t.gid], v);
  }
  r.poll = ThreadRec::Poll{li, v, pos, pos == n, wait, &in, writes_, pc};
  if (round_on(li) && in.dst[0].kind == interp::Opnd::Reg) round_token(r, t, in, li, a.size * 8u);  // (g7)
  ++polls_;
  return 1;
}

std::optional<interp::ExecHook::Jump> Hook::grid_jump(ThreadRec& r, interp::Thread& t, const interp::Cta& c,
                                                      uint32_t from, uint32_t to) {
  if (!sh_.pure_loop(t.func, to, from) || !sh_.in_pure_loop(t.func, to, from, r.poll.pc)) {
    grid_flush(r);
    return std::nullopt;
  }
  // (g3): the poll failed; its iteration leaves nothing. The choice of
  // another position covers the runs that go on: the launch stops. But
  // when it read the latest write and no run has had more writes of x
  // yet, it waits for the next write and chooses again (so that runs show
  // how many writes x gets; a longer chain makes another round).
  const ThreadRec::Poll p = r.poll;
  r.poll.li = -1;
  --polls_;
  if (p.wait) {
    // (f3): waits for a write after position p.pos, then polls again from
    // the loop head (a write since the poll: at once).
    const uint32_t n = static_cast<uint32_t>(grid_[p.li].vals.size());
    r.grid_floor[p.li] = p.pos + 1;
    if (n > p.pos) return Jump::Continue;
    blocked_.push_back({&t, &c, t.gid, p.li, false, true, p.pos + 1});
    blocked_.back().narrow = !scope_covers(sh_.locs[static_cast<size_t>(p.li)].key, p.in->scope);  // (f6)
    stuck_at(r, t, from);
    return Jump::Park;
  }
  ++subsumed, ++r.subsumed;
  killed = true;
  r.killed = true;
  // Units explored apart (a flag of shared memory, (f)): the thread parks,
  // so that the units after its own still run (a dropped spin).
  return sh_.decompose ? Jump::Park : Jump::Stop;
}

bool Hook::grid_step(interp::Thread* lanes, const interp::Cta& c, const Inst& in, uint32_t exec) {
  if (c.uid < sh_.nctas) {
    if (ctas_.size() < sh_.nctas) ctas_.resize(sh_.nctas, nullptr);
    if (!ctas_[c.uid]) ctas_[c.uid] = &c, ++ctas_seen_;
  }
  if (in.op != IrOp::Ld || in.order == mm::Order::Weak || !wide(in.scope) || in.addr.base == interp::Addr::Frame ||
      in.addr.space == interp::Space::Shared || in.addr.space == interp::Space::SharedCluster)
    return false;  // (shared memory: grid_read chooses, (f3))
  bool parked = false;
  for (uint32_t b = exec; b; b &= b - 1) {
    interp::Thread& t = lanes[std::countr_zero(b)];
    const uint32_t pc = static_cast<uint32_t>(&in - sh_.prog->code.data());
    if (!sh_.poll_at(t.func, pc)) continue;
    uint64_t key = static_cast<uint64_t>(in.addr.off);
    if (in.addr.base == interp::Addr::Reg) key = in.addr.wrap(key + t.regs[t.reg_base + in.addr.slot]);
    auto it = sh_.loc_at.find(key);  // generic == global (memory.hpp)
    if (it == sh_.loc_at.end() || !grid_on(it->second)) continue;
    const int li = it->second;
    ThreadRec& r = rec(t, c);
    GridRun& g = grid_[li];
    const uint32_t n = static_cast<uint32_t>(g.vals.size());
    if (r.want_li != li && round_on(li)) {
      // (g7): the write that ends the thread's round, else waiting for the
      // next write (else the latest, which fails).
      const int64_t q = round_poll(r, t, pc, li, n);
      if (q == 0 && other_writer(t, c, li, pc, false, true)) {
        blocked_.push_back({&t, &c, t.gid, li, false, true, n + 1});
        r.stuck_func = t.func, r.stuck_pc = pc;
        t.st = interp::TState::Parked;
        parked = true;
        continue;
      }
      r.want_li = li;
      r.want = q > 0 ? static_cast<uint32_t>(q) : n;
    }
    if (r.want_li != li) {
      // (g3): a write from the thread's floor to the latest, or waiting
      // for the next write while another thread may still make one.
      uint32_t floor = 0;
      if (auto f = r.grid_floor.find(li); f != r.grid_floor.end()) floor = f->second;
      const uint32_t now = floor <= n ? n - floor + 1 : 0;
      const uint32_t wait = other_writer(t, c, li, pc, false, true) ? 1 : 0;
      // (g6): not the positions whose value fails the loop's test.
      const std::vector<uint32_t> offer = grid_offer(t, pc, li, n, now, wait);
      const uint32_t k = choose(static_cast<uint32_t>(offer.size()) + wait, sh_.unit_of(c));
      if (k < offer.size()) {
        r.want_li = li;
        r.want = offer[k];
      } else {
        r.grid_floor[li] = n + 1;  // then only newer writes
        blocked_.push_back({&t, &c, t.gid, li, false, true, n + 1});
        stuck_at(r, t, pc);
        t.st = interp::TState::Parked;
        parked = true;
        continue;
      }
    }
    if (r.want <= n) continue;
    // Parked until the chain reaches that position (wake_blocked).
    blocked_.push_back({&t, &c, t.gid, li, false, true, r.want});
    stuck_at(r, t, pc);
    t.st = interp::TState::Parked;
    parked = true;
  }
  return parked;
}

}  // namespace ptxcheck::outcomes
