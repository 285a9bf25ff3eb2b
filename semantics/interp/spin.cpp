// Spin detection modulo poll counters and clocks: the taint of a check
// cycle (spin.hpp explains the argument; docs/interpreter.md "Spins without
// progress").
#include "semantics/interp/spin.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "semantics/interp/ir_flags.hpp"
#include "semantics/interp/memory.hpp"

namespace ptxcheck::interp {

bool is_clock(SReg s) {
  switch (s) {
    case SReg::clock:
    case SReg::clock_hi:
    case SReg::clock64:
    case SReg::globaltimer:
    case SReg::globaltimer_lo:
    case SReg::globaltimer_hi: return true;
    default: return false;
  }
}

// Spin detection (machine.cpp SpinWatch): beyond own_state_only, the
// operations that change nothing but the state of the lanes `g` that
// execute them, which SpinWatch::snap compares (registers, frames, .local
// bytes, PC and state of the threads that can run or wait in a warp
// collective): stores whose address is in .local (st.local, or a generic
// address in the local window: -O0 and -G code keep their variables and
// atomic_ref objects on the stack), calls (Machine::do_call clears
// spin_own_only_ for the external functions: vprintf, malloc, free,
// __assertfail) and returns to a caller (not from the kernel: the thread
// exits), alloca and stack save/restore (the stack pointer), warp
// collectives (they read and write registers of lanes of the warp, which
// wait in TState::WarpWait), and mbarrier test_wait/try_wait and
// pending_count (they read the object; the race bookkeeping they update is
// no part of the state that decides what runs next).
bool spin_own_op(const Inst& in, const Thread* T, uint32_t g) {
  switch (in.op) {
    case IrOp::St:
      if (in.addr.space == Space::Local) return true;
      if (in.addr.space != Space::Generic || in.addr.base == Addr::Frame) return false;
      for (uint32_t b = g; b; b &= b - 1) {
        const Thread& t = T[std::countr_zero(b)];
        const uint64_t base = in.addr.base == Addr::Reg ? t.regs[t.reg_base + in.addr.slot] : 0;
        const uint64_t a = in.addr.wrap(static_cast<uint64_t>(in.addr.off) + base);
        if (a < kLocalWin || a - kLocalWin >= kWinSize) return false;
      }
      return true;
    case IrOp::Ret:
      for (uint32_t b = g; b; b &= b - 1)
        if (T[std::countr_zero(b)].frames.empty()) return false;
      return true;
    case IrOp::Mbarrier:
      return in.mbar == MbarOp::Wait || in.mbar == MbarOp::WaitParity || in.mbar == MbarOp::PendingCount;
    case IrOp::Call:
    case IrOp::Alloca:
    case IrOp::StackSave:
    case IrOp::StackRestore:
    case IrOp::WarpSync:
    case IrOp::Shfl:
    case IrOp::Vote:
    case IrOp::Match:
    case IrOp::Redux:
    case IrOp::Elect: return true;
    default: return false;
  }
}

// An atom that writes back the value it reads, whatever that is: add, or or
// xor of 0 and and of all ones on an integer type, or a cas whose new value
// is its compare value (a failing cas writes nothing, PTX ISA 9.7.13.5), in
// every lane of the group. It leaves memory as it was, so for spin
// detection it is a read: a poll such as `while (atomicAdd(flag, 0) == 0)`
// on a later CTA ends at once with the diagnostic instead of at the step
// budget (outcomes treats it so too, Hook::write).
bool idempotent_atom(const Inst& in, const Thread* T, uint32_t g) {
  if (in.op != IrOp::Atom || (in.flags & kAtomV8) || in.size > 8 || (in.ndst > 1 && in.atom != AtomOp::Cas))
    return false;
  switch (in.ety) {
    case arith::Ty::b8:
    case arith::Ty::b16:
    case arith::Ty::b32:
    case arith::Ty::b64:
    case arith::Ty::u8:
    case arith::Ty::u16:
    case arith::Ty::u32:
    case arith::Ty::u64:
    case arith::Ty::s8:
    case arith::Ty::s16:
    case arith::Ty::s32:
    case arith::Ty::s64: break;
    default: return false;
  }
  const uint64_t mask = in.size >= 8 ? ~0ull : (1ull << (in.size * 8u)) - 1;
  auto val = [&](const Opnd& o, const Thread& t) {
    return (o.kind == Opnd::Imm ? o.imm : o.kind == Opnd::Reg ? t.regs[t.reg_base + o.slot] : 1) & mask;
  };
  for (uint32_t b = g; b; b &= b - 1) {
    const Thread& t = T[std::countr_zero(b)];
    if (in.src[0].kind != Opnd::Imm && in.src[0].kind != Opnd::Reg) return false;
    const uint64_t v = val(in.src[0], t);
    switch (in.atom) {
      case AtomOp::Add:
      case AtomOp::Or:
      case AtomOp::Xor:
        if (v != 0) return false;
        break;
      case AtomOp::And:
        if (v != mask) return false;
        break;
      case AtomOp::Cas:
        if ((in.src[1].kind != Opnd::Imm && in.src[1].kind != Opnd::Reg) || v != val(in.src[1], t)) return false;
        break;
      default: return false;
    }
  }
  return true;
}

namespace {

uint8_t reg_taint(const ThreadTaint& tt, const Thread& t, uint32_t slot) {
  const size_t i = size_t{t.reg_base} + slot;
  return i < tt.regs.size() ? tt.regs[i] : 0;
}

void set_reg(ThreadTaint& tt, const Thread& t, uint32_t slot, uint8_t v) {
  const size_t i = size_t{t.reg_base} + slot;
  if (i >= tt.regs.size()) {
    if (!v) return;
    tt.regs.resize(std::max(i + 1, t.regs.size()), 0);
  }
  tt.regs[i] = v;
}

uint8_t opnd_taint(const ThreadTaint& tt, const Thread& t, const Opnd& o) {
  if (o.kind == Opnd::Reg) return reg_taint(tt, t, o.slot);
  if (o.kind == Opnd::Special && is_clock(o.sreg)) return kTaintClock;
  return 0;
}

uint8_t local_taint(const ThreadTaint& tt, uint64_t off, uint64_t n) {
  uint8_t v = 0;
  for (uint64_t i = off; i < off + n && i < tt.local.size(); ++i) v |= tt.local[i];
  return v;
}

void set_local(ThreadTaint& tt, uint64_t off, uint64_t n, uint8_t v) {
  if (off + n > tt.local.size()) {
    if (!v) return;
    tt.local.resize(off + n, 0);
  }
  for (uint64_t i = off; i < off + n; ++i) tt.local[i] = v;
}

// The .local offset that a lane's ld/st address names, or false when the
// address is in no thread's .local (a generic address outside the window).
bool local_offset(const Inst& in, const Thread& t, uint64_t& off) {
  uint64_t a = static_cast<uint64_t>(in.addr.off);
  if (in.addr.base == Addr::Reg)
    a = in.addr.wrap(a + t.regs[t.reg_base + in.addr.slot]);
  else if (in.addr.base == Addr::Frame)
    a += t.fp;
  if (in.addr.space == Space::Local) {
    off = a;
    return true;
  }
  if (in.addr.space != Space::Generic || a < kLocalWin || a - kLocalWin >= kWinSize) return false;
  off = a - kLocalWin;
  return true;
}

}  // namespace

void taint_step(Machine& mc, Warp& w, const Inst& in, uint32_t g, uint32_t m) {
  SpinState& st = *mc.spin_;
  Thread* T = &w.cta->threads[w.first];
  const size_t base = size_t{w.cta->slot} * st.per_cta + w.first;
  auto tt_of = [&](uint32_t l) -> ThreadTaint& { return st.taint[base + l]; };
  // Sources of every lane of the group: a tainted guard decides which lanes
  // run; a tainted address decides what is read or written.
  uint8_t any_src = 0;
  for (uint32_t b = g; b; b &= b - 1) {
    const uint32_t l = static_cast<uint32_t>(std::countr_zero(b));
    const ThreadTaint& tt = tt_of(l);
    const Thread& t = T[l];
    if (in.guarded) st.decided |= reg_taint(tt, t, in.guard);
    for (const Opnd& o : in.src) any_src |= opnd_taint(tt, t, o);
    if (in.addr.base == Addr::Reg) any_src |= reg_taint(tt, t, in.addr.slot);
    if (in.addr2.base == Addr::Reg) any_src |= reg_taint(tt, t, in.addr2.slot);
  }
  auto write_dsts = [&](uint32_t l, uint8_t v) {
    ThreadTaint& tt = tt_of(l);
    for (unsigned k = 0; k < 4; ++k) {
      const Opnd& d = in.dst[k];
      if (d.kind != Opnd::Reg) continue;
      set_reg(tt, T[l], d.slot, v);
      if (in.dwidth > 64) set_reg(tt, T[l], d.slot + 1, v);
    }
  };
  switch (in.op) {
    case IrOp::Arith:
    case IrOp::Mov:
    case IrOp::Pack:
    case IrOp::Unpack:
    case IrOp::Cvta:
    case IrOp::Isspacep:
    case IrOp::Mapa:
    case IrOp::Getctarank:
    case IrOp::Activemask:
    case IrOp::StackSave:
      // The value of each lane from its own sources.
      for (uint32_t b = m; b; b &= b - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(b));
        const ThreadTaint& tt = tt_of(l);
        uint8_t v = 0;
        for (const Opnd& o : in.src) v |= opnd_taint(tt, T[l], o);
        if (in.addr.base == Addr::Reg) v |= reg_taint(tt, T[l], in.addr.slot);
        write_dsts(l, v);
      }
      return;
    case IrOp::Ld:
      for (uint32_t b = m; b; b &= b - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(b));
        ThreadTaint& tt = tt_of(l);
        if (in.addr.base == Addr::Reg) st.decided |= reg_taint(tt, T[l], in.addr.slot);
        // Memory other than .local does not change in the rounds checked
        // (they write none): its value is no function of D or the clocks.
        uint64_t off = 0;
        const bool loc = local_offset(in, T[l], off);
        for (unsigned k = 0; k < 4; ++k) {
          const Opnd& d = in.dst[k];
          if (d.kind != Opnd::Reg) continue;
          const uint8_t v = loc ? local_taint(tt, off + uint64_t{k} * in.size, in.size) : 0;
          set_reg(tt, T[l], d.slot, v);
          if (in.dwidth > 64) set_reg(tt, T[l], d.slot + 1, v);
        }
      }
      return;
    case IrOp::St:
      for (uint32_t b = m; b; b &= b - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(b));
        ThreadTaint& tt = tt_of(l);
        if (in.addr.base == Addr::Reg) st.decided |= reg_taint(tt, T[l], in.addr.slot);
        uint64_t off = 0;
        if (!local_offset(in, T[l], off)) continue;  // not an own-state step: the check ends
        const unsigned n = in.nsrc ? in.nsrc : 1;
        for (unsigned k = 0; k < n && k < 4; ++k)
          set_local(tt, off + uint64_t{k} * in.size, in.size, opnd_taint(tt, T[l], in.src[k]));
      }
      return;
    case IrOp::Call:
      // The arguments' taint goes to the callee's formals (as do_call copies
      // them); its other registers start untainted. A tainted callee
      // address decides which function runs.
      for (uint32_t b = m; b; b &= b - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(b));
        ThreadTaint& tt = tt_of(l);
        const Thread& t = T[l];
        const CallSite& cs = mc.prog.calls[in.target];
        st.decided |= opnd_taint(tt, t, cs.fnptr);
        uint32_t callee = cs.callee;
        if (callee == ~0u) {
          const uint64_t a = t.regs[t.reg_base + cs.fnptr.slot];
          if (a < kFuncAddrBase || (a - kFuncAddrBase) % 16 || (a - kFuncAddrBase) / 16 >= mc.prog.funcs.size())
            continue;
          callee = static_cast<uint32_t>((a - kFuncAddrBase) / 16);
        }
        const Function& f = mc.prog.funcs[callee];
        const size_t new_base = t.regs.size();
        const uint64_t new_fp = (uint64_t{t.sp} + 15) & ~uint64_t{15};
        if (tt.regs.size() > new_base) tt.regs.resize(new_base);
        if (!f.defined) continue;  // an external function: no own-state step, the check ends
        for (size_t k = 0; k < f.params.size() && k < cs.args.size(); ++k) {
          const Formal& fm = f.params[k];
          const CallArg& a = cs.args[k];
          const unsigned n = a.in_frame ? (fm.is_reg ? std::min(8u, fm.size) : fm.size) : std::min(8u, fm.size);
          uint8_t v = a.in_frame ? local_taint(tt, uint64_t{t.fp} + a.frame_off, a.size ? a.size : n)
                                 : opnd_taint(tt, t, a.value);
          if (fm.is_reg && fm.width == 128 && !a.in_frame && a.value.kind == Opnd::Reg)
            v |= reg_taint(tt, t, a.value.slot + 1);
          if (fm.is_reg) {
            if (v) {
              tt.regs.resize(std::max(tt.regs.size(), new_base + fm.slot + 2), 0);
              tt.regs[new_base + fm.slot] = v;
              if (fm.width == 128) tt.regs[new_base + fm.slot + 1] = v;
            }
          } else {
            set_local(tt, new_fp + fm.frame_off, fm.size, v);
          }
        }
      }
      return;
    case IrOp::Ret:
      // The return values' taint goes where do_ret copies them.
      for (uint32_t b = m; b; b &= b - 1) {
        const uint32_t l = static_cast<uint32_t>(std::countr_zero(b));
        ThreadTaint& tt = tt_of(l);
        const Thread& t = T[l];
        if (t.frames.empty()) continue;
        const Frame& fr = t.frames.back();
        const Function& f = mc.prog.funcs[t.func];
        const CallSite& cs = mc.prog.calls[fr.call];
        for (size_t k = 0; k < f.rets.size() && k < cs.rets.size(); ++k) {
          const Formal& fm = f.rets[k];
          const CallArg& a = cs.rets[k];
          uint8_t v = fm.is_reg ? reg_taint(tt, t, fm.slot) : local_taint(tt, uint64_t{t.fp} + fm.frame_off, fm.size);
          if (fm.is_reg && fm.width == 128) v |= reg_taint(tt, t, fm.slot + 1);
          if (a.in_frame) {
            set_local(tt, uint64_t{fr.fp} + a.frame_off,
                      fm.is_reg ? std::min(8u, fm.size) + (fm.width == 128 ? 8 : 0) : fm.size, v);
          } else if (a.value.kind == Opnd::Reg) {
            const size_t i = size_t{fr.reg_base} + a.value.slot;
            if (v) tt.regs.resize(std::max(tt.regs.size(), i + 2), 0);
            if (i < tt.regs.size()) tt.regs[i] = v;
            if (fm.is_reg && fm.width == 128 && i + 1 < tt.regs.size()) tt.regs[i + 1] = v;
          }
        }
        if (tt.regs.size() > t.reg_base) tt.regs.resize(t.reg_base);
      }
      return;
    case IrOp::Bra:
    case IrOp::Nop:
    case IrOp::Fence: return;  // the guard is checked above
    default:
      // The index of brx.idx, the operands of warp collectives (they read
      // other lanes), mbarrier polls, alloca and stackrestore (the stack
      // pointer): tainted ones decide something. Their results do not
      // depend on D then.
      st.decided |= any_src;
      for (uint32_t b = m; b; b &= b - 1) write_dsts(static_cast<uint32_t>(std::countr_zero(b)), 0);
      return;
  }
}

}  // namespace ptxcheck::interp

