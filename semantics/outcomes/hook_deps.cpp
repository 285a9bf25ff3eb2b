// Dependencies in the outcomes ExecHook (hook_impl.hpp): Hook::step follows
// them along the executed path, and the thread's own memory carries them
// byte by byte (.local bytes, the .param bytes of call sequences, callee
// frames and alloca'd stack, and the copies of call and ret; PTX ISA 8.10.4:
// dependencies are carried through the thread's own memory as through
// registers).
#include "semantics/interp/tma.hpp"
#include "semantics/outcomes/hook_impl.hpp"

namespace ptxcheck::outcomes {

using interp::Inst;
using interp::IrOp;

// The thread's own memory (ThreadRec::ldeps), as semantics/interp/
// trace_exec.cpp follows it for litmus threads: the reads the `n` bytes
// from `off` depend on (a partial overlap of earlier stores combines
// theirs), a store of a value depending on `d`, and a copy of `n` bytes as
// Machine::do_call/do_ret copy .param bytes between frames.
void local_read(const ThreadRec& r, uint64_t off, unsigned n, Deps& d) {
  for (auto it = r.ldeps.lower_bound(off); it != r.ldeps.end() && it->first < off + n; ++it) merge(d, it->second);
}

void local_write(ThreadRec& r, uint64_t off, unsigned n, const Deps& d) {
  auto it = r.ldeps.lower_bound(off);
  auto end = it;
  while (end != r.ldeps.end() && end->first < off + n) ++end;
  it = r.ldeps.erase(it, end);
  if (d.empty()) return;
  for (unsigned b = 0; b < n; ++b) it = std::next(r.ldeps.emplace_hint(it, off + b, d));
}

namespace {

void local_copy(ThreadRec& r, uint64_t to, uint64_t from, unsigned n) {
  if (to == from) return;
  if (auto it = r.ldeps.lower_bound(from); it == r.ldeps.end() || it->first >= from + n) {
    local_write(r, to, n, {});  // no byte of the source depends on a read
    return;
  }
  std::vector<Deps> bytes(n);
  for (unsigned b = 0; b < n; ++b)
    if (auto it = r.ldeps.find(from + b); it != r.ldeps.end()) bytes[b] = it->second;
  for (unsigned b = 0; b < n; ++b) local_write(r, to + b, 1, bytes[b]);
}

}  // namespace

std::optional<uint64_t> Hook::local_off(const interp::Thread& t, const Inst& in) {
  // As Machine::exec_ldst computes the address: .local (and a function's
  // .param variables, lowered to its frame), or a generic address in the
  // local window (memory.hpp).
  if (in.addr.space != interp::Space::Local && in.addr.space != interp::Space::Generic) return std::nullopt;
  uint64_t a = static_cast<uint64_t>(in.addr.off);
  if (in.addr.base == interp::Addr::Reg) {
    if (t.reg_base + in.addr.slot >= t.regs.size()) return std::nullopt;
    a = in.addr.wrap(a + t.regs[t.reg_base + in.addr.slot]);
  } else if (in.addr.base == interp::Addr::Frame) {
    a += t.fp;
  }
  if (in.addr.space == interp::Space::Local) return a;
  if (a >= interp::kLocalWin && a - interp::kLocalWin < interp::kWinSize) return a - interp::kLocalWin;
  return std::nullopt;
}

// call (PTX ISA 9.7.12.5; the arguments' copy into the callee's formals,
// 5.1.6.4): the dependencies go where Machine::do_call puts the values --
// the callee's formal registers at the next register base, or its .param
// bytes in the frame it gets at the 16-aligned stack pointer.
void Hook::call_deps(ThreadRec& r, const interp::Thread& t, const Inst& in) {
  const interp::Program& prog = *sh_.prog;
  const interp::CallSite& cs = prog.calls[in.target];
  const uint32_t base = t.reg_base;
  auto reg_deps = [&](const interp::Opnd& o, uint32_t plus = 0) {
    return o.kind == interp::Opnd::Reg && base + o.slot + plus < r.rdeps.size() ? r.rdeps[base + o.slot + plus]
                                                                                : Deps{};
  };
  uint32_t callee = cs.callee;
  if (callee == ~0u) {
    merge(r.ctrl_on, reg_deps(cs.fnptr));  // the code that runs depends on the address
    const uint64_t a =
        cs.fnptr.kind == interp::Opnd::Reg && base + cs.fnptr.slot < t.regs.size() ? t.regs[base + cs.fnptr.slot] : 0;
    if (a < interp::kFuncAddrBase || (a - interp::kFuncAddrBase) % 16 ||
        (a - interp::kFuncAddrBase) / 16 >= prog.funcs.size())
      return;  // the machine stops the launch
    callee = static_cast<uint32_t>((a - interp::kFuncAddrBase) / 16);
  }
  const interp::Function& f = prog.funcs[callee];
  if (!f.defined) {
    // vprintf, malloc, free: a result that depends on no read.
    for (const interp::CallArg& a : cs.rets) {
      if (a.in_frame)
        local_write(r, t.fp + a.frame_off, 8, {});
      else if (a.value.kind == interp::Opnd::Reg && base + a.value.slot < r.rdeps.size())
        r.rdeps[base + a.value.slot].clear();
    }
    return;
  }
  const size_t nb = t.regs.size();
  const uint64_t fp = (t.sp + 15) & ~uint64_t{15};
  r.rdeps.resize(nb);
  r.rdeps.resize(nb + f.nregs);  // the callee's registers start at 0, depending on nothing
  for (size_t k = 0; k < f.params.size() && k < cs.args.size(); ++k) {
    const interp::Formal& fm = f.params[k];
    const interp::CallArg& a = cs.args[k];
    const unsigned n = std::min(8u, fm.size);
    if (fm.is_reg && fm.slot >= f.nregs) continue;
    if (a.in_frame) {
      if (fm.is_reg)
        local_read(r, t.fp + a.frame_off, n, r.rdeps[nb + fm.slot]);
      else
        local_copy(r, fp + fm.frame_off, t.fp + a.frame_off, fm.size);
    } else if (fm.is_reg) {
      r.rdeps[nb + fm.slot] = reg_deps(a.value);
    } else {
      local_write(r, fp + fm.frame_off, n, reg_deps(a.value));
    }
    if (fm.is_reg && fm.width == 128 && fm.slot + 1 < f.nregs) {  // the high half of a .b128 formal
      if (a.in_frame)
        local_read(r, t.fp + a.frame_off + 8, 8, r.rdeps[nb + fm.slot + 1]);
      else
        r.rdeps[nb + fm.slot + 1] = reg_deps(a.value, 1);
    }
  }
}

// ret: the return values go back as Machine::do_ret copies them, into the
// caller's registers or its .param bytes; the callee's registers end.
void Hook::ret_deps(ThreadRec& r, const interp::Thread& t) {
  if (t.frames.empty()) return;  // the kernel's ret: the thread ends
  const interp::Program& prog = *sh_.prog;
  const interp::Frame& fr = t.frames.back();
  const interp::Function& f = prog.funcs[t.func];
  const interp::CallSite& cs = prog.calls[fr.call];
  auto reg = [&](uint32_t b, uint32_t slot) -> Deps* {
    return b + slot < r.rdeps.size() ? &r.rdeps[b + slot] : nullptr;
  };
  for (size_t k = 0; k < f.rets.size() && k < cs.rets.size(); ++k) {
    const interp::Formal& fm = f.rets[k];
    const interp::CallArg& a = cs.rets[k];
    const unsigned n = std::min(8u, fm.size);
    Deps d;
    if (fm.is_reg) {
      if (const Deps* s = reg(t.reg_base, fm.slot)) d = *s;
    } else if (!a.in_frame) {
      local_read(r, t.fp + fm.frame_off, n, d);
    }
    if (a.in_frame) {
      if (fm.is_reg)
        local_write(r, fr.fp + a.frame_off, n, d);
      else
        local_copy(r, fr.fp + a.frame_off, t.fp + fm.frame_off, fm.size);
    } else if (a.value.kind == interp::Opnd::Reg) {
      if (Deps* to = reg(fr.reg_base, a.value.slot)) *to = d;
    }
    if (fm.is_reg && fm.width == 128) {  // the high half of a .b128 return value
      Deps hi;
      if (const Deps* s = reg(t.reg_base, fm.slot + 1)) hi = *s;
      if (a.in_frame)
        local_write(r, fr.fp + a.frame_off + 8, 8, hi);
      else if (a.value.kind == interp::Opnd::Reg)
        if (Deps* to = reg(fr.reg_base, a.value.slot + 1)) *to = hi;
    }
  }
  if (r.rdeps.size() > t.reg_base) r.rdeps.resize(t.reg_base);
  // The callee's frame and everything above it end with it: no byte there
  // carries a dependency into the caller's next call (Hook::back_jump then
  // compares the thread's own memory of the live frames only).
  r.ldeps.erase(r.ldeps.lower_bound(t.fp), r.ldeps.end());
}

// Dependencies (PTX ISA 8.10.4 No Thin Air: "chains of instruction
// dependencies and inter-thread communication"; the relations addr, data
// and ctrl of mm::Skeleton), followed along the executed path as
// semantics/interp/trace_exec.cpp follows them for litmus threads: a read's
// destination depends on the read; a computed register on what its sources
// depend on; a memory access has an address dependency on what its address
// register depends on and a write a data dependency on what its value
// depends on; every event after a guarded instruction or an indexed branch
// has a control dependency on what the guard or index depends on.
// The thread's own memory (.local variables and spills, the .param
// variables of call sequences, callee frames, alloca'd stack: one Region
// per thread, PTX ISA 5.1.5 and 5.1.6.4) makes no events; it is memory of
// that thread alone, so a value stored there and loaded back is the rf of
// a thread-private location: per byte, the bytes a store writes depend on
// the value's and the address's reads, and a load's destination on its
// bytes' and its address's (a load overlapping several stores combines
// them). call and ret copy arguments and return values, in registers or
// .param bytes, as Machine::do_call/do_ret copy them, so dependencies flow
// through nested and recursive calls; an indirect call's code depends on
// its function address (a control dependency, as in trace_exec.cpp).
// Deterministic global/shared bytes a thread loads back after writing them
// carry their store's dependencies the same way (Hook::read/write).
// Not followed: warp collectives, matrix, tensor and texture instructions
// (their results depend on nothing), deterministic bytes another thread
// wrote. That only drops edges of the acyclicity check, so
// no permitted state is lost (docs/outcomes.md "Limits").
void Hook::step(interp::Thread* lanes, const interp::Cta& c, const Inst& in, uint32_t group, uint32_t exec) {
  // A multicast bulk copy, a bulk reduction or a tensor copy that completes
  // on an mbarrier (complete_tx) updates the mbarrier outside the accesses
  // this hook sees (Machine::mbar_complete_tx; a 1D cp.async.bulk to one CTA
  // reports it, hook_async.cpp), so its waits could never see the phase
  // complete: every path would end as a spin and the answer would be "no
  // outcome". Refuse instead (docs/outcomes.md "Limits").
  if ((in.op == IrOp::BulkCopy && in.src[1].kind != interp::Opnd::None && (in.flags != 0 || in.mode != 0)) ||
      (in.op == IrOp::Tensor && in.target < sh_.prog->tensor.size() && sh_.prog->tensor[in.target]->has_mbar))
    throw LimitError("PTX line " + std::to_string(in.line) +
                     ": an asynchronous bulk copy completes on an mbarrier (.mbarrier::complete_tx::bytes) with "
                     ".multicast::cluster, or a tensor copy does; outcomes models 1D copies to one CTA only");
  if (loop_step(lanes, c, in, group, exec)) return;  // parked a lane: the instruction runs later for the others
  ++serial_;
  step_group_ = group, step_lanes_ = lanes, step_exec_ = exec;
  if (!written_.empty()) wake_blocked();
  if (sh_.grid_any) {  // grid counters (hook_grid.cpp)
    bool parked = false;
    if (polls_ && in.op != IrOp::Bra && !computes_registers(in.op))
      for (uint32_t b = exec; b; b &= b - 1) {
        interp::Thread& t = lanes[std::countr_zero(b)];
        if (t.gid >= th.size() || th[t.gid].poll.li < 0) continue;
        ThreadRec& r = th[t.gid];
        if (!r.poll.wait) {
          grid_flush(r);
          continue;
        }
        // (f3): the poll that was to wait for a newer write read a value
        // that leaves the loop: the run that read that write covers it.
        r.poll.li = -1;
        --polls_;
        ++subsumed, ++r.subsumed;
        killed = true;
        r.killed = true;
        t.st = interp::TState::Parked;
        parked = true;
      }
    if (parked) return;
    if (grid_step(lanes, c, in, exec)) return;
  }
  if (canon_toks_) canon_step(lanes, in, exec);
  if (round_toks_) round_step(lanes, in, exec);  // hook_round.cpp (r2)
  if (lazy_) lazy_step(lanes, in, group, exec);  // hook_lazy.cpp
  if (!tracking_) return;
  for (uint32_t b = group; b; b &= b - 1) {
    const uint32_t l = static_cast<uint32_t>(std::countr_zero(b));
    interp::Thread& t = lanes[l];
    if (t.gid >= th.size() || !th[t.gid].tracking) continue;
    ThreadRec& r = th[t.gid];
    if (r.rdeps.size() < t.regs.size()) r.rdeps.resize(t.regs.size());
    const uint32_t base = t.reg_base;
    auto deps = [&](const interp::Opnd& o) -> const Deps* {
      return o.kind == interp::Opnd::Reg && base + o.slot < r.rdeps.size() ? &r.rdeps[base + o.slot] : nullptr;
    };
    auto set_dst = [&](const Deps& d) {
      for (unsigned k = 0; k < 4; ++k)
        if (in.dst[k].kind == interp::Opnd::Reg && base + in.dst[k].slot < r.rdeps.size())
          r.rdeps[base + in.dst[k].slot] = d;
    };
    if (in.guarded && base + in.guard < r.rdeps.size()) merge(r.ctrl_on, r.rdeps[base + in.guard]);
    if (!(exec >> l & 1)) continue;
    r.snap = serial_;
    r.cur_addr.clear();
    if (in.addr.base == interp::Addr::Reg && base + in.addr.slot < r.rdeps.size())
      r.cur_addr = r.rdeps[base + in.addr.slot];
    // The destinations of an operation that computes registers depend on
    // its sources (computes_registers; alloca: the address from the size and
    // alignment, as trace_exec.cpp).
    auto from_sources = [&]() {
      Deps d;
      for (unsigned k = 0; k < 4; ++k)
        if (const Deps* s = deps(in.src[k])) merge(d, *s);
      set_dst(d);
    };
    switch (in.op) {
      case IrOp::Alloca: from_sources(); break;
      case IrOp::Ld:
        if (const std::optional<uint64_t> off = local_off(t, in)) {
          for (unsigned k = 0; k < in.ndst && k < 4; ++k) {
            if (in.dst[k].kind != interp::Opnd::Reg || base + in.dst[k].slot >= r.rdeps.size()) continue;
            Deps d = r.cur_addr;
            local_read(r, *off + k * in.size, in.size, d);
            r.rdeps[base + in.dst[k].slot] = std::move(d);
          }
        } else {
          set_dst({});  // a communicating read sets its destination (Hook::read)
        }
        break;
      case IrOp::BrxIdx:
        if (const Deps* s = deps(in.src[0])) merge(r.ctrl_on, *s);
        break;
      case IrOp::St:
      case IrOp::Atom:
      case IrOp::Red:
      case IrOp::Mbarrier:
        for (unsigned k = 0; k < 4; ++k) {
          const Deps* s = deps(in.src[k]);
          r.cur_data[k] = s ? *s : Deps{};
        }
        if (in.op == IrOp::Atom && in.atom == arith::AtomOp::Cas) merge(r.cur_data[0], r.cur_data[1]);
        if (in.op != IrOp::St) set_dst({});
        if (const std::optional<uint64_t> off = local_off(t, in)) {
          if (in.op == IrOp::St) {
            for (unsigned k = 0; k < in.nsrc && k < 4; ++k) {
              Deps d = r.cur_addr;
              merge(d, r.cur_data[k]);
              local_write(r, *off + k * in.size, in.size, d);
            }
          } else {
            local_write(r, *off, std::max(16u, 4u * in.size), {});  // (an atomic on .local: not followed)
          }
        }
        break;
      case IrOp::Call: call_deps(r, t, in); break;
      case IrOp::Ret: ret_deps(r, t); break;
      case IrOp::Mma:
      case IrOp::Tensor:
        // Registers and memory written outside this instruction
        // (asynchronous accumulators, wmma.store to .local): no dependencies.
        for (Deps& d : r.rdeps) d.clear();
        r.ldeps.clear();
        break;
      default:
        if (computes_registers(in.op))
          from_sources();
        else
          set_dst({});
        break;
    }
    if (in.wg_reg)
      for (Deps& d : r.rdeps) d.clear();
  }
}

}  // namespace ptxcheck::outcomes
