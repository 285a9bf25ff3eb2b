// Internal to the lowering: the per-instruction lowering class shared by
// lower_insn.cpp (data movement, memory, arithmetic, calls) and
// lower_sync.cpp (barriers, warp collectives, asynchronous copies, mbarrier).
#pragma once
#include <cstring>

#include "parser/expr.hpp"
#include "parser/litmus/mem_defaults.hpp"
#include "semantics/interp/lower_ctx.hpp"
#include "semantics/interp/values.hpp"

namespace ptxcheck::interp {

using table::Mod;
using table::Opcode;

struct SRegName {
  const char* name;
  const char* sel;
  SReg id;
};
// The special registers the lowering resolves by name (special_regs.def).
inline constexpr SRegName kSRegs[] = {
#define SREG(id, name, component) {name, component, SReg::id},
#include "semantics/interp/special_regs.def"
#undef SREG
};

class InsnLowering {
 public:
  InsnLowering(LowerCtx& c, const ast::Instruction& in, SourcePos pos) : ctx(c), in(in) {
    i.line = pos.line;
    i.col = pos.col;
    if (in.guard) {
      const LocalSym* s = ctx.find_local(in.guard->reg);
      if (!s || s->kind != LocalSym::Reg) ctx.fail(in.guard->pos, "unknown predicate '" + in.guard->reg + "'");
      i.guarded = true;
      i.guard = s->slot;
      i.guard_neg = in.guard->negated;
    }
    for (const auto& m : in.mods) {
      if (table::is_type(m.id)) types.push_back(m.id);
      else if (table::is_space(m.id)) space_mod = m.id;
      else if (table::mod_class(m.id) == table::ModClass::Vec) vec = table::vec_count(m.id);
    }
  }

  void run();

 private:
  LowerCtx& ctx;
  const ast::Instruction& in;
  Inst i;
  std::vector<Mod> types;
  std::optional<Mod> space_mod;
  unsigned vec = 1;

  const ast::Operand& opd(size_t k) {
    if (k >= in.operands.size()) ctx.fail(in.pos, "missing operand");
    return in.operands[k];
  }
  unsigned tbits(size_t k = 0) const { return k < types.size() ? table::type_bits(types[k]) : 32; }
  bool has(Mod m) const { return in.has(m); }

  void emit() { ctx.prog.code.push_back(i); }
  void unsupported(const std::string& why) {
    Inst u;
    u.op = IrOp::Unsupported;
    u.line = i.line;
    u.col = i.col;
    u.guarded = i.guarded;
    u.guard = i.guard;
    u.guard_neg = i.guard_neg;
    u.target = static_cast<uint32_t>(ctx.prog.messages.size());
    ctx.prog.messages.push_back(why);
    ctx.prog.code.push_back(u);
  }

  Space space() const {
    if (!space_mod) return Space::Generic;
    switch (*space_mod) {
      case Mod::global: return Space::Global;
      case Mod::shared:
      case Mod::shared_cta: return Space::Shared;
      case Mod::shared_cluster: return Space::SharedCluster;
      case Mod::local: return Space::Local;
      case Mod::const_: return Space::Const;
      case Mod::param:
      case Mod::param_entry:
      case Mod::param_func: return Space::Param;
      default: return Space::Generic;
    }
  }

  Opnd reg(const ast::Reg& r, SourcePos pos, uint32_t* width = nullptr) {
    Opnd o;
    o.negate = r.negated;
    if (const LocalSym* s = ctx.find_local(r.name); s && r.sel.empty()) {
      if (s->kind == LocalSym::Reg) {
        o.kind = Opnd::Reg;
        o.slot = s->slot;
        if (width) *width = s->width;
        return o;
      }
    }
    for (const auto& sr : kSRegs) {
      if (r.name == sr.name && r.sel == sr.sel) {
        o.kind = Opnd::Special;
        o.sreg = sr.id;
        if (width) *width = 32;
        return o;
      }
    }
    // PTX ISA 10.29 %reserved_smem_offset_begin/_end/_cap/_<2>: offsets of
    // the reserved shared memory (memory.hpp kReservedSmemBegin), its size,
    // and two offsets in it (<0> at its start, <1> in its second half).
    if (r.sel.empty() && r.name.rfind("%reserved_smem_offset_", 0) == 0) {
      const std::string k = r.name.substr(22);
      o.kind = Opnd::Imm;
      if (width) *width = 32;
      if (k == "begin" || k == "0") o.imm = kReservedSmemBegin;
      else if (k == "1") o.imm = kReservedSmemBegin + kReservedSmemBytes / 2;
      else if (k == "end") o.imm = kReservedSmemBegin + kReservedSmemBytes;
      else if (k == "cap") o.imm = kReservedSmemBytes;
      else ctx.fail(pos, "unknown register '" + r.name + "'");
      return o;
    }
    if (r.name.rfind("%pm", 0) == 0) {  // performance counters (PTX ISA 10.25, 10.26): read 0
      o.kind = Opnd::Special;
      o.sreg = SReg::zero;
      return o;
    }
    ctx.fail(pos, "unknown register '" + r.name + (r.sel.empty() ? "" : "." + r.sel) + "'");
  }

