// Instruction lowering: one ast::Instruction -> one or more IR instructions.
// Arithmetic goes through arith::resolve (never duplicated here); this file
// handles data movement, memory, arithmetic and calls; lower_sync.cpp the
// synchronising and asynchronous instructions.
#include "semantics/interp/lower_insn.hpp"

#include "semantics/interp/ir_flags.hpp"

namespace ptxcheck::interp {

uint64_t InsnLowering::double_to_half(double d) { return double_to_float_bits(d, ElemType::f16); }

// .b128 operands (PTX ISA 9.2 5.2.2, sm_90): a .b128 register is two 64-bit
// slots, low half first (lower.cpp declare_local). An integer constant is a
// 64-bit value (PTX ISA 4.5.1: "converted to the appropriate size based on
// the data or instruction type at its use"; how a 64-bit constant widens to
// the bit-size type .b128 is not stated). ptxcheck zero-extends it, as the
// program ptxas 13.0 builds does on an H200 (`mov.b128 %q, -1` gives low
// half all ones, high half 0; corpus/hw/README.md).
void InsnLowering::wide_opnds(const ast::Operand& a, Opnd* out, uint8_t& n) {
  auto one = [&](const ast::Operand& e) {
    if (n + 2 > 4) ctx.fail(e.pos, "too many .b128 operands");
    if (std::holds_alternative<ast::Sink>(e.v)) {
      out[n++] = Opnd{};
      out[n++] = Opnd{};
      return;
    }
    if (auto* k = std::get_if<ast::IntImm>(&e.v)) {
      out[n++] = Opnd{Opnd::Imm, SReg::zero, false, 0, k->value};
      out[n++] = Opnd{Opnd::Imm, SReg::zero, false, 0, 0};
      return;
    }
    uint32_t w = 64;
    Opnd o = value(e, 64, false, &w);
    if (o.kind != Opnd::Reg || w != 128) ctx.fail(e.pos, "a .b128 operand must be a .b128 register or an integer constant");
    Opnd hi = o;
    hi.slot = o.slot + 1;
    out[n++] = o;
    out[n++] = hi;
  };
  if (auto* v = std::get_if<ast::VectorOp>(&a.v)) {
    for (const auto& e : v->elems) one(e);
  } else {
    one(a);
  }
}

void InsnLowering::set_mm(litmus::MemClass k) {
  litmus::MemQuals q;
  for (const auto& m : in.mods) {
    std::string_view n = table::name(m.id).substr(1);
    if (!litmus::read_order_qualifier(n, q)) litmus::read_scope_qualifier(n, q);
  }
  litmus::MemSem s = litmus::normalise(k, q);
  i.order = s.order;
  i.scope = s.scope;
}

void InsnLowering::ld_st(bool is_ld) {
  if (types.empty()) ctx.fail(in.pos, "ld/st without a type");
  unsigned bits = tbits();
  i.op = is_ld ? IrOp::Ld : IrOp::St;
  i.size = static_cast<uint8_t>(std::max(1u, bits / 8));
  i.nk = numkind(types[0]);
  i.flags = strong() ? 1 : 0;
  set_mm(litmus::MemClass::Access);
  if (bits == 128) {
    // ld/st .b128 (sm_90): one 16-byte access, aligned to 16, as two 8-byte
    // elements into the register's two slots. ptxas rejects vectors of
    // .b128 ("exceeds 128 bit limit").
    if (vec > 1) ctx.fail(in.pos, "a vector of .b128 elements exceeds 128 bits");
    i.size = 8;
    i.nk = NumKind::B;
    i.ndst = i.nsrc = 0;
    if (is_ld) {
      wide_opnds(opd(0), i.dst, i.ndst);
      i.addr = address(opd(1));
    } else {
      i.addr = address(opd(0));
      wide_opnds(opd(1), i.src, i.nsrc);
    }
    if ((is_ld ? i.ndst : i.nsrc) != 2) ctx.fail(in.pos, "ld/st .b128 takes one 128-bit operand");
    return emit();
  }
  if (bits > 64) return unsupported("ld/st elements wider than 128 bits are not supported");
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
  // A narrower load into a .b128 register (ptxas accepts `ld.u32 %q, [a]`)
  // extends it to the register width (PTX ISA 9.x 9.4.1 "the destination
  // data is zero- or sign-extended to the size of the destination
  // register"): the high slot is the sign of the low one for signed types,
  // zero otherwise. An H200 (ptxas 13.0) sign-extends `ld.s32` only to 64
  // bits and leaves the high half 0: a divergence from the ISA, which
  // ptxcheck keeps (corpus/hw/README.md).
  if (is_ld && i.ndst == 1 && i.dst[0].kind == Opnd::Reg && ctx.fn->reg_width[i.dst[0].slot] == 128) {
    Inst h = i;
    h.addr = Addr{};
    h.dst[0].slot = i.dst[0].slot + 1;
    h.dwidth = 64;
    h.nsrc = 1;
    h.src[0] = Opnd{Opnd::Imm, SReg::zero, false, 0, 0};
    h.op = IrOp::Mov;
    if (i.nk == NumKind::S) {
      auto r = arith::resolve("shr.s64");
      if (!r) ctx.fail(in.pos, "shr.s64: " + r.error);
      h.op = IrOp::Arith;
      h.fn = *r.desc;
      h.nsrc = 2;
      h.src[0] = i.dst[0];
      h.src[1] = Opnd{Opnd::Imm, SReg::zero, false, 0, 63};
    }
    ctx.prog.code.push_back(h);
  }
}

void InsnLowering::atom(bool is_red) {
  if (types.empty()) ctx.fail(in.pos, "atom/red without a type");
  Mod t = types[0];
  unsigned bits = table::type_bits(t);
  i.op = is_red ? IrOp::Red : IrOp::Atom;
  set_mm(litmus::MemClass::Atomic);
  i.size = static_cast<uint8_t>(bits / 8);
  i.nk = numkind(t);
  // Vector atom/red (sm_90): "atom with vector type may be used only with
  // .global space and with generic addressing where the address points to
  // .global space"; the forms are .add.v2/.v4 of .f32 and .{add,min,max}
  // .noftz of .v2/.v4/.v8 .f16/.bf16 and .v2/.v4 .f16x2/.bf16x2 (PTX ISA
  // 9.7.13.5 atom, 9.7.13.6 red, the table of vector qualifiers and types;
  // ptxas 13 rejects every other combination). Each element is its own
  // atomic operation: "the atomicity is guaranteed separately for each of
  // the individual scalar elements; the entire atom is not guaranteed to be
  // atomic as a single access" (9.7.13.5). The executor checks the whole
  // vector as one access for bounds and alignment (to the vector's size),
  // and applies and race-checks the elements one by one (exec_async.cpp).
  if (vec > 1) {
    const std::string_view tn = table::name(t);
    const bool half = tn == ".f16" || tn == ".bf16", packed = tn == ".f16x2" || tn == ".bf16x2", f32 = tn == ".f32";
    const bool op_ok = f32 ? has(Mod::add) : (has(Mod::add) || has(Mod::min) || has(Mod::max)) && has(Mod::noftz);
    if (!(half || packed || f32) || !op_ok || (vec == 8 && !half))
      ctx.fail(in.pos, "atom/red " + std::string(vec == 2 ? ".v2" : vec == 4 ? ".v4" : ".v8") + " is not defined on " +
                           std::string(tn) + " with this operation (PTX ISA 9.7.13.5, the vector forms' table)");
    if (space() != Space::Global && space() != Space::Generic)
      ctx.fail(in.pos, "atom/red with a vector type needs .global or generic addressing (PTX ISA 9.7.13.5)");
  }
  if (bits == 128) {
    // atom.exch/.cas.b128 (sm_90, PTX ISA 9.7.13.5 atom): one 16-byte atomic
    // operation; dst, b and c are .b128 registers (two slots each).
    if (is_red || !(has(Mod::exch) || has(Mod::cas)) || vec > 1)
      return unsupported("atom/red on .b128 is a PTX form only as atom.exch/atom.cas");
    i.size = 16;
    i.nk = NumKind::B;
    i.atom = has(Mod::cas) ? AtomOp::Cas : AtomOp::Exch;
    i.ndst = i.nsrc = 0;
    wide_opnds(opd(0), i.dst, i.ndst);
    i.addr = address(opd(1));
    wide_opnds(opd(2), i.src, i.nsrc);
    if (has(Mod::cas)) wide_opnds(opd(3), i.src, i.nsrc);
    if (i.ndst != 2 || i.nsrc != (has(Mod::cas) ? 4 : 2)) ctx.fail(in.pos, "atom .b128: wrong operand count");
    return emit();
  }
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
  i.atom = op;
  auto ty = arith::ty_from_name(table::name(t).substr(1));
  if (!ty) return unsupported("atom/red on " + std::string(table::name(t)) + " is not supported");
  i.ety = *ty;
  if (std::string err = arith::atom_form_error(op, *ty); !err.empty()) return unsupported(err);
  size_t k = 0;
  if (!is_red) dests(opd(k++), bits);
  i.addr = address(opd(k++));
  i.nsrc = 0;
  if (vec > 4) {
    // .v8: Inst holds 4 operands per side. The atom/red carries elements
    // 0-3 and kAtomV8; an operand continuation right after it (an IrOp::Nop
    // that the executor steps over, exec.cpp) carries elements 4-7.
    const auto* bv = std::get_if<ast::VectorOp>(&opd(k).v);
    const auto* dv = is_red ? nullptr : std::get_if<ast::VectorOp>(&opd(0).v);
    if (!bv || bv->elems.size() != vec || (!is_red && (!dv || dv->elems.size() != vec)))
      ctx.fail(in.pos, "vector width does not match the operand list");
    Inst cont{};
    cont.op = IrOp::Nop;
    cont.line = i.line;
    cont.col = i.col;
    for (unsigned e = 0; e < vec; ++e) {
      Opnd s = value(bv->elems[e], bits, i.nk == NumKind::F);
      Opnd d;
      if (dv && !std::holds_alternative<ast::Sink>(dv->elems[e].v)) {
        uint32_t w = bits;
        d = value(dv->elems[e], bits, false, &w);
      }
      (e < 4 ? i.src[e] : cont.src[e - 4]) = s;
      (e < 4 ? i.dst[e] : cont.dst[e - 4]) = d;
    }
    i.nsrc = cont.nsrc = 4;
    i.ndst = cont.ndst = is_red ? 0 : 4;
    i.flags |= kAtomV8;
    emit();
    ctx.prog.code.push_back(cont);
    return;
  }
  if (vec > 1) {
    sources(opd(k), bits, i.nk == NumKind::F);
    if (i.nsrc != vec || (!is_red && i.ndst != vec)) ctx.fail(in.pos, "vector width does not match the operand list");
    return emit();
  }
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
    // Float immediates convert to f16/f32/f64 sources; other types take bits.
    std::string_view tn = arith::ty_name(st);
    bool isf = tn == "f16" || tn == "f32" || tn == "f64";
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

// mov.b128 (sm_90): between a .b128 register and another, a constant, or
// a vector of two .b64 or four .b32 registers (all accepted by ptxas 13),
// as moves of the two 64-bit halves.
void InsnLowering::wide_mov() {
  const ast::Operand& d = opd(0);
  const ast::Operand& s = opd(1);
  auto* dv = std::get_if<ast::VectorOp>(&d.v);
  auto* sv = std::get_if<ast::VectorOp>(&s.v);
  if (dv && sv) ctx.fail(in.pos, "mov.b128: one side must be a .b128 register");
  const std::vector<ast::Operand>* elems = dv ? &dv->elems : sv ? &sv->elems : nullptr;
  size_t n = elems ? elems->size() : 1;
  if (elems && n != 2 && n != 4) ctx.fail((dv ? d : s).pos, "mov.b128: a vector of two .b64 or four .b32 elements expected");
  Opnd half[4];
  uint8_t nh = 0;
  wide_opnds(dv ? s : d, half, nh);
  if (nh != 2) ctx.fail(in.pos, "mov.b128 takes one 128-bit operand");
  Inst base = i;
  for (unsigned h = 0; h < 2; ++h) {
    i = base;
    if (!elems) {  // register or constant to register
      uint8_t ns = 0;
      Opnd sh[4];
      wide_opnds(s, sh, ns);
      i.op = IrOp::Mov;
      i.dst[0] = half[h];
      i.src[0] = sh[h];
      i.ndst = i.nsrc = 1;
      i.dwidth = 64;
    } else if (n == 2) {  // {a, b}: a the low half
      const ast::Operand& e = (*elems)[h];
      i.op = IrOp::Mov;
      i.ndst = i.nsrc = 1;
      i.dwidth = 64;
      if (dv) {
        i.src[0] = half[h];
        i.dst[0] = std::holds_alternative<ast::Sink>(e.v) ? Opnd{} : value(e, 64, false);
      } else {
        i.dst[0] = half[h];
        i.src[0] = value(e, 64, false);
      }
    } else {  // {a, b, c, d} of .b32: a, b the low half
      i.size = 4;
      i.dwidth = 64;
      if (dv) {
        i.op = IrOp::Unpack;
        i.src[0] = half[h];
        i.nsrc = 1;
        for (unsigned k = 0; k < 2; ++k) {
          const ast::Operand& e = (*elems)[2 * h + k];
          i.dst[k] = std::holds_alternative<ast::Sink>(e.v) ? Opnd{} : value(e, 32, false);
        }
        i.ndst = 2;
      } else {
        i.op = IrOp::Pack;
        i.dst[0] = half[h];
        i.ndst = 1;
        for (unsigned k = 0; k < 2; ++k) i.src[k] = value((*elems)[2 * h + k], 32, false);
        i.nsrc = 2;
      }
    }
    emit();
  }
}

void InsnLowering::mov() {
  unsigned bits = types.empty() ? 64 : table::type_bits(types[0]);
  if (bits == 128) return wide_mov();
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
          a.size = ls->size;
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
        a.size = ls->size;
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
    case Opcode::wmma_load_a:
    case Opcode::wmma_load_b:
    case Opcode::wmma_load_c:
    case Opcode::wmma_store_d:
    case Opcode::wmma_mma:
    case Opcode::mma:
    case Opcode::ldmatrix:
    case Opcode::stmatrix:
    case Opcode::movmatrix: return matrix_op();
    case Opcode::wgmma_fence:
    case Opcode::wgmma_commit_group:
    case Opcode::wgmma_wait_group:
    case Opcode::wgmma_mma_async: return wgmma_op();
    case Opcode::cp_async_bulk_tensor:
    case Opcode::cp_reduce_async_bulk_tensor:
    case Opcode::tensormap_replace: return tensor_op();
    case Opcode::tex:
    case Opcode::tld4:
    case Opcode::txq:
    case Opcode::suld:
    case Opcode::sust:
    case Opcode::suq:
    case Opcode::istypep:
    case Opcode::sured: return tex_op();
    case Opcode::tensormap_cp_fenceproxy: {
      // tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [dst], [src], 128
      // (PTX ISA 9.7.9.28): a 128-byte copy, then a proxy fence (no effect here).
      i.op = IrOp::BulkCopy;
      i.mode = 1;  // not an async-proxy copy: it is the tensormap proxy's fenced copy
      i.addr = address(opd(0));
      i.addr.space = Space::Global;
      i.addr2 = address(opd(1));
      i.addr2.space = Space::Shared;
      i.src[0] = value(opd(2), 32, false);
      return emit();
    }
    case Opcode::bra: {
      i.op = IrOp::Bra;
      i.flags = has(Mod::uni) ? 1 : 0;
      const ast::Operand& t = opd(0);
      std::string name;
      if (auto* l = std::get_if<ast::LabelRef>(&t.v)) name = l->name;
      else if (auto* s = std::get_if<ast::Symbol>(&t.v)) name = s->name;
      else return unsupported("bra to a non-label operand");
      uint32_t id = ctx.find_label(name);
      if (id == LowerCtx::kNoLabel) ctx.fail(t.pos, "unknown label '" + name + "'");
      ctx.fixups.push_back({static_cast<uint32_t>(ctx.prog.code.size()), id});
      return emit();
    }
    case Opcode::brx_idx: {  // brx.idx{.uni} index, tlist   PTX ISA 9.7.12.4 brx.idx
      i.op = IrOp::BrxIdx;
      i.flags = has(Mod::uni) ? 1 : 0;
      i.src[0] = value(opd(0), 32, false);
      i.nsrc = 1;
      const ast::Operand& t = opd(1);
      std::string name;
      if (auto* l = std::get_if<ast::LabelRef>(&t.v)) name = l->name;
      else if (auto* s = std::get_if<ast::Symbol>(&t.v)) name = s->name;
      else ctx.fail(t.pos, "brx.idx: expected the label of a .branchtargets list");
      ctx.table_fixups.push_back({static_cast<uint32_t>(ctx.prog.code.size()), {name, t.pos}});
      return emit();
    }
    case Opcode::ret: i.op = IrOp::Ret; return emit();
    case Opcode::exit: i.op = IrOp::Exit; return emit();
    case Opcode::trap: i.op = IrOp::Trap; return emit();
    case Opcode::barrier_cluster:
      if (!has(Mod::wait)) {
        i.op = IrOp::ClusterArrive;
        sync_mm(mm::Order::Release, mm::Scope::Cluster);  // PTX ISA 9.7.13.3 barrier.cluster: arrive is .release by default
        emit();
      }
      if (!has(Mod::arrive)) {
        i.op = IrOp::ClusterWait;
        sync_mm(mm::Order::Acquire, mm::Scope::Cluster);  // wait is .acquire
        emit();
      }
      return;
    case Opcode::membar:
    case Opcode::fence:
      i.op = IrOp::Fence;
      // PTX ISA 9.7.13.4 membar/fence; the scope (membar.gl = gpu) is in
      // i.scope (set_mm).
      i.fence = has(Mod::proxy)                           ? FenceKind::Proxy
                : has(Mod::acquire) || has(Mod::release) ? FenceKind::Directional
                                                          : FenceKind::Full;
      // A proxy fence of the async proxy: its state space in addr.space
      // (Generic = all), for fence_async_shared and the memory model's
      // symbolic threads (trace_exec.cpp).
      if (has(Mod::proxy) && (has(Mod::async) || has(Mod::async_shared_cta) || has(Mod::async_shared_cluster))) {
        i.fence = FenceKind::ProxyAsync;
        i.addr.space = has(Mod::async_shared_cta) || has(Mod::async_shared_cluster) ? Space::Shared : space();
      }
      set_mm(litmus::MemClass::Fence);
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
    case Opcode::st_async:
    case Opcode::red_async:
    case Opcode::cp_async:
    case Opcode::cp_async_bulk:
    case Opcode::cp_reduce_async_bulk:
    case Opcode::cp_async_bulk_commit_group:
    case Opcode::cp_async_bulk_wait_group:
    case Opcode::cp_async_commit_group:
    case Opcode::cp_async_wait_group:
    case Opcode::cp_async_wait_all:
    case Opcode::cp_async_mbarrier_arrive:
    case Opcode::mbarrier_init:
    case Opcode::mbarrier_inval:
    case Opcode::mbarrier_arrive:
    case Opcode::mbarrier_arrive_drop:
    case Opcode::mbarrier_test_wait:
    case Opcode::mbarrier_try_wait:
    case Opcode::mbarrier_pending_count:
    case Opcode::mbarrier_expect_tx:
    case Opcode::mbarrier_complete_tx: return async_op();
    case Opcode::st_bulk: {
      // st.bulk{.weak}{.shared::cta} [a], size, initval (sm_100, PTX ISA
      // 9.7.9.13 st.bulk): size bytes from a, a multiple of 8, set to initval, which
      // must be 0.
      i.op = IrOp::StBulk;
      i.addr = address(opd(0));
      i.src[0] = value(opd(1), 64, false);
      const Opnd iv = value(opd(2), 64, false);
      if (iv.kind != Opnd::Imm || iv.imm != 0) ctx.fail(opd(2).pos, "st.bulk: initval must be the constant 0");
      i.nsrc = 1;
      return emit();
    }
    case Opcode::createpolicy:
      // An opaque cache-eviction policy (PTX ISA 9.7.9.18 createpolicy) that only other
      // instructions' cache-policy operands consume, and they ignore it here.
      i.op = IrOp::Mov;
      i.dst[0] = value(opd(0), 64, false);
      i.ndst = 1;
      i.src[0] = Opnd{Opnd::Imm, SReg::zero, false, 0, 0};
      i.nsrc = 1;
      i.dwidth = 64;
      return emit();
    // Cache and scheduling hints without an effect on values: prefetches,
    // eviction priorities (PTX ISA 9.7.9.15 prefetch, 9.7.9.16 applypriority), register-count hints
    // (setmaxnreg). discard.L2 (9.7.9.17 discard) makes the line's contents
    // undefined; keeping the old bytes is one permitted outcome.
    case Opcode::prefetchu:
    case Opcode::applypriority:
    case Opcode::discard:
    case Opcode::cp_async_bulk_prefetch:
    case Opcode::cp_async_bulk_prefetch_tensor:
    case Opcode::setmaxnreg:
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


void lower_instruction(LowerCtx& ctx, const ast::Instruction& in, SourcePos stmt_pos) {
  InsnLowering l(ctx, in, in.pos.line ? SourcePos(in.pos) : stmt_pos);
  l.run();
}

}  // namespace ptxcheck::interp
