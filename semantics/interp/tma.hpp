// The decoded form of one bulk tensor instruction (PTX ISA 9.7.9.25.5):
// cp.async.bulk.tensor loads (global -> shared, optionally multicast to the
// CTAs of a cluster) and stores (shared -> global), cp.reduce.async.bulk.tensor,
// and tensormap.replace (9.7.9.27). Program::tensor[Inst::target] of
// IrOp::Tensor; lowered in lower_tensor.cpp, executed in exec_tensor.cpp.
#pragma once
#include <cstdint>
#include <vector>

#include "semantics/interp/ir.hpp"

namespace ptxcheck::interp {

struct TensorSite {
  enum Kind : uint8_t { Load, Store, Reduce, Replace } kind = Load;
  uint8_t dim = 1;             // .1d - .5d
  bool im2col = false;         // .im2col, .im2col::w, .im2col::w::128 (Load), .im2col_no_offs (Store/Reduce)
  uint8_t wide = 0;            // Load: 1 .im2col::w, 2 .im2col::w::128 (offsets = {wHalo, wOffset})
  bool multicast = false;
  bool rows4 = false;          // .tile::gather4 (Load) / .tile::scatter4 (Store): coords {col, row0..row3}
  bool cta_group2 = false;     // .cta_group::2 (Load): mbarrier signals go to the pair CTA of mbar's parity
  AtomOp red = AtomOp::Add;    // Reduce
  Addr smem;                   // Load: destination; Store/Reduce: source
  Addr tmap;                   // the tensor-map object (generic, .param, .global, .const or .shared)
  std::vector<Opnd> coords;    // tensor coordinates (.s32), innermost first
  std::vector<Opnd> offsets;   // im2col offsets, or {wHalo, wOffset} of the wide modes (.u16)
  bool has_mbar = false;
  Addr mbar;                   // .mbarrier::complete_tx::bytes
  Opnd cta_mask;               // .multicast::cluster (16-bit)
  // tensormap.replace.tile.field [tmap], {ord,} value
  uint8_t field = 0;           // 0 global_address, 1 rank, 2 box_dim, 3 global_dim, 4 global_stride,
                               // 5 element_stride, 6 elemtype, 7 interleave, 8 swizzle, 9 fill_mode,
                               // 10 swizzle_atomicity
  Opnd ord, value;
};

}  // namespace ptxcheck::interp
