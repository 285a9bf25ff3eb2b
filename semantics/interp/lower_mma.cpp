// Lowering of the warp-level matrix instructions (PTX ISA 9.7.14): wmma.load,
// wmma.store, wmma.mma (9.7.14.4), mma.sync (9.7.14.5.14), ldmatrix
// (9.7.14.5.15), stmatrix (9.7.14.5.16) and movmatrix (9.7.14.5.17) become
// one IrOp::Mma whose Inst::target indexes Program::mma, where the operand
// lists and the fragment maps are decoded once.
#include <memory>

#include "semantics/interp/lower_insn.hpp"
#include "semantics/interp/mma.hpp"

namespace ptxcheck::interp {

namespace {

std::optional<MElem> melem(Mod t) {
  switch (t) {
    case Mod::f16: return MElem::f16;
    case Mod::bf16: return MElem::bf16;
    case Mod::tf32: return MElem::tf32;
    case Mod::f32: return MElem::f32;
    case Mod::f64: return MElem::f64;
    case Mod::s8: return MElem::s8;
    case Mod::u8: return MElem::u8;
    case Mod::s32: return MElem::s32;
    case Mod::s4: return MElem::s4;
    case Mod::u4: return MElem::u4;
    case Mod::b1: return MElem::b1;
    case Mod::b16: return MElem::f16;  // ldmatrix/stmatrix/movmatrix move 16-bit elements
    case Mod::e4m3: return MElem::e4m3;
    case Mod::e5m2: return MElem::e5m2;
    case Mod::e3m2: return MElem::e3m2;
    case Mod::e2m3: return MElem::e2m3;
    case Mod::e2m1: return MElem::e2m1;
    default: return std::nullopt;
  }
}

// ".m16n8k16" -> {16, 8, 16}; ".m8n8" -> {8, 8, 0}.
bool parse_shape(std::string_view s, unsigned& m, unsigned& n, unsigned& k) {
  m = n = k = 0;
  unsigned* cur = nullptr;
  for (char ch : s) {
    if (ch == 'm') cur = &m;
    else if (ch == 'n') cur = &n;
    else if (ch == 'k') cur = &k;
    else if (ch >= '0' && ch <= '9' && cur) *cur = *cur * 10 + static_cast<unsigned>(ch - '0');
    else if (ch != '.') return false;
  }
  return m && n;
}

}  // namespace

// wgmma.fence, wgmma.commit_group, wgmma.wait_group N and
// wgmma.mma_async (PTX ISA 9.7.15.5.2, 9.7.15.7), sm_90a:
//   .m64nNk16 .f16/.bf16 (D .f16 or .f32; .bf16 only .f32):
//      d, a-desc|{a}, b-desc, scale-d, imm-scale-a, imm-scale-b{, imm-trans-a}, imm-trans-b
//   .m64nNk8 .tf32 (.f32), .m64nNk32 .e4m3/.e5m2 (.f16/.f32):
//      d, a-desc|{a}, b-desc, scale-d, imm-scale-a, imm-scale-b
//   .m64nNk32 .s8/.u8 (.s32{.satfinite}), .m64nNk256 .b1.and.popc (.s32):
//      d, a-desc|{a}, b-desc, scale-d
// (operand lists as ptxas 13 accepts them). wgmma.mma_async.sp (PTX ISA
// 9.7.15.6.3) has twice the K (m64nNk32 .f16/.bf16, m64nNk16 .tf32,
// m64nNk64 .e4m3/.e5m2/.s8/.u8; no .b1) and two more operands after b-desc:
//      d, a-desc|{a}, b-desc, sp-meta, sp-sel, scale-d, ...
// sp-meta a register (ptxas refuses an immediate), sp-sel the constant 0 or
// 1 (0 for the 8-bit types; ptxas refuses any other value).
void InsnLowering::wgmma_op() {
  auto site = std::make_shared<MmaSite>();
  MmaSite& s = *site;
  if (in.op == Opcode::wgmma_fence || in.op == Opcode::wgmma_commit_group || in.op == Opcode::wgmma_wait_group) {
    s.op = in.op == Opcode::wgmma_fence ? MatOp::WgFence : in.op == Opcode::wgmma_commit_group ? MatOp::WgCommit
                                                                                                 : MatOp::WgWait;
    if (s.op == MatOp::WgWait) {
      auto* n = std::get_if<ast::IntImm>(&opd(0).v);
      if (!n) ctx.fail(opd(0).pos, "wgmma.wait_group: N must be an integer constant");
      s.wait_n = static_cast<uint32_t>(n->value);
    }
  } else {
    s.sparse = has(Mod::sp);
    unsigned m = 0, n = 0, k = 0;
    for (const auto& t : in.mods)
      if (table::mod_class(t.id) == table::ModClass::Shape) parse_shape(table::name(t.id), m, n, k);
    if (types.size() != 3) ctx.fail(in.pos, "wgmma.mma_async: expected .dtype.atype.btype");
    std::vector<MElem> ty;
    for (Mod t : types) {
      auto e = melem(t);
      if (!e) return unsupported(std::string("wgmma element type ") + std::string(table::name(t)) + " is not supported");
      ty.push_back(*e);
    }
    s.op = MatOp::Wgmma;
    s.m = static_cast<uint16_t>(m), s.n = static_cast<uint16_t>(n), s.k = static_cast<uint16_t>(k);
    s.d = s.c = ty[0], s.a = ty[1], s.b = ty[2];
    s.satfinite = has(Mod::satfinite);
    auto fp8 = [](MElem e) { return e == MElem::e4m3 || e == MElem::e5m2; };
    auto i8 = [](MElem e) { return e == MElem::s8 || e == MElem::u8; };
    bool half = s.a == MElem::f16 || s.a == MElem::bf16;
    bool ok = m == 64 && n >= 8 && n <= 256 && n % 8 == 0;
    unsigned nops;  // operands after d, a, b-desc, scale-d
    const unsigned sk = s.sparse ? 2 : 1;  // .sp: K doubles (9.7.15.6.3)
    if (half) ok = ok && k == 16 * sk && s.b == s.a && (s.d == MElem::f32 || (s.d == MElem::f16 && s.a == MElem::f16)), nops = 3;
    else if (s.a == MElem::tf32) ok = ok && k == 8 * sk && s.b == s.a && s.d == MElem::f32, nops = 2;
    else if (fp8(s.a)) ok = ok && k == 32 * sk && fp8(s.b) && (s.d == MElem::f32 || s.d == MElem::f16), nops = 2;
    else if (i8(s.a)) ok = ok && k == 32 * sk && i8(s.b) && s.d == MElem::s32, nops = 0;
    else if (s.a == MElem::b1) ok = ok && !s.sparse && k == 256 && s.b == s.a && s.d == MElem::s32 && has(Mod::and_) && has(Mod::popc), nops = 0, s.bop = 1;
    else ok = false, nops = 0;
    // Integer shapes: N = 8, 16, 24, then multiples of 16 (ptxas: "Illegal matrix shape").
    if ((i8(s.a) || s.a == MElem::b1) && n > 24 && n % 16) ok = false;
    if (s.satfinite && !i8(s.a)) ok = false;
    if (!ok)
      return unsupported(std::string(s.sparse ? "wgmma.mma_async.sp ." : "wgmma.mma_async .") + std::to_string(m) + "x" +
                         std::to_string(n) + "x" + std::to_string(k) + " ." + melem_name(s.d) + "." + melem_name(s.a) + "." +
                         melem_name(s.b) + " is not a PTX form");
    // The A fragment (registers or descriptor) holds the packed M x K/2
    // matrix of the stored elements (9.7.15.6.3 "stored in the packed format
    // Mx(K/2)"); its register layout is the dense one of that K (9.7.15.6.2,
    // see mma_layout.cpp wgmma_layout).
    unsigned ca = 0;
    if (!wgmma_layout(n, k / sk, s.a, Role::A, s.amap, ca) || !wgmma_layout(n, k / sk, s.a, Role::C, s.cmap, s.cc))
      return unsupported("wgmma.mma_async layout");
    s.ca = ca;
    s.a_smem = !std::holds_alternative<ast::VectorOp>(opd(1).v);
    if (s.a_smem && half) ++nops;  // imm-trans-a
    const size_t nfix = s.sparse ? 6 : 4;  // d, a, b-desc, {sp-meta, sp-sel,} scale-d
    if (in.operands.size() != nfix + nops)
      ctx.fail(in.pos, std::string(s.sparse ? "wgmma.mma_async.sp" : "wgmma.mma_async") + ": expected " +
                           std::to_string(nfix + nops) + " operands");
    auto vec_regs = [&](const ast::Operand& a, unsigned bits, std::vector<Opnd>& out) {
      auto* v = std::get_if<ast::VectorOp>(&a.v);
      if (!v) ctx.fail(a.pos, "expected a vector of registers");
      for (const auto& e : v->elems) out.push_back(value(e, bits, false));
    };
    vec_regs(opd(0), 32, s.rd);
    unsigned nd = s.d == MElem::f16 ? n / 4 : n / 2;
    if (s.rd.size() != nd) ctx.fail(opd(0).pos, "expected " + std::to_string(nd) + " accumulator registers");
    for (const auto& r : s.rd)
      if (r.kind != Opnd::Reg) ctx.fail(opd(0).pos, "accumulators must be registers");
    if (s.a_smem) {
      s.desc_a = value(opd(1), 64, false);
    } else {
      vec_regs(opd(1), 32, s.ra);
      if (s.ra.size() != 4) ctx.fail(opd(1).pos, "expected 4 registers holding the A fragment");
    }
    s.desc_b = value(opd(2), 64, false);
    size_t idx = 3;
    if (s.sparse) {
      // 9.7.15.6.3: sp-meta a 32-bit register, sp-sel a constant; the valid
      // selectors are 0 and 1 (threads T0,T1 or T2,T3 of each group of four)
      // for .f16/.bf16/.tf32 and 0 for the 8-bit types (9.7.15.6.1); ptxas
      // refuses others, so do we.
      if (!std::holds_alternative<ast::Reg>(opd(3).v)) ctx.fail(opd(3).pos, "wgmma.mma_async.sp: sp-meta must be a register");
      s.sp_meta = value(opd(3), 32, false);
      auto* sel = std::get_if<ast::IntImm>(&opd(4).v);
      const unsigned max_sel = melem_bits(s.a) == 8 ? 0 : 1;
      if (!sel || sel->value > max_sel)
        ctx.fail(opd(4).pos, "wgmma.mma_async.sp: sp-sel must be " + std::string(max_sel ? "0 or 1" : "0") +
                                 " for ." + melem_name(s.a) + " (PTX ISA 9.7.15.6.1)");
      s.sp_sel = static_cast<uint8_t>(sel->value);
      idx = 5;
    }
    s.scale_d = value(opd(idx++), 32, false);
    auto imm = [&](size_t idx, std::initializer_list<int64_t> allowed) -> int64_t {
      auto* v = std::get_if<ast::IntImm>(&opd(idx).v);
      int64_t x = v ? static_cast<int64_t>(v->value) : 0;
      bool in_set = false;
      for (int64_t a : allowed) in_set = in_set || a == x;
      if (!v || !in_set) ctx.fail(opd(idx).pos, "wgmma.mma_async: unexpected immediate operand value");
      return x;
    };
    if (nops >= 2) {
      s.neg_a = imm(idx++, {1, -1}) == -1;
      s.neg_b = imm(idx++, {1, -1}) == -1;
    }
    if (half) {
      if (s.a_smem) s.trans_a = imm(idx++, {0, 1}) == 1;
      s.trans_b = imm(idx++, {0, 1}) == 1;
    }
  }
  i.op = IrOp::Mma;
  i.target = static_cast<uint32_t>(ctx.prog.mma.size());
  ctx.prog.mma.push_back(std::move(site));
  emit();
}

void InsnLowering::matrix_op() {
  auto site = std::make_shared<MmaSite>();
  MmaSite& s = *site;
  unsigned m = 0, n = 0, k = 0;
  std::vector<bool> layouts;  // .row = true, in source order
  for (const auto& t : in.mods) {
    if (table::mod_class(t.id) == table::ModClass::Shape) parse_shape(table::name(t.id), m, n, k);
    if (t.id == Mod::row) layouts.push_back(true);
    if (t.id == Mod::col) layouts.push_back(false);
  }
  std::vector<MElem> ty;
  for (Mod t : types) {
    auto e = melem(t);
    if (!e) return unsupported(std::string("matrix element type ") + std::string(table::name(t)) + " is not supported");
    ty.push_back(*e);
  }
  if (ty.empty()) ctx.fail(in.pos, "matrix instruction without a type");
  s.m = static_cast<uint16_t>(m), s.n = static_cast<uint16_t>(n), s.k = static_cast<uint16_t>(k);
  s.satfinite = has(Mod::satfinite);
  s.trans = has(Mod::trans);
  auto regs = [&](const ast::Operand& a, unsigned bits, std::vector<Opnd>& out) {
    if (auto* v = std::get_if<ast::VectorOp>(&a.v)) {
      for (const auto& e : v->elems) out.push_back(value(e, bits, false));
    } else {
      out.push_back(value(a, bits, false));
    }
  };
  auto reg_bits = [](MElem e) { return e == MElem::f64 ? 64u : 32u; };
  auto expect_regs = [&](const ast::Operand& a, const std::vector<Opnd>& r, unsigned slots, MElem e) {
    unsigned per = e == MElem::f64 ? 1 : 32 / melem_bits(e);
    if (r.size() * per != slots)
      ctx.fail(a.pos, "expected " + std::to_string(slots / per) + " fragment registers, got " + std::to_string(r.size()));
  };
  std::string shape_txt = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);

