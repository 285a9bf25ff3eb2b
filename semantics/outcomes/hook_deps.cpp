// Dependencies through the thread's own memory in the outcomes ExecHook
// (hook_impl.hpp): .local bytes, the .param bytes of call sequences, callee
// frames and alloca'd stack, byte by byte, and the copies of call and ret
// (PTX ISA 8.10.4: dependencies are carried through the thread's own
// memory as through registers).
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

}  // namespace ptxcheck::outcomes
