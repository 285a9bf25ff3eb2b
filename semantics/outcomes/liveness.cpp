// Backward liveness of registers and frame bytes over one function's IR,
// for the spin-loop reduction of `ptxcheck outcomes` (hook_impl.hpp,
// docs/outcomes.md "Spin loops"; Hook::back_jump in hook_loop.cpp).
#include <algorithm>
#include <optional>

#include "semantics/outcomes/cfg.hpp"
#include "semantics/outcomes/hook_impl.hpp"

namespace ptxcheck::outcomes {

using interp::Inst;
using interp::IrOp;

// Backward liveness over the code of one function, for the spin-loop
// reduction (explore.hpp): a slot is live at `head` if some path from it
// reads the slot before writing it. Conservative where the IR hides
// register traffic: a call, an mma/tensor site, wgmma registers or an
// unsupported instruction read every slot and kill none (so every slot is
// live just before it; a call elsewhere in the function no longer makes
// the whole function opaque: nvcc -G calls __threadfence_block() after a
// spin loop, which then was never reduced); only unguarded instructions
// that overwrite their whole destination kill a slot. A register operand
// outside the function's slots gives no liveness (all live).
const std::vector<char>* Shared::live_at(uint32_t func, uint32_t head) {
  auto key = std::make_pair(func, head);
  auto cached = live_cache.find(key);
  if (cached != live_cache.end()) return cached->second ? &*cached->second : nullptr;
  std::optional<std::vector<char>>& slot = live_cache[key];
  const interp::Function& f = prog->funcs[func];
  uint32_t begin = f.entry_pc, end = static_cast<uint32_t>(prog->code.size());
  for (const interp::Function& g : prog->funcs)
    if (g.defined && g.entry_pc > begin) end = std::min(end, g.entry_pc);
  if (head < begin || head >= end) return nullptr;
  const size_t n = end - begin, nr = f.nregs;
  std::vector<std::vector<char>> live(n, std::vector<char>(nr, 0));
  std::vector<char> ret_use(nr, 0);  // a callee's return values are read by its caller
  if (!f.is_entry)
    for (const interp::Formal& r : f.rets)
      if (r.is_reg && r.slot < nr) ret_use[r.slot] = 1;
  auto reg_ok = [&](const interp::Opnd& o) { return o.kind != interp::Opnd::Reg || o.slot < nr; };
  auto hides = [](const Inst& in) {
    return in.op == IrOp::Mma || in.op == IrOp::Tensor || in.op == IrOp::Unsupported || in.wg_reg;
  };
  for (size_t i = 0; i < n; ++i) {
    const Inst& in = prog->code[begin + i];
    bool opaque = (in.guarded && in.guard >= nr) || (in.addr.base == interp::Addr::Reg && in.addr.slot >= nr) ||
                  (in.addr2.base == interp::Addr::Reg && in.addr2.slot >= nr);
    for (unsigned k = 0; k < 4; ++k) opaque = opaque || !reg_ok(in.src[k]) || !reg_ok(in.dst[k]);
    if (in.op == IrOp::Call) {
      const interp::CallSite& cs = prog->calls[in.target];
      opaque = opaque || !reg_ok(cs.fnptr);
      for (const interp::CallArg& a : cs.args) opaque = opaque || (!a.in_frame && !reg_ok(a.value));
      for (const interp::CallArg& a : cs.rets) opaque = opaque || (!a.in_frame && !reg_ok(a.value));
    }
    if (opaque) return nullptr;  // (slot stays empty: all live)
  }
  std::vector<uint32_t> succ;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = n; i-- > 0;) {
      const Inst& in = prog->code[begin + i];
      std::vector<char> out(nr, 0);
      auto add = [&](uint32_t pc) {
        if (pc < begin || pc >= end) return;
        const std::vector<char>& l = live[pc - begin];
        for (size_t k = 0; k < nr; ++k) out[k] |= l[k];
      };
      for_each_successor(*prog, in, begin + static_cast<uint32_t>(i), add);
      if (in.op == IrOp::Ret)
        for (size_t k = 0; k < nr; ++k) out[k] |= ret_use[k];
      if (hides(in)) std::fill(out.begin(), out.end(), 1);
      bool kills = !in.guarded && !hides(in) &&
                   (in.op == IrOp::Arith || in.op == IrOp::Mov || in.op == IrOp::Ld || in.op == IrOp::Pack ||
                    in.op == IrOp::Unpack || in.op == IrOp::Cvta || in.op == IrOp::Mapa || in.op == IrOp::Getctarank ||
                    in.op == IrOp::Isspacep || in.op == IrOp::Atom ||  // atom writes every destination (the old value)
                    (in.op == IrOp::Mbarrier &&  // test/try_wait's predicate, pending_count, arrive's state
                     (in.mbar == interp::MbarOp::Wait || in.mbar == interp::MbarOp::WaitParity ||
                      in.mbar == interp::MbarOp::PendingCount || in.mbar == interp::MbarOp::Arrive ||
                      in.mbar == interp::MbarOp::ArriveDrop)));
      if (kills)
        for (unsigned k = 0; k < 4; ++k)
          if (in.dst[k].kind == interp::Opnd::Reg) out[in.dst[k].slot] = 0;
      if (in.op == IrOp::Call) {
        // A call reads the caller's registers that it passes by value (and
        // an indirect call's address) and writes those that receive its
        // return values (Machine::do_call/do_ret; the callee's registers
        // are a frame of their own). Only a call to a defined function
        // surely writes them when it returns.
        const interp::CallSite& cs = prog->calls[in.target];
        const interp::Function* callee = cs.callee != ~0u ? &prog->funcs[cs.callee] : nullptr;
        if (!in.guarded && callee && callee->defined)
          for (const interp::CallArg& a : cs.rets)
            if (!a.in_frame && a.value.kind == interp::Opnd::Reg) out[a.value.slot] = 0;
        for (size_t k = 0; k < cs.args.size(); ++k) {
          const interp::CallArg& a = cs.args[k];
          if (a.in_frame || a.value.kind != interp::Opnd::Reg) continue;
          out[a.value.slot] = 1;
          // The high half of a .b128 formal (any callee, if indirect).
          const bool wide = !callee || (k < callee->params.size() && callee->params[k].width == 128);
          if (wide && a.value.slot + 1 < nr) out[a.value.slot + 1] = 1;
        }
        if (cs.fnptr.kind == interp::Opnd::Reg) out[cs.fnptr.slot] = 1;
      }
      for (unsigned k = 0; k < 4; ++k)
        if (in.src[k].kind == interp::Opnd::Reg) out[in.src[k].slot] = 1;
      if (in.addr.base == interp::Addr::Reg) out[in.addr.slot] = 1;
      if (in.addr2.base == interp::Addr::Reg) out[in.addr2.slot] = 1;
      if (in.guarded) out[in.guard] = 1;
      if (out != live[i]) {
        live[i] = std::move(out);
        changed = true;
      }
    }
  }
  slot = std::move(live[head - begin]);
  return &*slot;
}

