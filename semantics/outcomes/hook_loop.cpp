// The loop check of the outcomes ExecHook (hook_impl.hpp): a failed spin
// iteration that comes back to its loop head with nothing new is redundant
// and its path is dropped (docs/outcomes.md, "Spin loops"; the liveness it
// uses is liveness.cpp, the loop bodies loop_analysis.cpp).
#include "parser/diagnostic.hpp"
#include "semantics/interp/ir_flags.hpp"
#include "semantics/outcomes/hook_impl.hpp"

namespace ptxcheck::outcomes {

using interp::Inst;
using interp::IrOp;

namespace {

constexpr uint64_t kQuietIterLimit = 1'000'000;
// Earlier arrivals at a loop head (with no side effect since) that back_jump
// compares a state with: polls of up to this many locations in turn.
constexpr size_t kArrivalHistory = 8;

// The register at slot k depends now on every read it depended on at the
// arrival (PTX ISA 8.10.4): then the path without the iteration has no
// dependency edge that this one lacks (back_jump).
bool covers(const std::vector<Deps>& now, const std::vector<Deps>& then, size_t k) {
  if (k >= then.size() || then[k].empty()) return true;
  return k < now.size() && std::includes(now[k].begin(), now[k].end(), then[k].begin(), then[k].end());
}

// The thread's own memory now is the same as `then` where it can matter:
// the bytes of the live frames (below the stack pointer) but those of the
// current frame that are dead at the loop head (`frame_live`, from its
// frame pointer; Shared::frame_live_at). The bytes above the stack pointer
// belong to no frame: a callee's frame starts undefined, and -O0 code
// leaves the values of the latest call there (Hook::ret_deps drops their
// dependencies).
bool same_local(const interp::Thread& t, const std::vector<uint8_t>& then, const std::vector<char>* frame_live) {
  const std::vector<uint8_t>& now = t.local.bytes;
  const uint64_t top = t.sp;
  if (now.size() < top || then.size() < top) return now == then;
  for (uint64_t b = 0; b < top; ++b) {
    if (now[b] == then[b]) continue;
    if (frame_live && b >= t.fp && b - t.fp < frame_live->size() && !(*frame_live)[b - t.fp]) continue;
    return false;
  }
  return true;
}

}  // namespace

interp::ExecHook::Jump Hook::back_jump(interp::Thread& t, const interp::Cta& c, uint32_t from, uint32_t to) {
  // The lanes of a warp whose iterations are redundant together (warp_drop,
  // hook_warp.cpp), decided at the first lane of the jump.
  if (serial_ != jump_serial_) jump_serial_ = serial_, wdrop_ = warp_drop(to);
  if (wdrop_ && step_lanes_ && &t >= step_lanes_ && &t < step_lanes_ + 32 && (wdrop_ >> (&t - step_lanes_) & 1)) {
    ThreadRec& r = rec(t, c);
    killed = true;
    r.killed = true;
    return Jump::Park;
  }
  ThreadRec& r = rec(t, c);
  if (restart) {  // a lazy load's value was used (hook_lazy.cpp): the others run on to show theirs
    killed = true;
    r.killed = true;
    return Jump::Park;
  }
  if (r.cas_fail_from != ~0u)  // a CAS retry loop's failed iteration (hook_cas.cpp)
    if (const std::optional<Jump> j = cas_jump(r, from, to)) return *j;
  if (r.poll.li >= 0)  // a grid counter's poll (hook_grid.cpp)
    if (const std::optional<Jump> j = grid_jump(r, t, c, from, to)) return *j;
  if (r.spin_li >= 0) return spin_jump(r, t, c);  // a blocking wait failed (hook_canon.cpp)
  if (r.pend && t.frames.size() <= r.pend->frames) drop_pend(r);
  auto it = r.arrivals.find(to);
  if (auto e = r.entries.find(to); e != r.entries.end()) {
    // The first backward jump since the thread fell into the loop: the
    // failed iteration is redundant if it came back to the entry state
    // (docs/outcomes.md "Spin loops": the argument below holds for any
    // earlier arrival at the head), or will be once the thread has
    // overwritten the .local bytes that differ (ThreadRec::Pending).
    const ThreadRec::Arrival x = std::move(e->second);
    r.entries.erase(e);
    std::optional<ThreadRec::Watch> w;
    if (r.watch && r.watch->head == to && r.watch->frames == t.frames.size())
      w = std::move(r.watch), r.watch.reset(), --watching_;
    std::vector<uint64_t> diff;
    bool rw_used = false;
    // (not coupled to other lanes by warp collectives: then only warp_drop
    // drops it, hook_warp.cpp (W))
    if (!(it == r.arrivals.end() && sh_.pure_loop(t.func, to, from)) && same_state(r, t, to, x, &diff, &rw_used) &&
        !coupled(r, x.wcoll, x.ucoll)) {
      // (watch, loop_step) every differing byte was written first while
      // the iteration depended on no read since the entry.
      if (w &&
          std::all_of(diff.begin(), diff.end(), [&](uint64_t b) { return b < w->first.size() && w->first[b] == 2; }))
        diff.clear();
      if (diff.empty()) {
        if (r.det_reads.size() > x.det_reads) {
          for (size_t k = x.det_reads; k < r.det_reads.size(); ++k)
            sh_.promote(r.det_reads[k].first, r.det_reads[k].second, 0);
          restart = true;
          return Jump::Stop;
        }
        if (r.comm_reads > x.comm_reads) ++subsumed, ++r.subsumed;
        killed = true;
        r.killed = true;
        return Jump::Park;
      }
      if (!rw_used) {  // (a register written first (R) and .local bytes read first: not argued)
        drop_pend(r);
        ++pending_;
        r.pend = ThreadRec::Pending{r.side,       t.frames.size(), x.det_reads,     r.det_reads.size(),
                                    x.comm_reads, r.comm_reads,    std::move(diff), x.wcoll,
                                    x.ucoll};
      }
    }
  }
  uint64_t quiet = 0;
  if (it == r.arrivals.end()) {
    // The first backward jump to this head. If the loop's code (from its
    // header, where it is entered, to `from` and back) can only read,
    // fence and compute registers dead at the header (Shared::pure_loop),
    // this failed iteration ends in the state it began in: redundant at
    // once, as below for a repeated state (without it the second iteration
    // would explore every value again first). Its reads of deterministic
    // memory make those locations communicating.
    if (sh_.pure_loop(t.func, to, from)) {
      bool promoted = false;
      for (size_t k = r.det_reads.size(); k-- > 0 && sh_.in_pure_loop(t.func, to, from, r.det_read_pcs[k]);) {
        sh_.promote(r.det_reads[k].first, r.det_reads[k].second, 0);
        promoted = true;
      }
      if (promoted) {
        restart = true;
        return Jump::Stop;
      }
      ++subsumed, ++r.subsumed;
      killed = true;
      r.killed = true;
      return Jump::Park;
    }
    // Otherwise the iteration began where the code fell into the loop, so
    // it made a choice if the latest choice lies in the loop's code
    // [to, from]; such a jump counts against the bound.
    if (r.choices > 0 && r.last_choice_pc >= to && r.last_choice_pc <= from && ++r.back[to] > sh_.opt->unroll) {
      ++cut;
      r.cut = true;
      return Jump::Park;
    }
  } else {
    ThreadRec::Arrival& a = it->second;
    // The same state at the head as at this arrival or one of the
    // kArrivalHistory before it (a loop that polls several locations in
    // turn comes back to a state after a few iterations, not one): no
    // write, fence or barrier since (side), the same frames and .local
    // bytes, and the same values in the registers live at the head (dead
    // ones cannot influence the rest). The iterations since are then
    // redundant together, by the argument below for one.
    auto same_as = [&](const ThreadRec::Arrival& x) {
      return same_state(r, t, to, x, nullptr) && !coupled(r, x.wcoll, x.ucoll);
    };
    const ThreadRec::Arrival* hit = same_as(a) ? &a : nullptr;
    for (size_t k = 0; !hit && k < a.older.size(); ++k)
      if (same_as(a.older[k])) hit = &a.older[k];
    if (hit) {
      if (r.det_reads.size() > hit->det_reads) {
        // A spin on deterministic memory: only another thread can end it,
        // so the location communicates.
        for (size_t k = hit->det_reads; k < r.det_reads.size(); ++k)
          sh_.promote(r.det_reads[k].first, r.det_reads[k].second, 0);
        restart = true;
        return Jump::Stop;
      }
      if (r.comm_reads > hit->comm_reads) ++subsumed, ++r.subsumed;  // redundant spin iteration
      // (no reads at all: the thread never terminates.) The run is dropped,
      // but only this thread stops: the others run on, so that the writes
      // they make later in the machine's schedule (the ones that can end
      // the spin) still reach the value sets.
      killed = true;
      r.killed = true;
      return Jump::Park;
    }
    // An iteration that read communicating memory without a choice (each
    // read had one candidate in this round's value sets), whose only side
    // effects were CTA barriers, and that came back to the same state but
    // for them: a poll inside a `__syncthreads_or()` loop (bar.red is a
    // barrier, so the loop is no pure spin and the iteration is not
    // dropped). It would repeat itself until the step limit, since the
    // values that end it reach the value sets only once the writers have
    // run. It counts against the bound as an iteration with a choice does:
    // the cut parks the thread, the other threads and units run on and feed
    // the value sets (probe9j's j02, corpus/outcomes/j9_sync_or_poll).
    const bool same_comm = r.choices == a.choices && r.comm_reads > a.comm_reads && r.bars > a.bars &&
                           r.side - r.bars == a.side - a.bars && same_state(r, t, to, a, nullptr, nullptr, true);
    if (r.choices > a.choices || same_comm) {
      if (++r.back[to] > sh_.opt->unroll) {
        ++cut;
        r.cut = true;
        return Jump::Park;
      }
    } else {
      quiet = a.quiet_iters + 1;
      if (quiet > kQuietIterLimit) {
        if (r.det_reads.size() > a.det_reads) {
          for (size_t k = a.det_reads; k < r.det_reads.size(); ++k)
            sh_.promote(r.det_reads[k].first, r.det_reads[k].second, 0);
          restart = true;
          return Jump::Stop;
        }
        throw LimitError("a loop at PTX line " +
                         std::to_string(t.pc < sh_.prog->code.size() ? sh_.prog->code[t.pc].line : 0) +
                         " ran more than " + std::to_string(kQuietIterLimit) + " iterations without a choice");
      }
    }
  }
  ThreadRec::Arrival& a = r.arrivals[to];
  r.jumped_to = to;
  // Keep the states of the earlier iterations while nothing with a side
  // effect ran (side only grows: an older state cannot match after one).
  if (it != r.arrivals.end() && a.side == r.side) {
    ThreadRec::Arrival prev = std::move(a);
    std::vector<ThreadRec::Arrival> older = std::move(prev.older);
    prev.older.clear();
    older.insert(older.begin(), std::move(prev));
    if (older.size() > kArrivalHistory) older.pop_back();
    a.older = std::move(older);
  } else {
    a.older.clear();
  }
  record(a, r, t, to);
  a.quiet_iters = quiet;
  return Jump::Continue;
}

void Hook::record(ThreadRec::Arrival& a, ThreadRec& r, const interp::Thread& t, uint32_t head) {
  if (lazy_) lazy_cmp(r, t, head);  // a lazy load's value in the state (hook_lazy.cpp)
  a.regs = t.regs;
  a.local = t.local.bytes;
  a.reg_base = t.reg_base;
  a.fp = t.fp;
  a.sp = t.sp;
  a.frames = t.frames.size();
  a.side = r.side;
  a.bars = r.bars;
  a.comm_reads = r.comm_reads;
  a.choices = r.choices;
  a.det_reads = r.det_reads.size();
  a.quiet_iters = 0;
  a.rdeps = r.rdeps;
  a.ldeps = r.ldeps;
  // The warp collectives so far, and a register watch from here (hook_warp.cpp).
  auto it = colls.find({r.cta_uid, r.warp});
  a.wcoll = it == colls.end() ? 0 : it->second.size();
  a.ucoll = r.ucoll;
  if (!r.rwatch || !r.rwatch->live) ++rwatching_;
  ThreadRec::RegWatch& w = r.rwatch.emplace();
  w.head = head, w.reg_base = t.reg_base, w.frames = t.frames.size();
  w.ev = r.events.size(), w.det = r.det_reads.size(), w.id = a.rw = ++r.rw_seq;
  w.first.assign(t.regs.size() - std::min<size_t>(t.reg_base, t.regs.size()), 0);
}

// The same state at the head as at arrival `x`: no write, fence or barrier
// since (side), the same frames and .local bytes, and the same values in
// the registers live at the head (dead ones cannot influence the rest),
// each depending on at least the reads it depended on then.
bool Hook::same_state(const ThreadRec& r, const interp::Thread& t, uint32_t to, const ThreadRec::Arrival& x,
                      std::vector<uint64_t>* diff, bool* rw_used, bool wbars) {
  if (lazy_ && lazy_cmp(r, t, to)) return false;  // compares a lazy load's value (hook_lazy.cpp)
  if ((!wbars && r.side != x.side) || t.reg_base != x.reg_base || t.frames.size() != x.frames || t.fp != x.fp ||
      t.sp != x.sp || t.regs.size() != x.regs.size())
    return false;
  const std::vector<char>* frame_live = sh_.frame_live_at(t.func, to);
  auto dead_byte = [&](uint64_t b) {
    return frame_live && b >= t.fp && b - t.fp < frame_live->size() && !(*frame_live)[b - t.fp];
  };
  if (!diff) {
    if (!same_local(t, x.local, frame_live)) return false;
  } else {
    const std::vector<uint8_t>& now = t.local.bytes;
    if (now.size() < t.sp || x.local.size() < t.sp) return false;
    for (uint64_t b = 0; b < t.sp; ++b)
      if (now[b] != x.local[b] && !dead_byte(b)) diff->push_back(b);
  }
  const std::vector<char>* live = sh_.live_at(t.func, to);
  // (R) a register the iteration since x wrote before reading it, while
  // clean (hook_warp.cpp), may differ.
  const ThreadRec::RegWatch* w = r.rwatch && x.rw != 0 && r.rwatch->id == x.rw && r.rwatch->head == to &&
                                         r.rwatch->frames == t.frames.size() && r.rwatch->reg_base == t.reg_base
                                     ? &*r.rwatch
                                     : nullptr;
  for (size_t k = 0; k < t.regs.size(); ++k) {
    bool cur = k >= t.reg_base && k - t.reg_base < (live ? live->size() : 0);
    if ((!cur || (*live)[k - t.reg_base]) && (t.regs[k] != x.regs[k] || !covers(r.rdeps, x.rdeps, k))) {
      if (!cur || !w || k - t.reg_base >= w->first.size() || w->first[k - t.reg_base] != 2) return false;
      if (rw_used) *rw_used = true;
    }
  }
  // Each .local byte too (its value is compared above) that may be read
  // before it is written again (Shared::frame_live_at: the .param variables
  // of -O0 call sequences hold the latest read's result); not the bytes in
  // `diff`, which the thread must overwrite first.
  for (const auto& [b, d] : x.ldeps) {
    if (dead_byte(b) || (diff && std::binary_search(diff->begin(), diff->end(), b))) continue;
    auto now = r.ldeps.find(b);
    if (now == r.ldeps.end() || !std::includes(now->second.begin(), now->second.end(), d.begin(), d.end()))
      return false;
  }
  return true;
}

// Entry states. A path whose first failed iteration came back to the loop
// head with the entry state but for .local bytes B (-O0 code constructs a
// cuda::atomic_ref object in its frame at each iteration) is redundant
// once the thread has written every byte of B without reading one first,
// with no side effect, no backward jump in the loop's frame and no return
// from it since: up to there it ran the code it would run from the entry
// state (it read no byte of B, and the registers and bytes that differ
// otherwise are dead at the head), so the path without the failed
// iteration reaches the same state with the same reads, and the argument
// of back_jump applies. A lane is parked before the next instruction once
// B is empty; an operation on .local that is not followed here (an atomic,
// an indirect or undefined call such as vprintf, alloca, mma) ends the
// wait without a drop.
namespace {

// The accesses of instruction `in` (run by thread `t`) to the thread's own
// memory at and below the frame of call depth `frames`: rd(off, n) and
// wr(off, n) by .local offset; false if it accesses it in a way not
// followed here or returns from that frame.
template <class R, class W>
bool own_accesses(const interp::Program& prog, const interp::Thread& t, const Inst& in, size_t frames, R&& rd, W&& wr) {
  switch (in.op) {
    case IrOp::Nop:
    case IrOp::Bra:
    case IrOp::BrxIdx:
    case IrOp::Fence: return true;
    case IrOp::Ld:
      if (const std::optional<uint64_t> off = Hook::local_off(t, in)) {
        unsigned elems = 0;
        for (unsigned k = 0; k < 4; ++k) elems += in.dst[k].kind != interp::Opnd::None;
        rd(*off, uint64_t{in.size} * std::max({1u, elems, unsigned{in.ndst}}));
      }
      return true;
    case IrOp::St:
      if (const std::optional<uint64_t> off = Hook::local_off(t, in))
        wr(*off, uint64_t{in.size} * std::max(1u, unsigned{in.nsrc}));
      return true;
    case IrOp::Atom:
    case IrOp::Red:
    case IrOp::Mbarrier: return !Hook::local_off(t, in);
    case IrOp::Call: {
      // The callee's frame lies above the stack pointer; the arguments in
      // the caller's frame are read. An indirect or undefined callee
      // (vprintf reads a buffer in the frame) is not followed.
      const interp::CallSite& cs = prog.calls[in.target];
      if (cs.callee == ~0u || !prog.funcs[cs.callee].defined) return false;
      for (const interp::CallArg& a : cs.args)
        if (a.in_frame) rd(t.fp + a.frame_off, a.size);
      return true;
    }
    case IrOp::Ret: {
      // Returning to a frame above `frames` writes the call's return
      // variables in the caller's frame (Machine::do_ret).
      if (t.frames.size() <= frames) return false;
      const interp::Frame& fr = t.frames.back();
      const interp::Function& f = prog.funcs[t.func];
      const interp::CallSite& cs = prog.calls[fr.call];
      for (size_t k = 0; k < f.rets.size() && k < cs.rets.size(); ++k)
        if (cs.rets[k].in_frame)
          wr(fr.fp + cs.rets[k].frame_off, std::min(cs.rets[k].size, f.rets[k].is_reg ? 8u : f.rets[k].size));
      return true;
    }
    default: return computes_registers(in.op);
  }
}

bool timed_operand(const interp::Opnd& o) {
  return o.kind == interp::Opnd::Special &&
         (o.sreg == interp::SReg::clock || o.sreg == interp::SReg::clock_hi || o.sreg == interp::SReg::clock64 ||
          o.sreg == interp::SReg::globaltimer || o.sreg == interp::SReg::globaltimer_lo ||
          o.sreg == interp::SReg::globaltimer_hi);
}

}  // namespace

// Entry states. A failed first iteration that came back to the loop head
// with the entry state but for .local bytes B (-O0 code constructs a
// cuda::atomic_ref object in its frame at each iteration) is redundant in
// two cases, both by the argument of back_jump once the path without it
// is seen to reach the same state:
//  - (watch) the iteration wrote each byte of B before reading it, and up
//    to its last first write of one nothing it did depended on what its
//    reads since the entry returned (no control or .local address
//    dependency on them, PTX ISA 8.10.4 as Hook::step follows them; no
//    time register, no activemask). The next iteration then runs the same
//    code up to there whatever its reads return, as the path without the
//    failed iteration does from the entry state with the same values: it
//    reads no byte of B first, and the registers and bytes that differ
//    otherwise are dead at the head. The path is dropped at the jump.
//  - (pending) otherwise, once the thread has written every byte of B
//    without reading one, with no side effect, no backward jump in the
//    loop's frame and no return from it since: it ran the code the path
//    without the failed iteration runs. The lane is parked before its
//    next instruction.
// An access to the thread's own memory that is not followed here (an
// atomic, an indirect or undefined call such as vprintf, alloca, mma)
// ends both without a drop.
bool Hook::loop_step(interp::Thread* lanes, const interp::Cta& c, const Inst& in, uint32_t group, uint32_t exec) {
  const interp::Program& prog = *sh_.prog;
  const uint32_t pc = static_cast<uint32_t>(&in - prog.code.data());
  if (sh_.head_kind.empty()) {
    // Per instruction: a loop head (1), one that computes registers only
    // from no time register (0 in step_kind: nothing to follow), else 1.
    sh_.head_kind.assign(prog.code.size() + 1, 0);
    sh_.step_kind.assign(prog.code.size() + 1, 1);
    for (uint32_t k = 0; k < prog.code.size(); ++k) {
      const Inst& x = prog.code[k];
      if (x.op == IrOp::Bra && x.target <= k) sh_.head_kind[x.target] = 1;
      bool timed = false;
      for (unsigned j = 0; j < 4; ++j) timed = timed || timed_operand(x.src[j]);
      if (!timed && (computes_registers(x.op) || x.op == IrOp::Nop || x.op == IrOp::Bra || x.op == IrOp::Fence))
        sh_.step_kind[k] = 0;
    }
  }
  const bool head = sh_.head_kind[pc] != 0;
  // A coupling of lanes that Hook::colls does not log (hook_warp.cpp (W)):
  // activemask's value is the lanes running with it; the deprecated vote
  // and shfl without .sync work on them.
  if (in.op == IrOp::Activemask || ((in.op == IrOp::Vote || in.op == IrOp::Shfl) && !(in.flags & 1)))
    for (uint32_t b = exec; b; b &= b - 1) ++rec(lanes[std::countr_zero(b)], c).ucoll;
  if (!head && pend_ready_ == 0 && rwatching_ == 0 && (sh_.step_kind[pc] == 0 || (pending_ == 0 && watching_ == 0)))
    return false;
  uint32_t park = 0;
  if (pend_ready_ > 0)
    for (uint32_t b = group; b; b &= b - 1) {
      const uint32_t l = static_cast<uint32_t>(std::countr_zero(b));
      interp::Thread& t = lanes[l];
      if (t.gid >= th.size() || !th[t.gid].pend) continue;
      ThreadRec& r = th[t.gid];
      ThreadRec::Pending& p = *r.pend;
      if (!p.bytes.empty()) continue;
      if (r.side != p.side || t.frames.size() < p.frames || coupled(r, p.wcoll, p.ucoll)) {
        drop_pend(r);
        continue;
      }
      if (p.det_hi > p.det_lo) {
        for (size_t k = p.det_lo; k < p.det_hi; ++k) sh_.promote(r.det_reads[k].first, r.det_reads[k].second, 0);
        restart = true;
      } else if (p.comm_hi > p.comm_lo) {
        ++subsumed, ++r.subsumed;
      }
      killed = true;
      r.killed = true;
      drop_pend(r);
      t.st = interp::TState::Parked;
      park |= 1u << l;
    }
  if (park) return true;
  for (uint32_t b = group; b; b &= b - 1) {
    const uint32_t l = static_cast<uint32_t>(std::countr_zero(b));
    interp::Thread& t = lanes[l];
    if (head) {
      ThreadRec& r = rec(t, c);
      if (r.jumped_to == pc) {
        r.jumped_to = ~0u;
      } else if (sh_.entry_at(t.func, pc)) {
        record(r.entries[pc], r, t, pc);
        if (!r.watch) ++watching_;
        r.watch = ThreadRec::Watch{pc, t.frames.size(), r.events.size(), r.side, true, {}};
      }
    }
    if (t.gid < th.size() && th[t.gid].rwatch && th[t.gid].rwatch->live) rw_step(th[t.gid], t, in, exec >> l & 1);
    if (t.gid >= th.size() || !(exec >> l & 1)) continue;
    ThreadRec& r = th[t.gid];
    if (r.pend && r.side != r.pend->side) drop_pend(r);
    if (r.pend) {
      std::vector<uint64_t>& bytes = r.pend->bytes;
      bool read_first = false;
      const bool ok = own_accesses(
          prog, t, in, r.pend->frames,
          [&](uint64_t off, uint64_t n) {
            auto it = std::lower_bound(bytes.begin(), bytes.end(), off);
            read_first = read_first || (it != bytes.end() && *it < off + n);
          },
          [&](uint64_t off, uint64_t n) {
            bytes.erase(std::lower_bound(bytes.begin(), bytes.end(), off),
                        std::lower_bound(bytes.begin(), bytes.end(), off + n));
          });
      if (!ok || read_first)
        drop_pend(r);
      else if (bytes.empty())
        ++pend_ready_;  // parked before its next instruction
    }
    if (r.watch) {
      ThreadRec::Watch& w = *r.watch;
      if (r.side != w.side) {
        r.watch.reset(), --watching_;
        continue;
      }
      // Depends on a read since the entry.
      auto since = [&](const Deps& d) { return !d.empty() && d.back() >= static_cast<int>(w.ev); };
      auto reg_since = [&](uint32_t slot) {
        return t.reg_base + slot < r.rdeps.size() && since(r.rdeps[t.reg_base + slot]);
      };
      for (unsigned k = 0; k < 4; ++k) w.clean = w.clean && !timed_operand(in.src[k]);
      if (in.op == IrOp::Activemask) w.clean = false;
      auto access = [&](uint64_t off, uint64_t n, uint8_t how) {
        w.clean = w.clean && !since(r.ctrl_on) && !(in.guarded && reg_since(in.guard)) &&
                  !(in.addr.base == interp::Addr::Reg && reg_since(in.addr.slot));
        if (w.first.size() < off + n) w.first.resize(off + n, 0);
        for (uint64_t x = off; x < off + n; ++x)
          if (!w.first[x]) w.first[x] = how == 1 ? 1 : w.clean ? 2 : 3;
      };
      if (!own_accesses(
              prog, t, in, w.frames, [&](uint64_t off, uint64_t n) { access(off, n, 1); },
              [&](uint64_t off, uint64_t n) { access(off, n, 2); }))
        r.watch.reset(), --watching_;
    }
  }
  return false;
}

// (R) Registers written first. A live register may differ at the loop
// head from the arrival or entry x it is compared with (back_jump,
// same_state) if the iteration since x wrote it before reading it while
// clean: no control decision up to that write (branch, guard, indexed
// branch: ctrl_on and the guard) depended on a read since x (PTX ISA
// 8.10.4 dependencies as Hook::step follows them), no deterministic read
// happened since x (its value is not followed there), no warp collective
// with a result (its value comes from other lanes, without dependencies),
// no time register, and no call or return (another frame). The
// instructions followed read only their source, guard and address
// registers and write their destinations; any other ends the watch (then
// the later first writes do not count). The next iteration then runs from
// the state now, whatever its reads return, the code the iteration from x
// ran up to its last such write: every decision on the way is a function
// of registers it did not write before and that do not differ, and it
// reads no differing register first. So the path that runs that iteration
// from x instead, with the same read values, reaches the same state once
// the registers are written (their values and dependencies are then those
// of the path with the iteration), and the argument of back_jump applies
// to the iteration since x. It lets a warp-cooperative seqlock drop its
// failed tries: lanes 0..3 copy the data into a register that is live at
// the head for the lanes that skip the copy (probe9h h51).
void Hook::rw_step(ThreadRec& r, const interp::Thread& t, const Inst& in, bool runs) {
  ThreadRec::RegWatch& w = *r.rwatch;
  auto freeze = [&]() {
    w.live = false;
    --rwatching_;
  };
  if (t.frames.size() != w.frames || t.reg_base != w.reg_base) return freeze();
  auto rd = [&](const interp::Opnd& o) {
    if (o.kind == interp::Opnd::Reg && o.slot < w.first.size() && !w.first[o.slot]) w.first[o.slot] = 1;
  };
  auto since = [&](uint32_t slot) {
    const size_t k = size_t{t.reg_base} + slot;
    return k < r.rdeps.size() && !r.rdeps[k].empty() && r.rdeps[k].back() >= static_cast<int>(w.ev);
  };
  if (in.guarded) {
    if (in.guard < w.first.size() && !w.first[in.guard]) w.first[in.guard] = 1;
    if (since(in.guard)) return freeze();
  }
  if ((!r.ctrl_on.empty() && r.ctrl_on.back() >= static_cast<int>(w.ev)) || r.det_reads.size() != w.det)
    return freeze();
  if (!runs) return;
  bool plain = computes_registers(in.op);
  switch (in.op) {
    case IrOp::Nop:
    case IrOp::Bra:
    case IrOp::BrxIdx:
    case IrOp::Fence:
    case IrOp::WarpSync:
    case IrOp::Ld:
    case IrOp::St: plain = true; break;
    case IrOp::Atom:
    case IrOp::Red: plain = !(in.flags & interp::kAtomV8); break;
    default: break;
  }
  if (!plain || in.wg_reg) return freeze();
  for (unsigned k = 0; k < 4; ++k) {
    if (timed_operand(in.src[k])) return freeze();
    rd(in.src[k]);
  }
  if (in.addr.base == interp::Addr::Reg && in.addr.slot < w.first.size() && !w.first[in.addr.slot])
    w.first[in.addr.slot] = 1;
  if (in.op == IrOp::BrxIdx && in.src[0].kind == interp::Opnd::Reg && since(in.src[0].slot)) return freeze();
  for (unsigned k = 0; k < 4; ++k)
    if (in.dst[k].kind == interp::Opnd::Reg && in.dst[k].slot < w.first.size() && !w.first[in.dst[k].slot])
      w.first[in.dst[k].slot] = 2;
}

void Hook::drop_pend(ThreadRec& r) {
  if (!r.pend) return;
  if (r.pend->bytes.empty()) --pend_ready_;
  r.pend.reset();
  --pending_;
}

bool Shared::entry_at(uint32_t func, uint32_t pc) {
  if (no_entry || pc >= head_kind.size() || head_kind[pc] == 0) return false;
  if (head_kind[pc] == 1) {
    // Worth recording unless every backward jump to it is a pure loop's
    // (dropped at the first jump: back_jump).
    head_kind[pc] = 3;
    for (uint32_t k = pc; k < prog->code.size(); ++k)
      if (prog->code[k].op == IrOp::Bra && prog->code[k].target == pc && !pure_loop(func, pc, k)) head_kind[pc] = 2;
  }
  return head_kind[pc] == 2;
}

}  // namespace ptxcheck::outcomes