  // mma.sp / mma.sp::ordered_metadata (PTX ISA 9.7.14.6.3), .row.col,
  // operands d, a, b, c, e (metadata register), f (selector constant):
  //   m16n8k16, m16n8k32 .f16 (D = C .f16 or .f32), .bf16 (.f32);
  //   m16n8k8, m16n8k16 .tf32 (.f32);
  //   m16n8k64 .e4m3/.e5m2 in any combination (.f32; .f16 as ptxas 13
  //     accepts from PTX ISA 8.7), and with .kind::f8f6f4 (ordered metadata
  //     only) .e4m3/.e5m2/.e3m2/.e2m3/.e2m1 (.f16/.f32);
  //   m16n8k32, m16n8k64 .s8/.u8 and m16n8k64, m16n8k128 .s4/.u4 in any
  //     combination (.s32, .satfinite).
  // A is the packed 16 x K/2 matrix (mma_sp_layout). The selector is a
  // constant in 0..3 (the operand's range); which values a shape defines is
  // checked when it executes (sp_sel_max). False after unsupported().
  auto sparse_mma = [&]() -> bool {
    const std::string what = std::string(has(Mod::sp_ordered_metadata) ? "mma.sp::ordered_metadata " : "mma.sp ") + shape_txt;
    if (has(Mod::block_scale) || has(Mod::kind_mxf8f6f4) || has(Mod::kind_mxf4) || has(Mod::kind_mxf4nvf4)) {
      unsupported(what + " with block scaling (.block_scale, .kind::mxf*) is not supported");
      return false;
    }
    if (ty.size() != 4) ctx.fail(in.pos, "mma.sp: expected .dtype.atype.btype.ctype");
    if (in.operands.size() != 6) ctx.fail(in.pos, "mma.sp: expected 6 operands (d, a, b, c, metadata, selector)");
    s.op = MatOp::Mma;
    s.sparse = true;
    s.ordered = has(Mod::sp_ordered_metadata);
    s.d = ty[0], s.a = ty[1], s.b = ty[2], s.c = ty[3];
    auto fp8 = [](MElem e) { return e == MElem::e4m3 || e == MElem::e5m2; };
    auto f8f6f4 = [&](MElem e) { return fp8(e) || e == MElem::e3m2 || e == MElem::e2m3 || e == MElem::e2m1; };
    auto i8 = [](MElem e) { return e == MElem::s8 || e == MElem::u8; };
    auto i4 = [](MElem e) { return e == MElem::s4 || e == MElem::u4; };
    const bool kind = has(Mod::kind_f8f6f4), fd = s.d == MElem::f32 || s.d == MElem::f16;
    bool ok = m == 16 && n == 8 && s.c == s.d && (layouts.empty() || (layouts.size() == 2 && layouts[0] && !layouts[1]));
    if (kind) ok = ok && s.ordered && k == 64 && f8f6f4(s.a) && f8f6f4(s.b) && fd;
    else if (s.a == MElem::f16) ok = ok && (k == 16 || k == 32) && s.b == s.a && fd;
    else if (s.a == MElem::bf16) ok = ok && (k == 16 || k == 32) && s.b == s.a && s.d == MElem::f32;
    else if (s.a == MElem::tf32) ok = ok && (k == 8 || k == 16) && s.b == s.a && s.d == MElem::f32;
    else if (fp8(s.a)) ok = ok && k == 64 && fp8(s.b) && fd;
    else if (i8(s.a)) ok = ok && (k == 32 || k == 64) && i8(s.b) && s.d == MElem::s32;
    else if (i4(s.a)) ok = ok && (k == 64 || k == 128) && i4(s.b) && s.d == MElem::s32;
    else ok = false;
    if (s.satfinite && s.d != MElem::s32) ok = false;
    if (!ok || !mma_sp_layout(k, s.a, Role::A, s.amap, s.ca) || !mma_sp_layout(k, s.b, Role::B, s.bmap, s.cb) ||
        !mma_sp_layout(k, s.a, Role::C, s.cmap, s.cc)) {
      unsupported(what + " ." + melem_name(s.d) + "." + melem_name(s.a) + "." + melem_name(s.b) + "." + melem_name(s.c) +
                  (kind ? " (.kind::f8f6f4)" : "") + " is not a PTX form");
      return false;
    }
    regs(opd(0), reg_bits(s.d), s.rd);
    regs(opd(1), 32, s.ra);
    regs(opd(2), 32, s.rb);
    regs(opd(3), reg_bits(s.c), s.rc);
    expect_regs(opd(0), s.rd, s.cc, s.d);
    expect_regs(opd(1), s.ra, s.ca, s.a);
    expect_regs(opd(2), s.rb, s.cb, s.b);
    expect_regs(opd(3), s.rc, s.cc, s.c);
    // 9.7.14.6.3: e a 32-bit integer (ptxas refuses an immediate), f "a
    // 32-bit integer constant with values in the range 0..3".
    if (!std::holds_alternative<ast::Reg>(opd(4).v)) ctx.fail(opd(4).pos, "mma.sp: the sparsity metadata must be a register");
    s.sp_meta = value(opd(4), 32, false);
    auto* sel = std::get_if<ast::IntImm>(&opd(5).v);
    if (!sel || sel->value > 3) ctx.fail(opd(5).pos, "mma.sp: the sparsity selector must be a constant in 0..3 (PTX ISA 9.7.14.6.3)");
    s.sp_sel = static_cast<uint8_t>(sel->value);
    // 9.7.14.6.1: one thread of each group of four gives the metadata (any
    // selector) when a row has 4 chunks, a pair (0 or 1) when it has 8, all
    // four (0) when it has 16.
    const unsigned chunks = k / sp_chunk(melem_bits(s.a));
    s.sp_sel_max = static_cast<uint8_t>(chunks <= 4 ? 3 : chunks == 8 ? 1 : 0);
    return true;
  };