// Backward liveness of frame bytes (hook_impl.hpp), for the spin-loop
// reduction: nvcc -O0 passes every argument and return value of a call
// through .param variables of a call sequence (PTX ISA 5.1.6.4), so after a
// call in a spin loop those bytes hold the dependencies of the latest read
// (Hook::back_jump compares them only where they are live). The followed
// bytes are those variables and the function's .param formals: the only
// accesses to them are ld/st at a constant frame offset and the copies of
// call and ret, unless an operand takes their address (Opnd::FrameAddr),
// which makes the variable untracked. A call writes its in-frame return
// variables (kill, for a defined callee) and reads its in-frame argument
// variables; a ret reads the function's in-frame return formals; a store
// kills its first element only; any other access at a frame address, and
// the instructions the register liveness cannot see through, read them all.
const std::vector<char>* Shared::frame_live_at(uint32_t func, uint32_t head) {
  auto key = std::make_pair(func, head);
  auto cached = frame_live_cache.find(key);
  if (cached != frame_live_cache.end()) return cached->second ? &*cached->second : nullptr;
  std::optional<std::vector<char>>& slot = frame_live_cache[key];
  const interp::Function& f = prog->funcs[func];
  uint32_t begin = f.entry_pc, end = static_cast<uint32_t>(prog->code.size());
  for (const interp::Function& g : prog->funcs)
    if (g.defined && g.entry_pc > begin) end = std::min(end, g.entry_pc);
  if (head < begin || head >= end) return nullptr;
  const uint32_t nb = f.frame_bytes;
  // The followed variables (offset, size), then the escaped ones dropped.
  std::vector<std::pair<uint32_t, uint32_t>> vars;
  for (const auto* list : {&f.params, &f.rets})
    for (const interp::Formal& fm : *list)
      if (!fm.is_reg) vars.emplace_back(fm.frame_off, fm.size);
  for (uint32_t pc = begin; pc < end; ++pc)
    if (prog->code[pc].op == IrOp::Call) {
      const interp::CallSite& cs = prog->calls[prog->code[pc].target];
      for (const auto* list : {&cs.args, &cs.rets})
        for (const interp::CallArg& a : *list)
          if (a.in_frame) vars.emplace_back(a.frame_off, a.size);
    }
  std::vector<char> escaped(vars.size(), 0);
  auto escape = [&](const interp::Opnd& o) {
    if (o.kind != interp::Opnd::FrameAddr) return;
    for (size_t v = 0; v < vars.size(); ++v)
      if (o.imm >= vars[v].first && o.imm < uint64_t{vars[v].first} + std::max(1u, vars[v].second)) escaped[v] = 1;
  };
  for (uint32_t pc = begin; pc < end; ++pc) {
    const Inst& in = prog->code[pc];
    for (unsigned k = 0; k < 4; ++k) escape(in.src[k]), escape(in.dst[k]);
    if (in.op == IrOp::Call) {
      const interp::CallSite& cs = prog->calls[in.target];
      escape(cs.fnptr);
      for (const auto* list : {&cs.args, &cs.rets})
        for (const interp::CallArg& a : *list)
          if (!a.in_frame) escape(a.value);
    }
  }
  // Byte -> index among the followed bytes (-1: not followed, always live).
  std::vector<int> idx(nb, -1);
  int m = 0;
  for (size_t v = 0; v < vars.size(); ++v)
    if (!escaped[v])
      for (uint32_t b = vars[v].first; b < vars[v].first + vars[v].second && b < nb; ++b)
        if (idx[b] < 0) idx[b] = m++;
  for (size_t v = 0; v < vars.size(); ++v)  // an escaped variable that overlaps a followed one
    if (escaped[v])
      for (uint32_t b = vars[v].first; b < vars[v].first + vars[v].second && b < nb; ++b) idx[b] = -1;
  if (m > 4096) return nullptr;
  const size_t n = end - begin;
  std::vector<std::vector<char>> live(n, std::vector<char>(static_cast<size_t>(m), 0));
  auto mark = [&](std::vector<char>& out, uint64_t off, uint64_t size, char v) {
    for (uint64_t b = off; b < off + size && b < nb; ++b)
      if (idx[b] >= 0) out[static_cast<size_t>(idx[b])] = v;
  };
  auto opaque = [](const Inst& in) {
    return in.op == IrOp::Mma || in.op == IrOp::Tensor || in.op == IrOp::Unsupported || in.op == IrOp::Tex || in.wg_reg;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = n; i-- > 0;) {
      const Inst& in = prog->code[begin + i];
      std::vector<char> out(static_cast<size_t>(m), 0);
      auto add = [&](uint32_t pc) {
        if (pc < begin || pc >= end) return;
        const std::vector<char>& l = live[pc - begin];
        for (size_t k = 0; k < out.size(); ++k) out[k] |= l[k];
      };
      for_each_successor(*prog, in, begin + static_cast<uint32_t>(i), add);
      if (in.op == IrOp::Ret && !f.is_entry)
        for (const interp::Formal& fm : f.rets)
          if (!fm.is_reg) mark(out, fm.frame_off, fm.size, 1);
      const bool frame_addr = in.addr.base == interp::Addr::Frame || in.addr2.base == interp::Addr::Frame;
      if (opaque(in) || (frame_addr && in.op != IrOp::Ld && in.op != IrOp::St)) {
        std::fill(out.begin(), out.end(), 1);
      } else if (in.op == IrOp::St && in.addr.base == interp::Addr::Frame) {
        if (!in.guarded) mark(out, static_cast<uint64_t>(in.addr.off), in.size, 0);
      } else if (in.op == IrOp::Ld && in.addr.base == interp::Addr::Frame) {
        unsigned elems = 0;
        for (unsigned k = 0; k < 4; ++k) elems += in.dst[k].kind != interp::Opnd::None;
        mark(out, static_cast<uint64_t>(in.addr.off), uint64_t{in.size} * std::max({1u, elems, unsigned{in.ndst}}), 1);
      } else if (in.op == IrOp::Call) {
        const interp::CallSite& cs = prog->calls[in.target];
        const interp::Function* callee = cs.callee != ~0u ? &prog->funcs[cs.callee] : nullptr;
        if (!in.guarded && callee && callee->defined)
          for (size_t k = 0; k < cs.rets.size() && k < callee->rets.size(); ++k) {
            const interp::Formal& fm = callee->rets[k];  // do_ret copies these bytes
            if (cs.rets[k].in_frame)
              mark(out, cs.rets[k].frame_off, std::min({cs.rets[k].size, fm.is_reg ? 8u : fm.size, fm.size}), 0);
          }
        for (const interp::CallArg& a : cs.args)
          if (a.in_frame) mark(out, a.frame_off, a.size, 1);
      }
      if (out != live[i]) {
        live[i] = std::move(out);
        changed = true;
      }
    }
  }
  std::vector<char> res(nb, 1);
  for (uint32_t b = 0; b < nb; ++b)
    if (idx[b] >= 0) res[b] = live[head - begin][static_cast<size_t>(idx[b])];
  slot = std::move(res);
  return &*slot;
}

}  // namespace ptxcheck::outcomes
