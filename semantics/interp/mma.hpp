// Warp-level matrix instructions (PTX ISA 9.7.14): the decoded form of one
// wmma.load/wmma.store/wmma.mma, mma.sync, ldmatrix, stmatrix or movmatrix
// (an MmaSite, Program::mma[Inst::target] of IrOp::Mma), the fragment
// layouts (which matrix element each lane holds in each fragment slot) and
// the numeric policy of the multiply-accumulate (docs/mma.md).
//
// Contracts:
// - mma_layout: the layouts the ISA specifies for mma.sync (9.7.14.5.x),
//   element i of lane l is out[l * count + i].
// - wmma_layout: PTX leaves wmma fragments unspecified (9.7.14.4.1); ours
//   tile the mma.sync m16n8k16 / m16n8k8(tf32) / m8n8k4(f64) layouts and
//   repeat them when the fragment has more slots than elements (f16 A/B).
//   Every element of the matrix is held by exactly one (lane, slot) of the
//   first copy.
// - mma_compute: D = A*B + C with products exact, the sum exact, and one
//   rounding (.rn) to the destination type; see docs/mma.md.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "semantics/interp/ir.hpp"

namespace ptxcheck::interp {

// e3m2/e2m3/e2m1: the 6- and 4-bit kinds of mma .kind::f8f6f4, each in an
// 8-bit container (PTX ISA 9.7.14.6.3: e2m1 in bits 5..2, e3m2/e2m3 in bits
// 5..0); melem_bits gives the container's 8.
enum class MElem : uint8_t { f16, bf16, tf32, f32, f64, s8, u8, s32, s4, u4, b1, e4m3, e5m2, e3m2, e2m3, e2m1 };
unsigned melem_bits(MElem e);
const char* melem_name(MElem e);

enum class Role : uint8_t { A, B, C };  // C also describes D
enum class MatOp : uint8_t {
  Load, Store, Mma, Ldmatrix, Stmatrix, Movmatrix,
  WgFence, WgCommit, WgWait, Wgmma,  // wgmma.* (PTX ISA 9.7.15; wgmma_exec.cpp)
};

struct Coord {
  uint8_t row = 0, col = 0;
};

// The mma.sync layout of `role` for shape m x n x k with multiplicand type
// ab; false when the ISA has no such fragment here.
bool mma_layout(unsigned m, unsigned n, unsigned k, MElem ab, Role role, std::vector<Coord>& out,
                unsigned& count);
// Our wmma layout with `slots` slots per lane (the PTX register count times
// elements per register); false for an unsupported shape/type.
bool wmma_layout(unsigned m, unsigned n, unsigned k, MElem ab, Role role, unsigned slots, std::vector<Coord>& out);
// Slots per lane of a wmma fragment as PTX declares its register list
// (9.7.14.4.x): f16 A/B hold 16 (8 .f16x2 registers), others rows*cols/32.
unsigned wmma_slots(unsigned m, unsigned n, unsigned k, MElem ab, Role role);

// Matrices as row-major bit patterns (integers sign- or zero-extended per
// type). A is m x k, B is k x n, C and D m x n.
// bop: how integer elements combine, 0 multiply, 1 .and (b1), 2 .xor (b1);
// the b1 forms count the set bits (.popc, 9.7.14.5.14).
struct MmaShape {
  unsigned m, n, k;
  MElem a, b, c, d;
  bool satfinite;
  uint8_t bop = 0;
  bool use_c = true;  // false: D = A*B (wgmma scale-d = 0), C is not a term
};
void mma_compute(const MmaShape& s, const uint64_t* A, const uint64_t* B, const uint64_t* C, uint64_t* D);

struct MmaSite {
  MatOp op = MatOp::Mma;
  uint16_t m = 0, n = 0, k = 0;
  MElem a = MElem::f16, b = MElem::f16, c = MElem::f32, d = MElem::f32;  // Load/Store: a is the element type
  Role role = Role::A;        // Load/Store
  bool row = true;            // Load/Store: memory layout
  bool satfinite = false;
  uint8_t bop = 0;            // MmaShape::bop
  bool trans = false;         // ldmatrix/stmatrix/movmatrix
  uint8_t nmat = 1;           // ldmatrix/stmatrix .x1/.x2/.x4
  std::vector<Opnd> rd, ra, rb, rc;  // fragment registers (Load: rd; Store: ra)
  Addr addr;
  Opnd stride;                // Load/Store: elements; None = default
  uint32_t def_stride = 0;
  uint32_t frag_bytes = 0;    // Load/Store alignment unit (9.7.14.4.2)
  unsigned ca = 0, cb = 0, cc = 0;  // slots per lane of the A/B/C(D) maps
  std::vector<Coord> amap, bmap, cmap;  // Load/Store use amap
  // wgmma.mma_async (PTX ISA 9.7.15.5.2): amap/cmap per warpgroup thread
  // (128 * ca / 128 * cc); A from registers (ra) or through the matrix
  // descriptor desc_a; B always through desc_b; D (rd) is also C.
  bool a_smem = false;
  Opnd desc_a, desc_b, scale_d;
  bool neg_a = false, neg_b = false, trans_a = false, trans_b = false;
  uint32_t wait_n = 0;                // wgmma.wait_group N
  // wgmma.mma_async.sp (PTX ISA 9.7.15.6) and mma.sp (9.7.14.6): A is the
  // packed M x K/2 matrix (amap and the descriptor describe it), sp_meta the
  // sparsity metadata register, sp_sel the sparsity selector (wgmma: 0 or 1,
  // 0 for 8-bit types; mma.sp: 0..3, sp_sel_max the largest the ISA defines
  // for the shape). ordered: mma.sp::ordered_metadata (indices increasing).
  bool sparse = false;
  Opnd sp_meta;
  uint8_t sp_sel = 0, sp_sel_max = 3;
  bool ordered = false;
};

// Sparse A (mma.sp, PTX ISA 9.7.14.6; wgmma.mma_async.sp, 9.7.15.6): each
// row of the logical A is cut into chunks of sp_chunk(bits) elements (4; 2
// for .tf32, 8 for .s4/.u4) of which half are stored; a 4-bit metadata index
// per chunk says where (sp_decode). sp_meta_pos says which lane of the warp
// and which bits of its metadata register hold the index of chunk q of row r
// (0-15 of the 16 rows a warp covers) for an instruction of logical K `k`
// (16-row tile) and selector sel; see mma_layout.cpp for the layouts.
struct SpMetaPos {
  uint8_t lane = 0, bit = 0;
};
unsigned sp_chunk(unsigned bits);
SpMetaPos sp_meta_pos(unsigned bits, unsigned k, unsigned sel, unsigned r, unsigned q);
// The positions within its chunk of the stored elements of a chunk whose
// metadata index is `nib` (9.7.14.6.1): 2:4 two positions, pos[0] for the
// first stored element (bits 1:0) and pos[1] for the second (bits 3:2); for
// .s4/.u4 (4:8 pair-wise) the same two indices name 2-element sub-chunks;
// 1:2 (.tf32) one position. False for the values the ISA makes undefined,
// and with `ordered` (mma.sp::ordered_metadata) also for decreasing indices.
bool sp_decode(unsigned bits, unsigned nib, bool ordered, unsigned pos[2]);

// The first chunk with an undefined metadata index of an mma_sp_compute.
struct SpBad {
  unsigned row = 0, col = 0, width = 0;  // its columns col .. col+width-1 of A
  unsigned thread = 0, bit = 0, nib = 0;  // where its index was read: thread 32*(row/16) + lane
};
// D = A*B + C for a sparse A: s is the logical shape (s.k = K), A the packed
// s.m x K/2 matrix of stored elements, meta[32*(r/16) + lane] the metadata
// register of each lane of the warp(s) covering row r. Each row's K/2
// products of the stored elements with the B rows they face, plus C, are
// summed with mma_compute's policy (the pruned positions are no terms;
// docs/mma.md). Returns false after the first undefined index (*bad says
// where); every such chunk contributes no products.
bool mma_sp_compute(const MmaShape& s, unsigned sel, bool ordered, const uint32_t* meta, const uint64_t* A,
                    const uint64_t* B, const uint64_t* C, uint64_t* D, SpBad* bad);

// mma.sp fragments (PTX ISA 9.7.14.6.2): role A the packed 16 x K/2 matrix
// of stored elements, B the K x 8 matrix, C (and D) the m16n8 accumulator;
// element i of lane l is out[l * count + i]. False for a K/type mma.sp does
// not have.
bool mma_sp_layout(unsigned k, MElem ab, Role role, std::vector<Coord>& out, unsigned& count);

// wgmma register fragments (PTX ISA 9.7.15.5.1.1, Figures 148-153): element
// i of warpgroup thread T (0-127) is out[T * count + i]; role A (m64 x k) or
// C (m64 x n, also D). False for a shape/type wgmma does not have.
bool wgmma_layout(unsigned n, unsigned k, MElem ab, Role role, std::vector<Coord>& out, unsigned& count);

// A wgmma matrix descriptor (PTX ISA 9.7.15.5.1.2.2).
struct WgDesc {
  uint32_t start = 0, lbo = 0, sbo = 0;  // bytes
  uint8_t base_offset = 0;
  uint8_t swizzle = 0;                   // 0 none, 1 128B, 2 64B, 3 32B (the descriptor's code)
};
WgDesc wgmma_decode(uint64_t desc);
// Shared-memory byte address of element (mn, k) of the matrix the descriptor
// describes, K-major or (trans) MN-major, elements of `bits` bits; the
// canonical layouts of PTX ISA 9.7.15.5.1.2. For .b1 elements *sub_bit is
// the element's bit in that byte (0 otherwise).
uint64_t wgmma_smem_addr(const WgDesc& d, unsigned bits, bool mn_major, unsigned mn, unsigned k, unsigned* sub_bit);

}  // namespace ptxcheck::interp