  // An operand as a value of `bits` width; `is_float` converts float immediates.
  Opnd value(const ast::Operand& a, unsigned bits, bool is_float, uint32_t* width = nullptr) {
    Opnd o;
    if (auto* r = std::get_if<ast::Reg>(&a.v)) return reg(*r, a.pos, width);
    if (auto* n = std::get_if<ast::IntImm>(&a.v)) {
      o.kind = Opnd::Imm;
      o.imm = bits >= 64 ? n->value : n->value & ((1ull << bits) - 1);
      return o;
    }
    if (auto* f = std::get_if<ast::FloatImm>(&a.v)) {
      o.kind = Opnd::Imm;
      double d;
      if (f->form == ast::FloatForm::Hex32) {
        float x;
        uint32_t u = static_cast<uint32_t>(f->bits);
        std::memcpy(&x, &u, 4);
        d = x;
        if (bits == 32 || !is_float) {
          o.imm = u;
          return o;
        }
      } else {
        std::memcpy(&d, &f->bits, 8);
        if (bits == 64) {
          o.imm = f->bits;
          return o;
        }
      }
      if (bits == 32) {
        float x = static_cast<float>(d);
        uint32_t u;
        std::memcpy(&u, &x, 4);
        o.imm = u;
      } else if (bits == 16) {
        o.imm = double_to_half(d);
      } else {
        std::memcpy(&o.imm, &d, 8);
      }
      return o;
    }
    if (auto* s = std::get_if<ast::Symbol>(&a.v)) return symbol(s->name, a.pos, 0);
    if (auto* e = std::get_if<ast::Expr>(&a.v)) {
      // sym+off or a constant expression: only the forms nvcc emits.
      if (e->op == ast::ExprOp::Add && e->args.size() == 2) {
        if (auto* s = std::get_if<ast::Symbol>(&e->args[0].v))
          if (auto* n = std::get_if<ast::IntImm>(&e->args[1].v)) return symbol(s->name, a.pos, n->value);
      }
      if (e->op == ast::ExprOp::Neg && e->args.size() == 1)
        if (auto* n = std::get_if<ast::IntImm>(&e->args[0].v)) {
          o.kind = Opnd::Imm;
          o.imm = -n->value;
          if (bits < 64) o.imm &= (1ull << bits) - 1;
          return o;
        }
      if (auto k = eval_const(a)) {  // any other integer constant expression (PTX ISA 4.5.4), WARP_SZ-1
        o.kind = Opnd::Imm;
        o.imm = bits >= 64 ? k->bits : k->bits & ((1ull << bits) - 1);
        return o;
      }
    }
    if (std::holds_alternative<ast::Sink>(a.v)) return o;
    ctx.fail(a.pos, "unsupported operand form");
  }

  static uint64_t double_to_half(double d);

  // Address-of a symbol as an operand value: in its own state space.
  Opnd symbol(const std::string& name, SourcePos pos, uint64_t add) {
    Opnd o;
    o.kind = Opnd::Imm;
    if (const LocalSym* s = ctx.find_local(name)) {
      if (s->kind == LocalSym::Frame) {
        o.kind = Opnd::FrameAddr;
        o.imm = s->off + add;
        return o;
      }
      if (s->kind == LocalSym::KParam) {
        o.imm = s->off + add;
        return o;
      }
      o.kind = Opnd::Reg;
      o.slot = s->slot;
      return o;
    }
    auto it = ctx.msyms.find(name);
    if (it == ctx.msyms.end() && is_warp_sz(name)) {  // PTX ISA 4.5.1: the predefined constant
      o.imm = kWarpSz + add;
      return o;
    }
    if (it == ctx.msyms.end()) ctx.fail(pos, "unknown symbol '" + name + "'");
    switch (it->second.kind) {
      case ModSym::Global: o.imm = ctx.prog.globals[it->second.index].addr + add; break;
      case ModSym::Func: o.imm = kFuncAddrBase + 16ull * it->second.index; break;
      default: o.imm = it->second.addr + add; break;
    }
    return o;
  }

