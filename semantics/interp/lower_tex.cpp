// Lowering of the texture and surface instructions (PTX ISA 9.7.10.3 tex,
// 9.7.10.4 tld4, 9.7.10.5 txq, 9.7.11.1 suld, 9.7.11.2 sust, 9.7.11.4 suq)
// to one IrOp::Tex whose Inst::target indexes Program::tex (texture.hpp).
// Unified texturing mode with the object in a .u64 register (how CUDA's
// texture and surface objects compile); mipmap modes (.base, .level, .grad,
// txq.level), texel offsets, .texref/.surfref/.samplerref variables and
// explicit samplers (independent mode), istypep, sust.p, sured. Cube and
// multi-sample geometries and depth compare are refused at run time with a
// message naming what is missing.
#include <memory>

#include "semantics/interp/lower_insn.hpp"
#include "semantics/interp/texture.hpp"

namespace ptxcheck::interp {

void InsnLowering::tex_op() {
  auto site = std::make_shared<TexSite>();
  TexSite& s = *site;
  switch (in.op) {
    case Opcode::tex: s.kind = TexSite::Tex; break;
    case Opcode::tld4: s.kind = TexSite::Tld4; break;
    case Opcode::txq: s.kind = TexSite::Txq; break;
    case Opcode::suld: s.kind = TexSite::Suld; break;
    case Opcode::sust: s.kind = TexSite::Sust; break;
    case Opcode::istypep: s.kind = TexSite::Istypep; break;
    case Opcode::sured: s.kind = TexSite::Sured; break;
    default: s.kind = TexSite::Suq; break;
  }
  if (s.kind == TexSite::Istypep) {
    // istypep.type p, a (PTX ISA 9.7.10.6): whether a names a .texref,
    // .samplerref or .surfref (texture and surface objects count as
    // texture and surface references: unified mode's indirect access).
    if (types.size() != 1 || in.operands.size() != 2) ctx.fail(in.pos, "istypep: expected istypep.type p, a");
    s.istype = types[0] == Mod::texref ? 0 : types[0] == Mod::samplerref ? 1 : 2;
    s.vals.push_back(value(opd(0), 1, false));
    s.handle = value(opd(1), 64, false);
    i.op = IrOp::Tex;
    i.target = static_cast<uint32_t>(ctx.prog.tex.size());
    ctx.prog.tex.push_back(std::move(site));
    return emit();
  }
  const std::string name = s.kind == TexSite::Tex ? "tex" : s.kind == TexSite::Tld4 ? "tld4" : s.kind == TexSite::Txq ? "txq"
                         : s.kind == TexSite::Suld ? "suld" : s.kind == TexSite::Sust ? "sust"
                         : s.kind == TexSite::Sured ? "sured" : "suq";
  if (has(Mod::g2dms) || has(Mod::a2dms))
    return unsupported(name + ": multi-sample geometries are not provided (CUDA creates no multi-sample arrays)");
  // 9.7.10.3 "Mipmaps": .base (level 0, the default), .level (an explicit
  // LOD operand), .grad (LOD from the partials); 9.7.10.5 txq.level.
  s.mip = has(Mod::grad) ? TexSite::Grad : has(Mod::level) ? TexSite::Level : TexSite::Base;
  s.geom = has(Mod::g3d) ? TexSite::G3d : has(Mod::g2d) ? TexSite::G2d : has(Mod::a1d) ? TexSite::A1d
         : has(Mod::a2d) ? TexSite::A2d : has(Mod::cube) ? TexSite::Cube : has(Mod::acube) ? TexSite::ACube
         : TexSite::G1d;
  const bool cube = s.geom == TexSite::Cube || s.geom == TexSite::ACube;
  if (cube && (s.kind == TexSite::Suld || s.kind == TexSite::Sust || s.kind == TexSite::Sured))
    ctx.fail(in.pos, name + ": surfaces have no cube geometry");
  if (cube && s.mip == TexSite::Grad)
    return unsupported(name + ".grad.cube: the LOD of a cubemap from its partials is not provided");
  // [a, {c}] or [a, b, {c}] (b: an explicit sampler, independent mode); [a] for txq/suq.
  // a and b are .u64 registers or the names of .texref/.surfref/.samplerref
  // variables (PTX ISA 5.3), whose addresses name their bindings.
  auto object = [&](const ast::Operand& o, bool with_coords) -> bool {
    auto* ad = std::get_if<ast::Address>(&o.v);
    if (!ad || (!ad->reg && !ad->sym))
      ctx.fail(o.pos, name + ": expected [object" + (with_coords ? ", {coordinates}]" : "]"));
    s.handle = ad->reg ? reg(*ad->reg, o.pos) : symbol(*ad->sym, o.pos, 0);
    if (!with_coords) return true;
    if (ad->extra.size() != 1 && ad->extra.size() != 2)
      ctx.fail(o.pos, name + ": expected [object, {coordinates}] or [texture, sampler, {coordinates}]");
    if (ad->extra.size() == 2) {
      if (s.kind == TexSite::Suld || s.kind == TexSite::Sust) ctx.fail(o.pos, name + ": surfaces take no sampler");
      s.sampler = value(ad->extra[0], 64, false);
    }
    const ast::Operand& cv = ad->extra.back();
    if (auto* v = std::get_if<ast::VectorOp>(&cv.v)) {
      for (const auto& e : v->elems) s.coords.push_back(value(e, 32, s.float_coords));
    } else {
      s.coords.push_back(value(cv, 32, s.float_coords));
    }
    // 9.7.10.3: .3d and .a2d coordinates are a 4-vector whose last element is ignored.
    const unsigned need = s.ncoords();
    if (s.coords.size() < need) ctx.fail(o.pos, name + ": expected " + std::to_string(need) + " coordinates");
    return true;
  };
  auto values = [&](const ast::Operand& o, unsigned bits) {
    if (auto* v = std::get_if<ast::VectorOp>(&o.v)) {
      for (const auto& e : v->elems) s.vals.push_back(value(e, bits, false));
    } else {
      s.vals.push_back(value(o, bits, false));
    }
  };
  if (s.kind == TexSite::Tex || s.kind == TexSite::Tld4) {
    // tex.geom.v4.dtype.ctype d, [a, c]
    if (types.size() != 2) ctx.fail(in.pos, name + ": expected .dtype.ctype");
    // .f16 / .f16x2 results: the .f32 result rounded to half (9.7.10.3:
    // "a two-element vector for destination type .f16x2").
    s.half = types[0] == Mod::f16 ? 1 : types[0] == Mod::f16x2 ? 2 : 0;
    if (s.half && s.kind == TexSite::Tld4) ctx.fail(in.pos, "tld4: .dtype is .u32, .s32 or .f32");
    s.dtype = types[0] == Mod::f32 || s.half ? NumKind::F : types[0] == Mod::s32 ? NumKind::S : NumKind::U;
    s.float_coords = types[1] == Mod::f32;
    if (s.kind == TexSite::Tld4)
      s.component = has(Mod::g) ? 1 : has(Mod::b) ? 2 : has(Mod::a) ? 3 : 0;
    values(opd(0), s.half == 1 ? 16 : 32);
    if (s.vals.size() != (s.half == 2 ? 2u : 4u))
      ctx.fail(opd(0).pos, name + (s.half == 2 ? ": expected a 2-vector destination" : ": expected a 4-vector destination"));
    if (!object(opd(1), true)) return;
    // tex.level d, [a, c], lod {, e} {, f}; tex.grad d, [a, c], dPdx, dPdy {, e} {, f}.
    size_t k = 2;
    auto vec_of = [&](const ast::Operand& o, std::vector<Opnd>& out, bool is_float) {
      if (auto* v = std::get_if<ast::VectorOp>(&o.v)) {
        for (const auto& e : v->elems) out.push_back(value(e, 32, is_float));
      } else {
        out.push_back(value(o, 32, is_float));
      }
    };
    if (s.mip == TexSite::Level) {
      if (in.operands.size() <= k) ctx.fail(in.pos, name + ".level: expected a lod operand");
      s.lod = value(opd(k++), 32, s.float_coords);
    } else if (s.mip == TexSite::Grad) {
      if (in.operands.size() <= k + 1) ctx.fail(in.pos, name + ".grad: expected dPdx and dPdy operands");
      vec_of(opd(k++), s.dpdx, true);
      vec_of(opd(k++), s.dpdy, true);
      const size_t need = s.geom == TexSite::G1d || s.geom == TexSite::A1d ? 1 : s.geom == TexSite::G3d ? 3 : 2;
      if (s.dpdx.size() < need || s.dpdy.size() < need)
        ctx.fail(in.pos, name + ".grad: expected " + std::to_string(need) + "-element partials");
    }
    // Operand e, a vector of .s32 texel offsets ("in the range of -8 to +7").
    if (in.operands.size() > k && std::holds_alternative<ast::VectorOp>(opd(k).v)) {
      if (cube) ctx.fail(opd(k).pos, name + ": \"Offset vector operand is not supported for cube\" geometries");
      vec_of(opd(k++), s.offset, false);
      const size_t need = s.geom == TexSite::G1d || s.geom == TexSite::A1d ? 1 : s.geom == TexSite::G3d ? 3 : 2;
      if (s.offset.size() < need) ctx.fail(in.pos, name + ": expected " + std::to_string(need) + " offsets");
    }
    if (in.operands.size() > k)
      return unsupported(name + ": the depth compare operand is not provided (CUDA creates no depth textures and "
                                "defines no comparison function)");
  } else if (s.kind == TexSite::Sured) {
    // sured.b.op.geom.ctype.clamp [a, b], c; sured.p.op.geom.ctype.clamp [a, b], c (PTX ISA 9.7.11.3)
    s.formatted = has(Mod::p);
    s.elem_bits = static_cast<uint8_t>(tbits());
    s.clamp = has(Mod::clamp) ? 1 : has(Mod::zero) ? 2 : 0;
    s.red_op = has(Mod::add) ? TexSite::RAdd : has(Mod::min) ? TexSite::RMin : has(Mod::max) ? TexSite::RMax
             : has(Mod::and_) ? TexSite::RAnd : TexSite::ROr;
    s.red_signed = !types.empty() && (types[0] == Mod::s32 || types[0] == Mod::s64);
    if (s.geom == TexSite::A1d || s.geom == TexSite::A2d) ctx.fail(in.pos, "sured: .geom is .1d, .2d or .3d");
    s.vals.push_back(value(opd(1), s.elem_bits, false));
    if (!object(opd(0), true)) return;
  } else if (s.kind == TexSite::Suld || s.kind == TexSite::Sust) {
    // suld.b.geom.vec.dtype.clamp d, [a, b]; sust.b.geom.vec.ctype.clamp [a, b], c
    s.elem_bits = static_cast<uint8_t>(tbits());
    s.clamp = has(Mod::clamp) ? 1 : has(Mod::zero) ? 2 : 0;
    s.float_coords = false;
    // sust.p: a formatted store of 32-bit values (9.7.11.2); suld has no .p.
    s.formatted = s.kind == TexSite::Sust && has(Mod::p);
    const ast::Operand& data = s.kind == TexSite::Suld ? opd(0) : opd(1);
    values(data, s.elem_bits == 64 ? 64 : 32);
    if (s.vals.size() != vec) ctx.fail(data.pos, name + ": expected " + std::to_string(vec) + " values");
    if (!object(s.kind == TexSite::Suld ? opd(1) : opd(0), true)) return;
  } else {
    // txq.tquery.b32 d, [a]; suq.query.b32 d, [a]
    static const std::pair<Mod, TexQuery> kQueries[] = {
        {Mod::width, TexQuery::Width},           {Mod::height, TexQuery::Height},
        {Mod::depth, TexQuery::Depth},           {Mod::normalized_coords, TexQuery::NormalizedCoords},
        {Mod::filter_mode, TexQuery::FilterMode}, {Mod::addr_mode_0, TexQuery::AddrMode0},
        {Mod::addr_mode_1, TexQuery::AddrMode1}, {Mod::addr_mode_2, TexQuery::AddrMode2},
        {Mod::array_size, TexQuery::ArraySize},  {Mod::num_mipmap_levels, TexQuery::NumMipmapLevels},
        {Mod::num_samples, TexQuery::NumSamples}, {Mod::force_unnormalized_coords, TexQuery::ForceUnnormalized},
        {Mod::memory_layout, TexQuery::MemoryLayout}};
    bool found = false;
    for (auto [m, q] : kQueries)
      if (has(m)) s.query = static_cast<uint8_t>(q), found = true;
    // .channel_data_type/.channel_order: "enumeration types corresponding to
    // the source language API ... Currently, OpenCL is the only source
    // language that defines these fields" (PTX ISA 5.3.3); CUDA defines none.
    if (!found)
      return unsupported(name + ": .channel_data_type and .channel_order are defined by OpenCL only (PTX ISA 5.3.3); "
                                "CUDA's objects have no such enumeration");
    values(opd(0), 32);
    if (!object(opd(1), false)) return;
    if (s.kind == TexSite::Txq && has(Mod::level)) {  // txq.level.tlquery.b32 d, [a], lod
      if (s.query > static_cast<uint8_t>(TexQuery::Depth))
        ctx.fail(in.pos, "txq.level: the query must be .width, .height or .depth");
      if (in.operands.size() != 3) ctx.fail(in.pos, "txq.level: expected a lod operand");
      s.lod = value(opd(2), 32, false);
    } else {
      s.mip = TexSite::Base;
      if (in.operands.size() > 2) ctx.fail(in.pos, name + ": too many operands");
    }
  }
  i.op = IrOp::Tex;
  i.target = static_cast<uint32_t>(ctx.prog.tex.size());
  ctx.prog.tex.push_back(std::move(site));
  emit();
}

}  // namespace ptxcheck::interp
