// Instruction lowering: one ast::Instruction -> one or more IR instructions.
// Arithmetic goes through arith::resolve (never duplicated here); this file
// handles data movement, memory, control flow and warp/CTA communication.
#include <cstring>

#include "semantics/interp/lower_ctx.hpp"
#include "semantics/interp/values.hpp"

namespace ptxcheck::interp {

using table::Mod;
using table::Opcode;

namespace {

struct SRegName {
  const char* name;
  const char* sel;
  SReg id;
};
// PTX ISA 7.8 chapter 10 special registers.
constexpr SRegName kSRegs[] = {
    {"%tid", "x", SReg::tid_x}, {"%tid", "y", SReg::tid_y}, {"%tid", "z", SReg::tid_z},
    {"%ntid", "x", SReg::ntid_x}, {"%ntid", "y", SReg::ntid_y}, {"%ntid", "z", SReg::ntid_z},
    {"%ctaid", "x", SReg::ctaid_x}, {"%ctaid", "y", SReg::ctaid_y}, {"%ctaid", "z", SReg::ctaid_z},
    {"%nctaid", "x", SReg::nctaid_x}, {"%nctaid", "y", SReg::nctaid_y}, {"%nctaid", "z", SReg::nctaid_z},
    {"%laneid", "", SReg::laneid}, {"%warpid", "", SReg::warpid}, {"%nwarpid", "", SReg::nwarpid},
    {"%smid", "", SReg::smid}, {"%nsmid", "", SReg::nsmid}, {"%gridid", "", SReg::gridid},
    {"%lanemask_eq", "", SReg::lanemask_eq}, {"%lanemask_le", "", SReg::lanemask_le},
    {"%lanemask_lt", "", SReg::lanemask_lt}, {"%lanemask_ge", "", SReg::lanemask_ge},
    {"%lanemask_gt", "", SReg::lanemask_gt}, {"%clock", "", SReg::clock}, {"%clock_hi", "", SReg::clock_hi},
    {"%clock64", "", SReg::clock64}, {"%globaltimer", "", SReg::globaltimer},
    {"%globaltimer_lo", "", SReg::globaltimer_lo}, {"%globaltimer_hi", "", SReg::globaltimer_hi},
    {"%clusterid", "x", SReg::clusterid_x}, {"%clusterid", "y", SReg::clusterid_y},
    {"%clusterid", "z", SReg::clusterid_z}, {"%nclusterid", "x", SReg::nclusterid_x},
    {"%nclusterid", "y", SReg::nclusterid_y}, {"%nclusterid", "z", SReg::nclusterid_z},
    {"%cluster_ctaid", "x", SReg::cluster_ctaid_x}, {"%cluster_ctaid", "y", SReg::cluster_ctaid_y},
    {"%cluster_ctaid", "z", SReg::cluster_ctaid_z}, {"%cluster_nctaid", "x", SReg::cluster_nctaid_x},
    {"%cluster_nctaid", "y", SReg::cluster_nctaid_y}, {"%cluster_nctaid", "z", SReg::cluster_nctaid_z},
    {"%cluster_ctarank", "", SReg::cluster_ctarank}, {"%cluster_nctarank", "", SReg::cluster_nctarank},
    {"%is_explicit_cluster", "", SReg::is_explicit_cluster}, {"%dynamic_smem_size", "", SReg::dynamic_smem_size},
    {"%total_smem_size", "", SReg::total_smem_size},
};

class InsnLowering {
 public:
  InsnLowering(LowerCtx& c, const ast::Instruction& in, SourcePos pos) : ctx(c), in(in) {
    i.line = pos.line;
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
    if (r.name == "%envreg" || r.name.rfind("%envreg", 0) == 0 || r.name.rfind("%pm", 0) == 0) {
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
      Opnd o = reg(*ad->reg, a.pos);
      if (o.kind != Opnd::Reg) ctx.fail(a.pos, "address base must be a register");
      r.base = Addr::Reg;
      r.slot = o.slot;
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

  void ld_st(bool is_ld);
  void atom(bool is_red);
  void arith();
  void call();
  void mov();
  void bar();
  void warp_op();
};

uint64_t InsnLowering::double_to_half(double d) { return double_to_float_bits(d, ElemType::f16); }

void InsnLowering::ld_st(bool is_ld) {
  if (types.empty()) ctx.fail(in.pos, "ld/st without a type");
  unsigned bits = tbits();
  i.op = is_ld ? IrOp::Ld : IrOp::St;
  i.size = static_cast<uint8_t>(std::max(1u, bits / 8));
  i.nk = numkind(types[0]);
  i.flags = strong() ? 1 : 0;
  if (bits > 64) return unsupported("128-bit ld/st elements are not supported");
  if (is_ld) {
    dests(opd(0), bits);
    i.addr = address(opd(1));
    for (unsigned k = 0; k < i.ndst; ++k)
      if (i.dst[k].kind == Opnd::Reg) i.dwidth = std::min<uint32_t>(64, ctx.fn->reg_width[i.dst[k].slot]);
    if (i.ndst == 1 && i.dst[0].kind == Opnd::Reg) i.dwidth = ctx.fn->reg_width[i.dst[0].slot];
  } else {
    i.addr = address(opd(0));
    sources(opd(1), bits, i.nk == NumKind::F);
  }
  if (vec > 1 && (is_ld ? i.ndst : i.nsrc) != vec) ctx.fail(in.pos, "vector width does not match the operand list");
  emit();
}

void InsnLowering::atom(bool is_red) {
  if (types.empty()) ctx.fail(in.pos, "atom/red without a type");
  Mod t = types[0];
  unsigned bits = table::type_bits(t);
  i.op = is_red ? IrOp::Red : IrOp::Atom;
  i.size = static_cast<uint8_t>(bits / 8);
  i.nk = numkind(t);
  if (vec > 1) return unsupported("vector atom/red is not supported");
  // The packed float types add lane-wise (PTX ISA 9.7.12.5).
  if (t == Mod::f16x2) i.flags = 2;
  if (t == Mod::bf16x2) i.flags = 3;
  if (t == Mod::f16) i.flags = 4;
  if (t == Mod::bf16) i.flags = 5;
  AtomOp op = AtomOp::Add;
  if (has(Mod::add)) op = AtomOp::Add;
  else if (has(Mod::inc)) op = AtomOp::Inc;
  else if (has(Mod::dec)) op = AtomOp::Dec;
  else if (has(Mod::min)) op = AtomOp::Min;
  else if (has(Mod::max)) op = AtomOp::Max;
  else if (has(Mod::and_)) op = AtomOp::And;
  else if (has(Mod::or_)) op = AtomOp::Or;
  else if (has(Mod::xor_)) op = AtomOp::Xor;
  else if (has(Mod::exch)) op = AtomOp::Exch;
  else if (has(Mod::cas)) op = AtomOp::Cas;
  else ctx.fail(in.pos, "atom/red without an operation");
  i.mode = static_cast<uint8_t>(op);
  if (op == AtomOp::Add && (i.nk == NumKind::F || i.flags >= 2)) {
    // PTX ISA 9.7.12.5: atom.add.f32 rounds to nearest even and flushes
    // subnormals; f64 and the 16-bit formats (.noftz) do not flush.
    std::string mn = t == Mod::f32 ? "add.rn.ftz.f32" : "add.rn" + std::string(table::name(t));
    auto r = arith::resolve(mn);
    if (!r) return unsupported("atom/red add: '" + mn + "': " + r.error);
    i.fn = *r.desc;
  } else if (i.nk == NumKind::F && op != AtomOp::Exch && op != AtomOp::Cas) {
    return unsupported("atom/red with a float type supports add, exch and cas only");
  }
  size_t k = 0;
  if (!is_red) dests(opd(k++), bits);
  i.addr = address(opd(k++));
  i.nsrc = 0;
  for (; k < in.operands.size(); ++k) {
    if (std::holds_alternative<ast::Symbol>(in.operands[k].v) && k + 1 == in.operands.size() && i.nsrc >= 1)
      break;  // cache-policy operand
    i.src[i.nsrc++] = value(in.operands[k], bits, i.nk == NumKind::F);
  }
  emit();
}

void InsnLowering::arith() {
  std::string mn(table::name(in.op));
  for (const auto& m : in.mods) mn += table::name(m.id);
  auto r = arith::resolve(mn);
  if (!r) return unsupported("'" + mn + "': " + r.error);
  i.op = IrOp::Arith;
  i.fn = *r.desc;
  size_t nast = in.operands.size() - 1;
  const ast::Operand& d = opd(0);
  if (auto* rp = std::get_if<ast::RegPair>(&d.v)) {
    i.dst[0] = reg(rp->first, d.pos);
    i.dst[1] = reg(rp->second, d.pos);
    i.ndst = 2;
  } else {
    i.dst[0] = std::holds_alternative<ast::Sink>(d.v) ? Opnd{} : value(d, 64, false);
    i.ndst = 1;
    if (i.fn.aux_out) {
      i.dst[1].kind = Opnd::Reg;
      i.dst[1].slot = ctx.cc_slot;
      i.ndst = 2;
    }
  }
  i.dwidth = arith::ty_bits(i.fn.dst);
  if (i.dwidth == 1) i.dwidth = 1;
  if (nast > 4) ctx.fail(in.pos, "too many operands");
  for (size_t k = 0; k < nast && k < 4; ++k) {
    arith::Ty st = k < i.fn.nsrc ? i.fn.src[k] : arith::Ty::b64;
    unsigned sb = arith::ty_bits(st);
    bool isf = arith::ty_name(st).front() == 'f' || arith::ty_name(st).front() == 'b' && arith::ty_name(st) == "bf16";
    i.src[k] = value(in.operands[k + 1], sb, isf);
  }
  i.nsrc = static_cast<uint8_t>(nast);
  if (i.fn.nsrc == nast + 1 && nast < 4) {  // carry-in of addc/subc/madc
    i.src[nast].kind = Opnd::Reg;
    i.src[nast].slot = ctx.cc_slot;
    i.nsrc = static_cast<uint8_t>(nast + 1);
  } else if (i.fn.nsrc != nast) {
    return unsupported("'" + mn + "': operand count does not match the arithmetic layer");
  }
  emit();
}

void InsnLowering::mov() {
  unsigned bits = types.empty() ? 64 : table::type_bits(types[0]);
  bool isf = !types.empty() && table::type_kind(types[0]) == table::TypeKind::F;
  const ast::Operand& d = opd(0);
  const ast::Operand& s = opd(1);
  if (auto* v = std::get_if<ast::VectorOp>(&s.v)) {
    i.op = IrOp::Pack;
    i.dst[0] = value(d, bits, false);
    i.ndst = 1;
    unsigned n = static_cast<unsigned>(v->elems.size());
    if (n < 2 || n > 4) ctx.fail(s.pos, "mov: vector of 2 or 4 elements expected");
    i.size = static_cast<uint8_t>(bits / n / 8);
    for (unsigned k = 0; k < n; ++k) i.src[k] = value(v->elems[k], bits / n, false);
    i.nsrc = static_cast<uint8_t>(n);
    i.dwidth = bits;
    return emit();
  }
  if (auto* v = std::get_if<ast::VectorOp>(&d.v)) {
    i.op = IrOp::Unpack;
    unsigned n = static_cast<unsigned>(v->elems.size());
    if (n < 2 || n > 4) ctx.fail(d.pos, "mov: vector of 2 or 4 elements expected");
    i.size = static_cast<uint8_t>(bits / n / 8);
    for (unsigned k = 0; k < n; ++k)
      i.dst[k] = std::holds_alternative<ast::Sink>(v->elems[k].v) ? Opnd{} : value(v->elems[k], bits / n, false);
    i.ndst = static_cast<uint8_t>(n);
    i.src[0] = value(s, bits, false);
    i.nsrc = 1;
    return emit();
  }
  i.op = IrOp::Mov;
  i.dst[0] = value(d, bits, false);
  i.ndst = 1;
  i.src[0] = value(s, bits, isf);
  i.nsrc = 1;
  i.dwidth = bits;
  emit();
}

void InsnLowering::call() {
  CallSite cs;
  size_t k = 0;
  const auto& ops = in.operands;
  if (k < ops.size() && std::holds_alternative<ast::ArgList>(ops[k].v)) {
    for (const auto& e : std::get<ast::ArgList>(ops[k].v).elems) {
      CallArg a;
      if (auto* s = std::get_if<ast::Symbol>(&e.v)) {
        const LocalSym* ls = ctx.find_local(s->name);
        if (ls && ls->kind == LocalSym::Frame) {
          a.in_frame = true;
          a.frame_off = ls->off;
        } else {
          a.value = value(e, 64, false);
        }
      } else {
        a.value = value(e, 64, false);
      }
      cs.rets.push_back(a);
    }
    ++k;
  }
  if (k >= ops.size()) ctx.fail(in.pos, "call without a callee");
  const ast::Operand& callee = ops[k++];
  if (auto* s = std::get_if<ast::Symbol>(&callee.v)) {
    auto it = ctx.msyms.find(s->name);
    if (it == ctx.msyms.end() || it->second.kind != ModSym::Func) ctx.fail(callee.pos, "unknown function '" + s->name + "'");
    cs.callee = it->second.index;
    if (s->name == "vprintf") cs.builtin_vprintf = true;
  } else if (auto* r = std::get_if<ast::Reg>(&callee.v)) {
    cs.callee = ~0u;
    cs.fnptr = reg(*r, callee.pos);
  } else {
    ctx.fail(callee.pos, "call: expected a function name or register");
  }
  if (k < ops.size() && std::holds_alternative<ast::ArgList>(ops[k].v)) {
    for (const auto& e : std::get<ast::ArgList>(ops[k].v).elems) {
      CallArg a;
      const LocalSym* ls = nullptr;
      if (auto* s = std::get_if<ast::Symbol>(&e.v)) ls = ctx.find_local(s->name);
      if (ls && ls->kind == LocalSym::Frame) {
        a.in_frame = true;
        a.frame_off = ls->off;
      } else {
        a.value = value(e, 64, false);
      }
      cs.args.push_back(a);
    }
  }
  i.op = IrOp::Call;
  i.target = static_cast<uint32_t>(ctx.prog.calls.size());
  ctx.prog.calls.push_back(std::move(cs));
  emit();
}

void InsnLowering::bar() {
  // bar{.cta}.sync / barrier{.cta}.sync{.aligned} a{, b}; bar.arrive a, b;
  // bar.red.op.type d, a{, b}, {!}c   (PTX ISA 9.7.12.1)
  size_t k = 0;
  if (has(Mod::red)) {
    i.op = IrOp::BarRed;
    i.mode = has(Mod::popc) ? 0 : has(Mod::and_) ? 1 : 2;
    dests(opd(k++), 32);
  } else {
    i.op = has(Mod::arrive) ? IrOp::BarArrive : IrOp::BarSync;
  }
  i.src[0] = value(opd(k++), 32, false);
  size_t remaining = in.operands.size() - k;
  if (i.op == IrOp::BarRed) {
    if (remaining == 2) i.src[1] = value(opd(k++), 32, false);
    i.src[2] = value(opd(k++), 1, false);
  } else if (remaining >= 1) {
    i.src[1] = value(opd(k++), 32, false);
  }
  i.flags = in.op == Opcode::barrier && !has(Mod::aligned) ? 0 : 1;  // .aligned
  emit();
}

void InsnLowering::warp_op() {
  switch (in.op) {
    case Opcode::shfl: {
      if (!has(Mod::sync)) return unsupported("shfl without .sync is not supported (sm_70+)");
      i.op = IrOp::Shfl;
      i.mode = has(Mod::up) ? 0 : has(Mod::down) ? 1 : has(Mod::bfly) ? 2 : 3;
      const ast::Operand& d = opd(0);
      if (auto* rp = std::get_if<ast::RegPair>(&d.v)) {
        i.dst[0] = reg(rp->first, d.pos);
        i.dst[1] = reg(rp->second, d.pos);
        i.ndst = 2;
      } else {
        i.dst[0] = value(d, 32, false);
        i.ndst = 1;
      }
      for (int s = 0; s < 4; ++s) i.src[s] = value(opd(1 + s), 32, false);
      i.nsrc = 4;
      break;
    }
    case Opcode::vote: {
      i.op = IrOp::Vote;
      i.mode = has(Mod::all) ? 0 : has(Mod::any) ? 1 : has(Mod::uni) ? 2 : 3;
      i.dst[0] = value(opd(0), 32, false);
      i.ndst = 1;
      i.src[0] = value(opd(1), 1, false);
      if (in.operands.size() > 2) i.src[1] = value(opd(2), 32, false);
      else i.src[1] = Opnd{Opnd::Imm, SReg::zero, false, 0, 0xffffffffu};
      i.flags = has(Mod::sync) ? 1 : 0;
      break;
    }
    case Opcode::match: {
      i.op = IrOp::Match;
      i.mode = has(Mod::all) ? 1 : 0;
      i.size = static_cast<uint8_t>(tbits() / 8);
      const ast::Operand& d = opd(0);
      if (auto* rp = std::get_if<ast::RegPair>(&d.v)) {
        i.dst[0] = reg(rp->first, d.pos);
        i.dst[1] = reg(rp->second, d.pos);
        i.ndst = 2;
      } else {
        i.dst[0] = value(d, 32, false);
        i.ndst = 1;
      }
      i.src[0] = value(opd(1), tbits(), false);
      i.src[1] = value(opd(2), 32, false);
      break;
    }
    case Opcode::redux: {
      i.op = IrOp::Redux;
      Mod t = types.empty() ? Mod::u32 : types[0];
      i.nk = numkind(t);
      i.mode = static_cast<uint8_t>(has(Mod::add) ? AtomOp::Add : has(Mod::min) ? AtomOp::Min
                                    : has(Mod::max) ? AtomOp::Max : has(Mod::and_) ? AtomOp::And
                                    : has(Mod::or_) ? AtomOp::Or : AtomOp::Xor);
      if (i.nk == NumKind::F) return unsupported("redux.sync on floats is not supported");
      i.dst[0] = value(opd(0), 32, false);
      i.ndst = 1;
      i.src[0] = value(opd(1), 32, false);
      i.src[1] = value(opd(2), 32, false);
      break;
    }
    case Opcode::activemask:
      i.op = IrOp::Activemask;
      i.dst[0] = value(opd(0), 32, false);
      i.ndst = 1;
      break;
    case Opcode::elect: {
      i.op = IrOp::Elect;
      const ast::Operand& d = opd(0);
      if (auto* rp = std::get_if<ast::RegPair>(&d.v)) {
        if (rp->first.name != "_") i.dst[0] = reg(rp->first, d.pos);
        i.dst[1] = reg(rp->second, d.pos);
      } else {
        i.dst[1] = value(d, 1, false);
      }
      i.src[0] = value(opd(in.operands.size() - 1), 32, false);
      break;
    }
    case Opcode::bar_warp_sync:
      i.op = IrOp::WarpSync;
      i.src[0] = value(opd(0), 32, false);
      break;
    default: return unsupported("unexpected warp operation");
  }
  emit();
}

void InsnLowering::run() {
  switch (in.op) {
    case Opcode::ld:
    case Opcode::ldu: return ld_st(true);
    case Opcode::st: return ld_st(false);
    case Opcode::atom: return atom(false);
    case Opcode::red: return atom(true);
    case Opcode::mov: return mov();
    case Opcode::call: return call();
    case Opcode::bar:
    case Opcode::barrier: return bar();
    case Opcode::shfl:
    case Opcode::vote:
    case Opcode::match:
    case Opcode::redux:
    case Opcode::activemask:
    case Opcode::elect:
    case Opcode::bar_warp_sync: return warp_op();
    case Opcode::bra: {
      i.op = IrOp::Bra;
      i.flags = has(Mod::uni) ? 1 : 0;
      const ast::Operand& t = opd(0);
      std::string name;
      if (auto* l = std::get_if<ast::LabelRef>(&t.v)) name = l->name;
      else if (auto* s = std::get_if<ast::Symbol>(&t.v)) name = s->name;
      else return unsupported("indirect branch (brx.idx) is not supported");
      ctx.fixups.push_back({static_cast<uint32_t>(ctx.prog.code.size()), {name, t.pos}});
      return emit();
    }
    case Opcode::ret: i.op = IrOp::Ret; return emit();
    case Opcode::exit: i.op = IrOp::Exit; return emit();
    case Opcode::trap: i.op = IrOp::Trap; return emit();
    case Opcode::barrier_cluster:
      if (!has(Mod::wait)) {
        i.op = IrOp::ClusterArrive;
        emit();
      }
      if (!has(Mod::arrive)) {
        i.op = IrOp::ClusterWait;
        emit();
      }
      return;
    case Opcode::membar:
    case Opcode::fence:
      i.op = IrOp::Fence;
      // mode: 0 cta, 1 cluster, 2 gpu, 3 sys (membar.gl = gpu)  PTX ISA 9.7.12.4
      i.mode = has(Mod::cta) ? 0 : has(Mod::cluster) ? 1 : has(Mod::sys) ? 3 : 2;
      i.flags = has(Mod::proxy) ? 2 : (has(Mod::acquire) || has(Mod::release)) ? 0 : 1;
      return emit();
    case Opcode::cvta:
    case Opcode::isspacep:
    case Opcode::mapa:
    case Opcode::getctarank: {
      i.op = in.op == Opcode::cvta ? IrOp::Cvta : in.op == Opcode::isspacep ? IrOp::Isspacep
           : in.op == Opcode::mapa ? IrOp::Mapa : IrOp::Getctarank;
      i.addr.space = space();
      if (in.op == Opcode::isspacep && has(Mod::param)) i.addr.space = Space::Param;
      i.flags = has(Mod::to) ? 1 : 0;
      unsigned bits = types.empty() ? 64 : tbits();
      i.dst[0] = value(opd(0), bits, false);
      i.ndst = 1;
      i.dwidth = in.op == Opcode::isspacep ? 1 : bits;
      i.src[0] = value(opd(1), 64, false);
      if (in.op == Opcode::mapa) i.src[1] = value(opd(2), 32, false);
      return emit();
    }
    case Opcode::alloca:
      i.op = IrOp::Alloca;
      i.dst[0] = value(opd(0), tbits(), false);
      i.src[0] = value(opd(1), tbits(), false);
      i.src[1] = in.operands.size() > 2 ? value(opd(2), 32, false) : Opnd{Opnd::Imm, SReg::zero, false, 0, 8};
      i.dwidth = tbits();
      return emit();
    case Opcode::stacksave:
      i.op = IrOp::StackSave;
      i.dst[0] = value(opd(0), tbits(), false);
      i.dwidth = tbits();
      return emit();
    case Opcode::stackrestore:
      i.op = IrOp::StackRestore;
      i.src[0] = value(opd(0), tbits(), false);
      return emit();
    case Opcode::cp_async: {
      // cp.async.{ca,cg}.shared{::cta}.global [dst], [src], cp-size{, src-size}
      if (has(Mod::ignore_src)) return unsupported("cp.async with .ignore_src is not supported");
      i.op = IrOp::CpAsync;
      i.addr = address(opd(0));
      // Two space qualifiers (.shared.global): destination, then source.
      i.addr.space = Space::Shared;
      Addr src = address(opd(1));
      src.space = Space::Global;
      i.addr2 = src;
      i.src[0] = value(opd(2), 32, false);
      if (in.operands.size() > 3 && !std::holds_alternative<ast::Symbol>(in.operands[3].v))
        i.src[1] = value(opd(3), 32, false);
      return emit();
    }
    case Opcode::cp_async_bulk: {
      // cp.async.bulk.dst.src{.completion} [dst], [src], size{, [mbar]}
      if (has(Mod::multicast_cluster)) return unsupported("cp.async.bulk .multicast::cluster is not supported");
      i.op = IrOp::BulkCopy;
      std::vector<Space> sp;
      for (const auto& m : in.mods) {
        if (m.id == Mod::global) sp.push_back(Space::Global);
        if (m.id == Mod::shared_cluster) sp.push_back(Space::SharedCluster);
        if (m.id == Mod::shared_cta || m.id == Mod::shared) sp.push_back(Space::Shared);
      }
      if (sp.size() != 2) return unsupported("cp.async.bulk: expected a destination and a source space");
      i.addr = address(opd(0));
      i.addr.space = sp[0];
      i.addr2 = address(opd(1));
      i.addr2.space = sp[1];
      i.src[0] = value(opd(2), 32, false);
      if (in.operands.size() > 3 && std::holds_alternative<ast::Address>(in.operands[3].v)) {
        Addr mb = address(opd(3));
        if (mb.base == Addr::Reg) {
          i.src[1].kind = Opnd::Reg;
          i.src[1].slot = mb.slot;
        } else {
          i.src[1].kind = Opnd::Imm;
        }
        i.src[2].kind = Opnd::Imm;
        i.src[2].imm = static_cast<uint64_t>(mb.off);
      }
      return emit();
    }
    case Opcode::cp_async_bulk_commit_group:
    case Opcode::cp_async_bulk_wait_group:
    case Opcode::cp_async_commit_group:
    case Opcode::cp_async_wait_group:
    case Opcode::cp_async_wait_all:
      i.op = IrOp::Nop;  // every cp.async has completed already
      return emit();
    case Opcode::cp_async_mbarrier_arrive:
      if (!has(Mod::noinc)) {
        i.op = IrOp::Nop;  // +1 pending then an arrive: no net change
        return emit();
      }
      i.op = IrOp::Mbarrier;
      i.mode = 1;
      i.addr = address(opd(0));
      i.src[0] = Opnd{Opnd::Imm, SReg::zero, false, 0, 1};
      return emit();
    case Opcode::mbarrier_init:
    case Opcode::mbarrier_inval:
    case Opcode::mbarrier_arrive:
    case Opcode::mbarrier_arrive_drop:
    case Opcode::mbarrier_test_wait:
    case Opcode::mbarrier_try_wait:
    case Opcode::mbarrier_pending_count:
    case Opcode::mbarrier_expect_tx:
    case Opcode::mbarrier_complete_tx: {
      // Object layout (8 bytes): bits 0-30 pending arrivals, 32-62 expected
      // arrivals, 63 phase parity. PTX ISA 9.7.12.13.
      i.op = IrOp::Mbarrier;
      i.flags = has(Mod::expect_tx) ? 4 : 0;  // arrive.expect_tx: add to tx-count first
      switch (in.op) {
        case Opcode::mbarrier_expect_tx:
        case Opcode::mbarrier_complete_tx:
          i.mode = in.op == Opcode::mbarrier_expect_tx ? 7 : 8;
          i.addr = address(opd(0));
          i.src[0] = value(opd(1), 32, false);
          break;
        case Opcode::mbarrier_init:
          i.mode = 0;
          i.addr = address(opd(0));
          i.src[0] = value(opd(1), 32, false);
          break;
        case Opcode::mbarrier_inval:
          i.mode = 5;
          i.addr = address(opd(0));
          break;
        case Opcode::mbarrier_arrive:
        case Opcode::mbarrier_arrive_drop:
          i.mode = in.op == Opcode::mbarrier_arrive ? 1 : 2;
          dests(opd(0), 64);
          i.addr = address(opd(1));
          i.src[0] = in.operands.size() > 2 ? value(opd(2), 32, false) : Opnd{Opnd::Imm, SReg::zero, false, 0, 1};
          break;
        case Opcode::mbarrier_pending_count:
          i.mode = 6;
          dests(opd(0), 32);
          i.src[0] = value(opd(1), 64, false);
          break;
        default:
          i.mode = has(Mod::parity) ? 4 : 3;
          dests(opd(0), 1);
          i.addr = address(opd(1));
          i.src[0] = value(opd(2), 64, false);
          break;
      }
      if (i.addr.space == Space::Generic && in.op != Opcode::mbarrier_pending_count) {
        // generic addressing of an mbarrier object is allowed; keep it generic
      }
      return emit();
    }
    case Opcode::prefetch:
    case Opcode::nanosleep:
    case Opcode::pmevent:
    case Opcode::brkpt:
    case Opcode::griddepcontrol:
      i.op = IrOp::Nop;
      return emit();
    default: return arith();
  }
}

}  // namespace

void lower_instruction(LowerCtx& ctx, const ast::Instruction& in, SourcePos stmt_pos) {
  InsnLowering l(ctx, in, in.pos.line ? SourcePos(in.pos) : stmt_pos);
  l.run();
}

}  // namespace ptxcheck::interp
