// Lowering of the bulk tensor instructions (PTX ISA 9.7.9.25.5, 9.7.9.27):
// cp.async.bulk.tensor, cp.reduce.async.bulk.tensor and tensormap.replace
// become one IrOp::Tensor whose Inst::target indexes Program::tensor.
#include <memory>

#include "semantics/interp/lower_insn.hpp"
#include "semantics/interp/tma.hpp"

namespace ptxcheck::interp {

void InsnLowering::tensor_op() {
  auto site = std::make_shared<TensorSite>();
  TensorSite& s = *site;
  std::vector<Space> sp;
  for (const auto& m : in.mods) {
    if (m.id == Mod::global) sp.push_back(Space::Global);
    if (m.id == Mod::shared_cluster) sp.push_back(Space::SharedCluster);
    if (m.id == Mod::shared_cta || m.id == Mod::shared) sp.push_back(Space::Shared);
    if (m.id == Mod::g1d) s.dim = 1;
    if (m.id == Mod::g2d) s.dim = 2;
    if (m.id == Mod::g3d) s.dim = 3;
    if (m.id == Mod::g4d) s.dim = 4;
    if (m.id == Mod::g5d) s.dim = 5;
  }
  // [tensorMap, {c0, ...}]: the map's address and the coordinates.
  auto map_and_coords = [&](const ast::Operand& o) {
    auto* ad = std::get_if<ast::Address>(&o.v);
    if (!ad) ctx.fail(o.pos, "expected [tensorMap, {coordinates}]");
    s.tmap = address(o);
    if (s.tmap.space != Space::Param) s.tmap.space = Space::Generic;
    if (ad->extra.size() != 1) ctx.fail(o.pos, "expected [tensorMap, {coordinates}]");
    if (auto* v = std::get_if<ast::VectorOp>(&ad->extra[0].v)) {
      for (const auto& e : v->elems) s.coords.push_back(value(e, 32, false));
    } else {
      s.coords.push_back(value(ad->extra[0], 32, false));
    }
    if (s.rows4 && s.coords.size() != 5)
      ctx.fail(o.pos, ".tile::gather4/.tile::scatter4 take 5 coordinates {col, row0, row1, row2, row3}");
    if (!s.rows4 && s.coords.size() != s.dim)
      ctx.fail(o.pos, "a ." + std::to_string(s.dim) + "d tensor needs " + std::to_string(s.dim) + " coordinates");
  };
  if (in.op == Opcode::tensormap_replace) {
    // tensormap.replace.mode.field{.ss}.b1024.type [addr], {ord,} new_val  (sm_90a)
    s.kind = TensorSite::Replace;
    static const std::pair<Mod, uint8_t> kFields[] = {
        {Mod::global_address, 0}, {Mod::rank, 1},           {Mod::box_dim, 2},   {Mod::global_dim, 3},
        {Mod::global_stride, 4},  {Mod::element_stride, 5}, {Mod::elemtype, 6},  {Mod::interleave_layout, 7},
        {Mod::swizzle_mode, 8},   {Mod::fill_mode, 9},      {Mod::swizzle_atomicity, 10}};
    bool found = false;
    for (auto [m, f] : kFields)
      if (has(m)) s.field = f, found = true;
    if (!found) ctx.fail(in.pos, "tensormap.replace: expected a field (PTX ISA 9.7.9.27)");
    s.tmap = address(opd(0));
    s.tmap.space = space_mod ? space() : Space::Generic;
    bool ordinal = s.field == 2 || s.field == 3 || s.field == 4 || s.field == 5;
    if (ordinal) s.ord = value(opd(1), 32, false);
    s.value = value(opd(ordinal ? 2 : 1), 64, false);
  } else if (in.op == Opcode::cp_reduce_async_bulk_tensor) {
    // cp.reduce.async.bulk.tensor.dim.global.shared::cta.redOp{.load_mode}.bulk_group [tensorMap, coords], [srcMem]
    s.kind = TensorSite::Reduce;
    s.red = has(Mod::min) ? AtomOp::Min : has(Mod::max) ? AtomOp::Max : has(Mod::inc) ? AtomOp::Inc
          : has(Mod::dec) ? AtomOp::Dec : has(Mod::and_) ? AtomOp::And : has(Mod::or_) ? AtomOp::Or
          : has(Mod::xor_) ? AtomOp::Xor : AtomOp::Add;
    // .im2col_no_offs: an im2col map's traversal without im2col offsets
    // ("im2colInfo is not applicable", PTX ISA 9.7.9.25.5.2-3).
    s.im2col = has(Mod::im2col_no_offs);
    if (s.im2col && s.dim < 3) ctx.fail(in.pos, "im2col modes need a 3d-5d tensor (PTX ISA 9.7.9.25.5.2)");
    map_and_coords(opd(0));
    s.smem = address(opd(1));
    s.smem.space = Space::Shared;
  } else {
    // .im2col::w / .im2col::w::128 (sm_100, PTX ISA 5.5.5) load along W
    // with {wHalo, wOffset}; .im2col_no_offs (stores) walks an im2col map
    // without offsets (9.7.9.25.5.2).
    s.wide = has(Mod::im2col_w_128) ? 2 : has(Mod::im2col_w) ? 1 : 0;
    s.im2col = has(Mod::im2col) || s.wide || has(Mod::im2col_no_offs);
    if (s.im2col && s.dim < 3) ctx.fail(in.pos, "im2col modes need a 3d-5d tensor (PTX ISA 9.7.9.25.5.2)");
    // PTX ISA 5.5.3.4 .tile::scatter4 and .tile::gather4 modes: 2D only,
    // four rows of the tensor (coordinates {col, row0..row3}).
    s.rows4 = has(Mod::tile_gather4) || has(Mod::tile_scatter4);
    if (s.rows4 && s.dim != 2) ctx.fail(in.pos, ".tile::gather4/.tile::scatter4 work on 2D tensors only (PTX ISA 5.5.3.4)");
    s.cta_group2 = has(Mod::cta_group_2);
    if (sp.size() != 2) return unsupported("cp.async.bulk.tensor: expected a destination and a source space");
    if (sp[0] == Space::Global) {
      if (has(Mod::tile_gather4) || s.cta_group2)
        ctx.fail(in.pos, "cp.async.bulk.tensor store: .tile::gather4 and .cta_group are load forms (PTX ISA 9.7.9.25.5.2)");
      s.kind = TensorSite::Store;
      if (s.im2col && !has(Mod::im2col_no_offs))
        ctx.fail(in.pos, "cp.async.bulk.tensor store: the im2col store mode is .im2col_no_offs (PTX ISA 9.7.9.25.5.2)");
      map_and_coords(opd(0));
      s.smem = address(opd(1));
      s.smem.space = sp[1];
    } else {
      if (has(Mod::tile_scatter4) || has(Mod::im2col_no_offs))
        ctx.fail(in.pos, "cp.async.bulk.tensor load: .tile::scatter4 and .im2col_no_offs are store forms (PTX ISA 9.7.9.25.5.2)");
      s.kind = TensorSite::Load;
      s.multicast = has(Mod::multicast_cluster);
      s.smem = address(opd(0));
      s.smem.space = sp[0];
      map_and_coords(opd(1));
      size_t k = 2;
      if (k < in.operands.size() && std::holds_alternative<ast::Address>(in.operands[k].v)) {
        s.has_mbar = true;
        s.mbar = address(in.operands[k++]);
        s.mbar.space = Space::SharedCluster;
      }
      if (!s.has_mbar) ctx.fail(in.pos, "cp.async.bulk.tensor load: expected [mbar]");
      if (s.im2col) {
        if (k >= in.operands.size()) ctx.fail(in.pos, "im2col: expected the offsets {...}");
        const ast::Operand& io = in.operands[k++];
        if (auto* v = std::get_if<ast::VectorOp>(&io.v)) {
          for (const auto& e : v->elems) s.offsets.push_back(value(e, 16, false));
        } else {
          s.offsets.push_back(value(io, 16, false));
        }
        if (s.wide && s.offsets.size() != 2) ctx.fail(io.pos, "im2col::w: expected {wHalo, wOffset}");
        if (!s.wide && s.offsets.size() + 2 != s.dim)
          ctx.fail(io.pos, "im2col: expected " + std::to_string(s.dim - 2) + " offsets");
      }
      if (s.multicast) {
        if (k >= in.operands.size()) ctx.fail(in.pos, "multicast: expected the ctaMask operand");
        s.cta_mask = value(in.operands[k++], 16, false);
      }
    }
  }
  i.op = IrOp::Tensor;
  i.async_tx = s.kind == TensorSite::Load;
  i.target = static_cast<uint32_t>(ctx.prog.tensor.size());
  ctx.prog.tensor.push_back(std::move(site));
  emit();
}

}  // namespace ptxcheck::interp
