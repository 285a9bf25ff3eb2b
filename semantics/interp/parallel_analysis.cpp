// Static guesses for the parallel run of a launch (parallel_analysis.hpp).
#include "semantics/interp/parallel_analysis.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "semantics/interp/exec_util.hpp"
#include "semantics/interp/mma.hpp"

namespace ptxcheck::interp {

// The global allocations the launch's code may write, as a mask: bit i for
// allocation i (i < 62), kAnyAlloc for any. A heuristic, not a proof: a
// flow-insensitive walk of the kernel and the functions it calls that
// follows each register's possible base pointers (the kernel's pointer
// parameters and the addresses of module globals, as this launch gives
// them) through the instructions that compute registers, and collects the
// bases of every address that st, atom or red use in global or generic
// memory (and cp.async, cp.async.bulk, st.bulk, wmma.store, stmatrix).
// Anything it cannot follow counts as any allocation: a store through an
// address with no known base (an integer, or a 64-bit value loaded from
// memory), indirect calls, surface writes and the tensor operations
// (cp.async.bulk.tensor, tensormap.replace). The claims make it safe: an allocation outside the
// mask is read without claims, and a write to it abandons the attempt
// (claim()), so a wrong guess costs the parallel run, never the result.
static constexpr uint64_t kWindow = 1ull << 62;  // a generic address cvta made of a shared, local, const or param one
uint64_t written_allocations(const Program& p, Memory& mem) {
  const size_t nglobal = mem.global_count();
  auto alloc_of = [&](uint64_t v) -> uint64_t {  // the allocation v points into (or one past)
    for (size_t i = 0; i < nglobal; ++i)
      if (const Region& r = mem.global(i); v >= r.base && v - r.base <= r.bytes.size())
        return i < 62 ? 1ull << i : kAnyAlloc;
    return 0;
  };
  // The kernel and the functions it calls (an indirect call: any).
  std::vector<FuncRange> reach;
  if (!reachable_functions(p, reach)) return kAnyAlloc;
  std::vector<std::vector<uint64_t>> taint(p.funcs.size());
  for (const FuncRange& fr : reach) {
    const uint32_t fi = fr.func;
    taint[fi].assign(p.funcs[fi].nregs, 0);
    if (fi != p.kernel)  // register parameters come from callers
      for (const Formal& fm : p.funcs[fi].params)
        if (fm.is_reg && fm.slot < taint[fi].size()) taint[fi][fm.slot] = kAnyAlloc;
  }
  const Region& params = mem.params();
  uint64_t written = 0;
  for (bool changed = true; changed && !(written & kAnyAlloc);) {
    changed = false;
    for (const FuncRange& fr : reach) {
      const uint32_t fi = fr.func;
      std::vector<uint64_t>& t = taint[fi];
      auto of = [&](const Opnd& o) -> uint64_t {
        if (o.kind == Opnd::Reg) return o.slot < t.size() ? t[o.slot] : kAnyAlloc;
        return o.kind == Opnd::Imm ? alloc_of(o.imm) : 0;
      };
      auto set = [&](const Opnd& o, uint64_t v) {
        if (o.kind != Opnd::Reg || o.slot >= t.size() || (t[o.slot] | v) == t[o.slot]) return;
        t[o.slot] |= v;
        changed = true;
      };
      auto target = [&](const Addr& a) -> uint64_t {  // the allocations an access at `a` may touch
        if (a.space != Space::Global && a.space != Space::Generic) return 0;
        if (a.base == Addr::Frame) return 0;  // the thread's local frame
        const uint64_t v =
            a.base == Addr::Reg ? (a.slot < t.size() ? t[a.slot] : kAnyAlloc) : alloc_of(static_cast<uint64_t>(a.off));
        if (v & kAnyAlloc) return kAnyAlloc;
        if (v & ~kWindow) return v & ~kWindow;
        return v ? 0 : kAnyAlloc;  // only a shared/local window address; no base at all
      };
      for (uint32_t pc = fr.begin; pc < fr.end; ++pc) {
        const Inst& in = p.code[pc];
        switch (in.op) {
          case IrOp::Ld:
            for (unsigned k = 0; k < in.ndst && k < 4; ++k) {
              uint64_t v = in.size == 8 ? kAnyAlloc : 0;  // a loaded pointer may point anywhere
              if (fi == p.kernel && in.addr.space == Space::Param && in.addr.base == Addr::Abs) {
                // A kernel parameter: this launch's value.
                const uint64_t o = static_cast<uint64_t>(in.addr.off) + uint64_t{k} * in.size;
                uint64_t x = 0;
                if (in.size >= 4 && in.size <= 8 && o <= params.bytes.size() && params.bytes.size() - o >= in.size)
                  std::memcpy(&x, params.bytes.data() + o, in.size);
                v = alloc_of(x);
              }
              set(in.dst[k], v);
            }
            break;
          case IrOp::St:
          case IrOp::Red:
          case IrOp::CpAsync:
          case IrOp::BulkCopy:
          case IrOp::StBulk: written |= target(in.addr); break;
          case IrOp::Atom:
            written |= target(in.addr);
            set(in.dst[0], in.size >= 8 ? kAnyAlloc : 0);
            break;
          case IrOp::Call: {
            for (const CallArg& r : p.calls[in.target].rets)
              if (!r.in_frame) set(r.value, kAnyAlloc);
            break;
          }
          case IrOp::Mma:
            if (const MmaSite& ms = *p.mma[in.target]; ms.op == MatOp::Store || ms.op == MatOp::Stmatrix)
              written |= target(ms.addr);
            break;
          case IrOp::Tex:
            if (const TexSite& ts = *p.tex[in.target]; ts.kind == TexSite::Sust || ts.kind == TexSite::Sured)
              written |= kAnyAlloc;
            break;
          case IrOp::Tensor: written |= kAnyAlloc; break;
          case IrOp::Cvta:
            if (!(in.flags & 1) && in.addr.space != Space::Global && in.addr.space != Space::Generic) {
              set(in.dst[0], kWindow);  // cvta.shared/.local/...: into a window, not global memory
              break;
            }
            [[fallthrough]];
          default: {
            // Registers computed from registers: each destination may hold
            // any base of any source.
            uint64_t u = in.addr.base == Addr::Reg ? (in.addr.slot < t.size() ? t[in.addr.slot] : kAnyAlloc) : 0;
            // (every operand slot: cvta, for one, does not count its source in nsrc)
            for (const Opnd& o : in.src) u |= of(o);
            for (const Opnd& o : in.dst) set(o, u);
          }
        }
      }
    }
  }
  return written;
}

// Per instruction of the program: 1 for a global or generic load whose
// address a store of as many bytes uses again in the same straight run of
// instructions, the address register unchanged (saxpy's y[i] = a * x[i] +
// y[i]): the load claims its bytes as written, so that the store finds
// them claimed and changes no claim word (one compare-and-swap per 32-byte
// block instead of two). Claiming a write that does not happen is safe
// (another CTA's access to those bytes abandons the attempt, and the
// deterministic schedule runs), so a wrong pairing costs speed, never the
// result.
std::vector<uint8_t> loads_then_stored(const Program& p) {
  std::vector<uint8_t> out(p.code.size(), 0);
  constexpr uint32_t kLook = 16;  // instructions looked at after each load
  for (uint32_t pc = 0; pc < p.code.size(); ++pc) {
    const Inst& ld = p.code[pc];
    if (ld.op != IrOp::Ld || ld.addr.base != Addr::Reg ||
        (ld.addr.space != Space::Global && ld.addr.space != Space::Generic))
      continue;
    for (uint32_t q = pc + 1; q < p.code.size() && q <= pc + kLook; ++q) {
      const Inst& in = p.code[q];
      if (in.op == IrOp::St && in.addr.base == Addr::Reg && in.addr.space == ld.addr.space &&
          in.addr.slot == ld.addr.slot && in.addr.off == ld.addr.off && in.addr.addr32 == ld.addr.addr32 &&
          unsigned{in.size} * in.nsrc == unsigned{ld.size} * ld.ndst) {
        out[pc] = 1;
        break;
      }
      // Only instructions that write no register but their destinations,
      // and none of them the address register.
      if (in.op != IrOp::Arith && in.op != IrOp::Mov && in.op != IrOp::Ld && in.op != IrOp::St && in.op != IrOp::Cvta &&
          in.op != IrOp::Nop)
        break;
      bool writes = false;
      for (const Opnd& d : in.dst) writes = writes || (d.kind == Opnd::Reg && d.slot == ld.addr.slot);
      if (writes) break;
    }
  }
  return out;
}

}  // namespace ptxcheck::interp