namespace ptxcheck::interp {

namespace {
constexpr uint64_t kMaxCheck = 64;              // the longest cycle (rounds) checked with taint
constexpr uint64_t kFirstSkip = 1ull << 20;     // the first clock skip of a run of idle rounds
constexpr uint64_t kMaxSkip = 1ull << 56;       // one skip at most
constexpr uint64_t kMaxClockSkip = 1ull << 62;  // the clocks never wrap
constexpr uint64_t kMaxBackoff = 1024;          // rounds without snapshots after a failed check, at most
}  // namespace

// Every thread's state and PC, and for each runnable thread or one waiting
// in a warp collective (only those can change in such a round; the
// collective reads the waiting lanes' registers) its registers, call frames
// and .local bytes. A converged warp keeps its lanes' PC in Warp::pc
// (step()'s fast path), not in Thread::pc.
void SpinWatch::snap(const std::vector<std::unique_ptr<Cta>>& ctas, Snap& s, uint32_t per_cta) {
  s.words.clear();
  s.data.clear();
  s.spans.clear();
  auto push = [&](uint64_t v, uint8_t d) {
    s.words.push_back(v);
    s.data.push_back(d);
  };
  for (const auto& c : ctas) {
    push(c->exited, 0);
    for (const Warp& w : c->warps) push(w.conv ? uint64_t{w.pc} << 32 | w.group : ~uint64_t{0}, 0);
    for (const Thread& t : c->threads) {
      push(uint64_t{t.pc} << 8 | static_cast<uint64_t>(t.st), 0);
      if (t.st != TState::Ready && t.st != TState::WarpWait) continue;
      push(uint64_t{t.func} << 32 | t.reg_base, 0);
      push(uint64_t{t.fp} << 32 | t.sp, 0);
      push(t.frames.size(), 0);
      push(t.regs.size(), 0);
      Span sp{c->slot * per_cta + t.lin, static_cast<uint32_t>(s.words.size()), static_cast<uint32_t>(t.regs.size()), 0,
              0};
      for (uint64_t r : t.regs) push(r, 1);
      const size_t n = t.local.bytes.size();
      push(n, 0);
      sp.local = static_cast<uint32_t>(s.words.size());
      sp.nlocal = static_cast<uint32_t>((n + 7) / 8);
      for (size_t i = 0; i < n; i += 8) {
        uint64_t v = 0;
        std::memcpy(&v, t.local.bytes.data() + i, std::min<size_t>(8, n - i));
        push(v, 1);
      }
      s.spans.push_back(sp);
    }
  }
}

void SpinWatch::stop(Machine& mc) {
  checking_ = false;
  mc.taint_on_ = false;
}

SpinWatch::Spin SpinWatch::round_end(Machine& mc, const std::vector<std::unique_ptr<Cta>>& ctas, bool own) {
  SpinState& st = *mc.spin_;
  if (!own) {  // some thread wrote memory, synchronized or left: start afresh
    if (checking_) stop(mc);
    reset();
    hold_ = backoff_ = skip_ = 0;
    return Spin::No;
  }
  if (checking_) {
    if (--left_ == cycle_) {  // the first cycle ends: the second one's decisions count apart
      decided1_ = st.decided;
      st.decided = 0;
    }
    if (left_ > 0) return Spin::No;
    stop(mc);
    reset();
    snap(ctas, cur_, st.per_cta);
    // The same PCs, states and shapes; outside D, the same words and no
    // taint (every decision noted: the words of D may have decided
    // something only through words that they wrote).
    bool shape = cur_.words.size() == base_.words.size() && cur_.data == base_.data;
    for (size_t i = 0; shape && i < cur_.words.size(); ++i)
      if (!cur_.data[i] && cur_.words[i] != base_.words[i]) shape = false;
    bool same = shape;
    for (size_t i = 0; same && i < cur_.words.size(); ++i)
      if (cur_.words[i] != base_.words[i] && !in_d_[i]) same = false;
    for (const Span& sp : base_.spans) {
      if (!same) break;
      const ThreadTaint& tt = st.taint[sp.thread];
      for (uint32_t j = 0; j < sp.nregs && j < tt.regs.size() && same; ++j)
        if (tt.regs[j] && !in_d_[sp.regs + j]) same = false;
      for (uint32_t k = 0; k < sp.nlocal && same; ++k)
        if (local_taint(tt, uint64_t{k} * 8, 8) && !in_d_[sp.local + k]) same = false;
    }
    const uint8_t decided2 = st.decided;
    if (same && !decided1_ && !decided2) return Spin::Repeats;
    if (shape && decided2 == kTaintClock) {
      // In the second cycle, when the taint of the words of D came from
      // their sources, only clock readings decided what the cluster does,
      // and nothing else can run: the clocks skip ahead, eight times as far
      // each time while no round writes memory, so that any timeout is
      // reached. Once they have skipped 2^62 in all, no timeout is left to
      // wait for (146 years of 1 GHz cycles or nanoseconds).
      if (st.clock_skip >= kMaxClockSkip) return Spin::ClockOnly;
      skip_ = skip_ ? std::min(skip_ * 8, kMaxClockSkip) : kFirstSkip;
      st.clock_skip = std::min(st.clock_skip + skip_, kMaxClockSkip);
      // The next check starts at once, from here, with the taint as it is
      // (its colors came from their sources): one cycle.
      base_.words.swap(cur_.words);
      base_.data.swap(cur_.data);
      base_.spans.swap(cur_.spans);
      st.decided = decided1_ = 0;
      left_ = cycle_;
      checking_ = true;
      mc.taint_on_ = true;
      return Spin::No;
    }
    // A counter decides (a loop that ends by itself), or the state moved on.
    backoff_ = backoff_ ? std::min(backoff_ * 2, kMaxBackoff) : 4;
    hold_ = backoff_;
    return Spin::No;
  }
  if (hold_) {
    --hold_;
    return Spin::No;
  }
  snap(ctas, cur_, st.per_cta);
  if (have_ && cur_.words.size() == saved_.words.size() && cur_.data == saved_.data) {
    bool similar = true, exact = true;
    in_d_.assign(cur_.words.size(), 0);
    for (size_t i = 0; i < cur_.words.size() && similar; ++i) {
      if (cur_.words[i] == saved_.words[i]) continue;
      if (!cur_.data[i]) similar = false;
      in_d_[i] = 1;
      exact = false;
    }
    // An exact repeat without clock readings in between repeats forever:
    // the rounds read only the state and memory they do not change.
    if (similar && exact && (lam_ > kMaxCheck || st.clock_reads == saved_reads_)) return Spin::Repeats;
    if (similar && lam_ <= kMaxCheck) {
      // Check the next cycle of lam_ rounds with D and the clocks tainted.
      base_.words.swap(cur_.words);
      base_.data.swap(cur_.data);
      base_.spans.swap(cur_.spans);
      st.taint.resize(ctas.size() * size_t{st.per_cta});
      for (ThreadTaint& tt : st.taint) {
        tt.regs.clear();
        tt.local.clear();
      }
      for (const Span& sp : base_.spans) {
        ThreadTaint& tt = st.taint[sp.thread];
        for (uint32_t j = 0; j < sp.nregs; ++j)
          if (in_d_[sp.regs + j]) {
            if (tt.regs.size() < sp.nregs) tt.regs.resize(sp.nregs, 0);
            tt.regs[j] = kTaintVar;
          }
        for (uint32_t k = 0; k < sp.nlocal; ++k)
          if (in_d_[sp.local + k]) set_local(tt, uint64_t{k} * 8, 8, kTaintVar);
      }
      st.decided = 0;
      cycle_ = lam_;
      left_ = 2 * lam_;
      checking_ = true;
      mc.taint_on_ = true;
      return Spin::No;
    }
  }
  if (!have_ || lam_ == power_) {
    saved_.words.swap(cur_.words);
    saved_.data.swap(cur_.data);
    saved_.spans.swap(cur_.spans);
    have_ = true;
    saved_reads_ = st.clock_reads;
    power_ *= 2;
    lam_ = 0;
  }
  ++lam_;
  return Spin::No;
}

}  // namespace ptxcheck::interp