  switch (in.op) {
    case Opcode::wmma_load_a:
    case Opcode::wmma_load_b:
    case Opcode::wmma_load_c:
    case Opcode::wmma_store_d: {  // PTX ISA 9.7.14.4.3 / 9.7.14.4.4
      bool st = in.op == Opcode::wmma_store_d;
      s.op = st ? MatOp::Store : MatOp::Load;
      s.role = in.op == Opcode::wmma_load_a ? Role::A : in.op == Opcode::wmma_load_b ? Role::B : Role::C;
      s.a = ty[0];
      s.row = layouts.empty() || layouts[0];
      // The multiplicand type decides the C layout's tiling: any type with the
      // same m16n8 accumulator layout will do; f64 and integers differ in k.
      MElem ab = s.a;
      if (s.role == Role::C)
        ab = s.a == MElem::f64 ? MElem::f64 : s.a == MElem::s32 ? MElem::s8 : k == 8 ? MElem::tf32 : MElem::f16;
      unsigned slots = wmma_slots(m, n, k, ab, s.role);
      if (!wmma_layout(m, n, k, ab, s.role, slots, s.amap))
        return unsupported("wmma " + shape_txt + " ." + melem_name(s.a) + " is not supported");
      s.ca = slots;
      const ast::Operand& fr = st ? opd(1) : opd(0);
      regs(fr, reg_bits(s.a), st ? s.ra : s.rd);
      expect_regs(fr, st ? s.ra : s.rd, slots, s.a);
      s.addr = address(st ? opd(0) : opd(1));
      if (in.operands.size() > 2) s.stride = value(opd(2), 32, false);
      unsigned rows = s.role == Role::B ? k : m, cols = s.role == Role::A ? k : n;
      s.def_stride = s.row ? cols : rows;  // 9.7.14.4.2: the leading dimension
      s.frag_bytes = static_cast<uint32_t>((st ? s.ra : s.rd).size() * reg_bits(s.a) / 8);
      break;
    }
    case Opcode::mma:
      if (has(Mod::sp) || has(Mod::sp_ordered_metadata)) {
        if (!sparse_mma()) return;
        break;
      }
      [[fallthrough]];
    case Opcode::wmma_mma: {  // PTX ISA 9.7.14.4.5, 9.7.14.5.14
      if (has(Mod::block_scale)) return unsupported("mma with block scaling is not supported");
      if (in.operands.size() != 4) ctx.fail(in.pos, "mma: expected 4 operands (d, a, b, c)");
      if (has(Mod::popc)) s.bop = has(Mod::xor_) ? 2 : has(Mod::and_) ? 1 : 0;
      s.op = MatOp::Mma;
      if (ty.size() == 2) {  // wmma.mma ... .dtype.ctype with .f16 multiplicands
        s.d = ty[0], s.c = ty[1], s.a = s.b = MElem::f16;
      } else if (ty.size() == 4) {
        s.d = ty[0], s.a = ty[1], s.b = ty[2], s.c = ty[3];
      } else {
        ctx.fail(in.pos, "mma: expected .dtype.atype.btype.ctype");
      }
      bool wm = in.op == Opcode::wmma_mma;
      // Accumulator types (9.7.14.4.5, 9.7.14.5.14): .f16 multiplicands take
      // .f16/.f32, .bf16/.tf32 only .f32, integers .s32, .f64 .f64.
      bool iab = melem_bits(s.a) <= 8;
      bool accok = s.a == MElem::f16    ? (s.c == MElem::f16 || s.c == MElem::f32) && (s.d == MElem::f16 || s.d == MElem::f32)
                   : s.a == MElem::f64 ? s.c == MElem::f64 && s.d == MElem::f64
                   : iab               ? s.c == MElem::s32 && s.d == MElem::s32
                                       : s.c == MElem::f32 && s.d == MElem::f32;
      if (!accok) return unsupported("mma: accumulator type does not match the multiplicand type");
      if ((s.a == MElem::b1) != (s.bop != 0)) return unsupported(".b1 mma needs .and.popc or .xor.popc");
      if (s.satfinite && !iab)
        return unsupported(".satfinite on a floating-point mma is not supported (deprecated for wmma)");
      bool ok;
      if (wm) {
        s.ca = wmma_slots(m, n, k, s.a, Role::A);
        s.cb = wmma_slots(m, n, k, s.b, Role::B);
        s.cc = wmma_slots(m, n, k, s.a, Role::C);
        ok = wmma_layout(m, n, k, s.a, Role::A, s.ca, s.amap) && wmma_layout(m, n, k, s.b, Role::B, s.cb, s.bmap) &&
             wmma_layout(m, n, k, s.a, Role::C, s.cc, s.cmap);
      } else {
        // mma.sync takes .row.col only (the m8n8k4 .f16 forms are not supported).
        ok = (layouts.empty() || (layouts.size() == 2 && layouts[0] && !layouts[1])) &&
             mma_layout(m, n, k, s.a, Role::A, s.amap, s.ca) && mma_layout(m, n, k, s.b, Role::B, s.bmap, s.cb) &&
             mma_layout(m, n, k, s.a, Role::C, s.cmap, s.cc);
      }
      if (!ok || (s.a != s.b && !(melem_bits(s.a) == melem_bits(s.b) && melem_bits(s.a) <= 8)))
        return unsupported(std::string(wm ? "wmma.mma " : "mma ") + shape_txt + " ." + melem_name(s.d) + "." +
                           melem_name(s.a) + "." + melem_name(s.b) + "." + melem_name(s.c) + " is not supported");
      regs(opd(0), reg_bits(s.d), s.rd);
      regs(opd(1), reg_bits(s.a), s.ra);
      regs(opd(2), reg_bits(s.b), s.rb);
      regs(opd(3), reg_bits(s.c), s.rc);
      expect_regs(opd(0), s.rd, s.cc, s.d);
      expect_regs(opd(1), s.ra, s.ca, s.a);
      expect_regs(opd(2), s.rb, s.cb, s.b);
      expect_regs(opd(3), s.rc, s.cc, s.c);
      break;
    }
    case Opcode::ldmatrix:
    case Opcode::stmatrix:
    case Opcode::movmatrix: {  // PTX ISA 9.7.14.5.15-17
      if (m != 8 || n != 8 || types[0] != Mod::b16)
        return unsupported("ldmatrix/stmatrix/movmatrix: only .m8n8 .b16 is supported");
      s.op = in.op == Opcode::ldmatrix ? MatOp::Ldmatrix : in.op == Opcode::stmatrix ? MatOp::Stmatrix : MatOp::Movmatrix;
      s.nmat = static_cast<uint8_t>(in.op == Opcode::movmatrix ? 1 : vec);
      if (s.nmat != 1 && s.nmat != 2 && s.nmat != 4) ctx.fail(in.pos, "expected .x1, .x2 or .x4");
      if (s.op == MatOp::Ldmatrix) {
        regs(opd(0), 32, s.rd);
        s.addr = address(opd(1));
        if (s.rd.size() != s.nmat) ctx.fail(opd(0).pos, "expected one destination register per matrix");
      } else if (s.op == MatOp::Stmatrix) {
        s.addr = address(opd(0));
        regs(opd(1), 32, s.ra);
        if (s.ra.size() != s.nmat) ctx.fail(opd(1).pos, "expected one source register per matrix");
      } else {
        if (!s.trans) ctx.fail(in.pos, "movmatrix requires .trans");
        regs(opd(0), 32, s.rd);
        regs(opd(1), 32, s.ra);
        if (s.rd.size() != 1 || s.ra.size() != 1) ctx.fail(in.pos, "movmatrix takes one register each");
      }
      break;
    }
    default: return unsupported("matrix instruction");
  }
  i.op = IrOp::Mma;
  i.target = static_cast<uint32_t>(ctx.prog.mma.size());
  ctx.prog.mma.push_back(std::move(site));
  emit();
}

}  // namespace ptxcheck::interp