  Addr address(const ast::Operand& a) {
    auto* ad = std::get_if<ast::Address>(&a.v);
    if (!ad) ctx.fail(a.pos, "expected an address [..]");
    Addr r;
    r.space = space();
    r.off = ad->offset;
    if (ad->reg) {
      uint32_t width = 64;
      Opnd o = reg(*ad->reg, a.pos, &width);
      if (o.kind != Opnd::Reg) ctx.fail(a.pos, "address base must be a register");
      r.base = Addr::Reg;
      r.slot = o.slot;
      r.addr32 = width <= 32;
      return r;
    }
    if (ad->sym) {
      if (const LocalSym* s = ctx.find_local(*ad->sym)) {
        if (s->kind == LocalSym::Frame) {
          r.base = Addr::Frame;
          r.off += s->off;
          if (r.space == Space::Param || r.space == Space::Generic) r.space = Space::Local;
          return r;
        }
        if (s->kind == LocalSym::KParam) {
          r.off += s->off;
          r.space = Space::Param;
          return r;
        }
        r.base = Addr::Reg;  // [%r] written as a bare register name
        r.slot = s->slot;
        r.addr32 = s->width <= 32;
        return r;
      }
      auto it = ctx.msyms.find(*ad->sym);
      if (it == ctx.msyms.end()) ctx.fail(a.pos, "unknown symbol '" + *ad->sym + "'");
      const ModSym& m = it->second;
      if (m.kind == ModSym::Global) {
        r.off += static_cast<int64_t>(ctx.prog.globals[m.index].addr);
        if (r.space == Space::Generic) r.space = Space::Global;
      } else if (m.kind == ModSym::Shared) {
        r.off += static_cast<int64_t>(m.addr);
        if (r.space == Space::Generic) r.space = Space::Shared;
      } else if (m.kind == ModSym::Const) {
        r.off += static_cast<int64_t>(m.addr);
        if (r.space == Space::Generic) r.space = Space::Const;
      } else {
        ctx.fail(a.pos, "a function is not an address operand");
      }
    }
    return r;
  }

  // Destinations: a register, a vector {a, b}, or `_`.
  void dests(const ast::Operand& a, unsigned bits) {
    if (auto* v = std::get_if<ast::VectorOp>(&a.v)) {
      i.ndst = 0;
      for (const auto& e : v->elems) {
        uint32_t w = bits;
        i.dst[i.ndst++] = std::holds_alternative<ast::Sink>(e.v) ? Opnd{} : value(e, bits, false, &w);
        if (i.ndst == 4) break;
      }
      return;
    }
    uint32_t w = bits;
    i.dst[0] = std::holds_alternative<ast::Sink>(a.v) ? Opnd{} : value(a, bits, false, &w);
    i.ndst = 1;
    i.dwidth = w;
  }
  void sources(const ast::Operand& a, unsigned bits, bool f) {
    if (auto* v = std::get_if<ast::VectorOp>(&a.v)) {
      i.nsrc = 0;
      for (const auto& e : v->elems) {
        i.src[i.nsrc++] = value(e, bits, f);
        if (i.nsrc == 4) break;
      }
      return;
    }
    i.src[0] = value(a, bits, f);
    i.nsrc = 1;
  }

  // The order and scope of a memory operation (Inst::order/scope).
  void set_mm(litmus::MemClass k);
  // mbarrier and barrier.cluster operations: the order and scope they
  // spell, else `dflt` and `dscope` (their defaults, PTX ISA 9.7.13.3 barrier.cluster
  // and 9.7.13.15 mbarrier; not memory operations, so not litmus::normalise's classes).
  void sync_mm(mm::Order dflt, mm::Scope dscope) {
    litmus::MemQuals q;
    for (const auto& m : in.mods) {
      std::string_view n = table::name(m.id).substr(1);
      if (!litmus::read_order_qualifier(n, q)) litmus::read_scope_qualifier(n, q);
    }
    i.order = q.order.value_or(dflt);
    i.scope = q.scope.value_or(dscope);
  }
  bool strong() const {
    return has(Mod::relaxed) || has(Mod::acquire) || has(Mod::release) || has(Mod::volatile_) ||
           has(Mod::acq_rel) || has(Mod::sc) || has(Mod::mmio);
  }
  NumKind numkind(Mod t) const {
    switch (table::type_kind(t)) {
      case table::TypeKind::S: return NumKind::S;
      case table::TypeKind::U: return NumKind::U;
      case table::TypeKind::F: return NumKind::F;
      default: return NumKind::B;
    }
  }

  // Appends the 64-bit halves of .b128 operands (a register, a constant or
  // `_`, or a vector of them) to out[n..] (lower_insn.cpp).
  void wide_opnds(const ast::Operand& a, Opnd* out, uint8_t& n);
  void wide_mov();

  void ld_st(bool is_ld);
  void atom(bool is_red);
  void arith();
  void call();
  void mov();
  void bar();
  void warp_op();
  void async_op();
  void matrix_op();  // lower_mma.cpp
  void wgmma_op();   // lower_mma.cpp
  void tensor_op();  // lower_tensor.cpp
  void tex_op();     // lower_tex.cpp
};

}  // namespace ptxcheck::interp
