// Fragment layouts of the warp-level matrix instructions: which element of
// the logical matrix each lane holds in each slot (mma.hpp states the
// contract; docs/mma.md explains the wmma choice).
#include "semantics/interp/mma.hpp"

namespace ptxcheck::interp {

unsigned melem_bits(MElem e) {
  switch (e) {
    case MElem::f16:
    case MElem::bf16: return 16;
    case MElem::s8:
    case MElem::u8:
    case MElem::e4m3:
    case MElem::e5m2:
    case MElem::e3m2:
    case MElem::e2m3:
    case MElem::e2m1: return 8;  // .kind::f8f6f4: 6/4-bit values in 8-bit containers
    case MElem::s4:
    case MElem::u4: return 4;
    case MElem::b1: return 1;
    case MElem::f64: return 64;
    default: return 32;
  }
}

const char* melem_name(MElem e) {
  static const char* const n[] = {"f16", "bf16", "tf32", "f32", "f64", "s8", "u8", "s32", "s4", "u4", "b1", "e4m3", "e5m2", "e3m2", "e2m3", "e2m1"};
  return n[static_cast<unsigned>(e)];
}

namespace {

bool is_int8(MElem e) { return e == MElem::s8 || e == MElem::u8; }
bool is_int4(MElem e) { return e == MElem::s4 || e == MElem::u4; }
bool is_half(MElem e) { return e == MElem::f16 || e == MElem::bf16; }

// Element i of lane l: g = groupID, t = threadID_in_group (PTX ISA 9.7.14.5).
// Returns false when (shape, type, role) is not an mma.sync fragment here.
bool atom(unsigned m, unsigned n, unsigned k, MElem ab, Role role, unsigned l, unsigned i, Coord& out,
          unsigned* count) {
  unsigned g = l >> 2, t = l & 3;
  auto set = [&](unsigned r, unsigned c, unsigned cnt) {
    out = {static_cast<uint8_t>(r), static_cast<uint8_t>(c)};
    if (count) *count = cnt;
    return true;
  };
  // Accumulators of the m16n8 shapes (9.7.14.5.7-9.7.14.5.10): c0,c1 row g,
  // c2,c3 row g+8; columns 2t, 2t+1.
  if (role == Role::C && m == 16 && n == 8) return set(g + 8 * (i >> 1), 2 * t + (i & 1), 4);
  if (role == Role::C && m == 8 && n == 8 && ab != MElem::f16) return set(g, 2 * t + i, 2);
  if (m == 16 && n == 8 && k == 16 && is_half(ab)) {  // 9.7.14.5.8
    if (role == Role::A) return set(g + 8 * ((i >> 1) & 1), 2 * t + (i & 1) + 8 * (i >> 2), 8);
    return set(2 * t + (i & 1) + 8 * (i >> 1), g, 4);
  }
  if (m == 16 && n == 8 && k == 8 && is_half(ab)) {  // 9.7.14.5.7
    if (role == Role::A) return set(g + 8 * (i >> 1), 2 * t + (i & 1), 4);
    return set(2 * t + i, g, 2);
  }
  if (m == 16 && n == 8 && k == 8 && ab == MElem::tf32) {  // 9.7.14.5.7
    if (role == Role::A) return set(g + 8 * (i & 1), t + 4 * (i >> 1), 4);
    return set(t + 4 * i, g, 2);
  }
  if (m == 16 && n == 8 && k == 4 && ab == MElem::tf32) {  // 9.7.14.5.6
    if (role == Role::A) return set(g + 8 * i, t, 2);
    return set(t, g, 1);
  }
  if (m == 16 && n == 8 && k == 16 && is_int8(ab)) {  // 9.7.14.5.9
    if (role == Role::A) return set(g + 8 * (i >> 2), 4 * t + (i & 3), 8);
    return set(4 * t + i, g, 4);
  }
  if (m == 16 && n == 8 && k == 32 && is_int8(ab)) {  // 9.7.14.5.10
    if (role == Role::A) return set(g + 8 * ((i >> 2) & 1), 4 * t + (i & 3) + 16 * (i >> 3), 16);
    return set(4 * t + (i & 3) + 16 * (i >> 2), g, 8);
  }
  if (m == 8 && n == 8 && k == 16 && is_int8(ab)) {  // 9.7.14.5.3
    if (role == Role::A) return set(g, 4 * t + i, 4);
    return set(4 * t + i, g, 4);
  }
  if (m == 8 && n == 8 && k == 32 && is_int4(ab)) {  // 9.7.14.5.4
    if (role == Role::A) return set(g, 8 * t + i, 8);
    return set(8 * t + i, g, 8);
  }
  if (m == 16 && n == 8 && k == 64 && is_int4(ab)) {  // 9.7.14.5.11
    if (role == Role::A) return set(g + 8 * ((i >> 3) & 1), 8 * t + (i & 7) + 32 * (i >> 4), 32);
    return set(8 * t + (i & 7) + 32 * (i >> 3), g, 16);
  }
  if (m == 8 && n == 8 && k == 128 && ab == MElem::b1) {  // 9.7.14.5.5
    if (role == Role::A) return set(g, 32 * t + i, 32);
    return set(32 * t + i, g, 32);
  }
  if (m == 16 && n == 8 && k == 128 && ab == MElem::b1) {  // 9.7.14.5.12
    if (role == Role::A) return set(g + 8 * (i >> 5), 32 * t + (i & 31), 64);
    return set(32 * t + i, g, 32);
  }
  if (m == 8 && n == 8 && k == 4 && ab == MElem::f64) {  // 9.7.14.5.2
    if (role == Role::A) return set(g, t, 1);
    return set(t, g, 1);
  }
  return false;
}

}  // namespace

bool mma_layout(unsigned m, unsigned n, unsigned k, MElem ab, Role role, std::vector<Coord>& out, unsigned& count) {
  Coord c;
  count = 0;
  if (!atom(m, n, k, ab, role, 0, 0, c, &count)) return false;
  out.assign(32 * count, Coord{});
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned i = 0; i < count; ++i) atom(m, n, k, ab, role, l, i, out[l * count + i], nullptr);
  return true;
}

unsigned wmma_slots(unsigned m, unsigned n, unsigned k, MElem ab, Role role) {
  unsigned rows = role == Role::B ? k : m, cols = role == Role::A ? k : n;
  if (role != Role::C && ab == MElem::f16) return 16;  // eight .f16x2 registers on every shape
  return rows * cols / 32;
}

bool wmma_layout(unsigned m, unsigned n, unsigned k, MElem ab, Role role, unsigned slots, std::vector<Coord>& out) {
  // The mma.sync atom a wmma shape is tiled with (docs/mma.md).
  unsigned am = 16, an = 8, ak;
  if (is_half(ab)) ak = 16;
  else if (ab == MElem::tf32) ak = 8;
  else if (is_int8(ab)) ak = 16;
  else if (ab == MElem::f64) am = 8, ak = 4;
  else return false;
  bool ok = (m == 16 && n == 16 && k == ak) || (m == 32 && n == 8 && k == 16 && ak == 16) ||
            (m == 8 && n == 32 && k == 16 && ak == 16) || (m == 8 && n == 8 && k == 4 && ab == MElem::f64);
  if (!ok) return false;
  std::vector<Coord> atomv;
  unsigned cnt = 0;
  if (!mma_layout(am, an, ak, ab, role, atomv, cnt)) return false;
  std::vector<std::vector<Coord>> lanes(32);
  unsigned mt = (m + am - 1) / am, nt = n / an;
  for (unsigned l = 0; l < 32; ++l) {
    auto push = [&](Coord c, unsigned dr, unsigned dc, unsigned maxr) {
      if (c.row + dr < maxr) lanes[l].push_back({static_cast<uint8_t>(c.row + dr), static_cast<uint8_t>(c.col + dc)});
    };
    if (role == Role::A) {
      for (unsigned a = 0; a < mt; ++a)
        for (unsigned i = 0; i < cnt; ++i) push(atomv[l * cnt + i], a * am, 0, m);
    } else if (role == Role::B) {
      for (unsigned b = 0; b < nt; ++b)
        for (unsigned i = 0; i < cnt; ++i) push(atomv[l * cnt + i], 0, b * an, k);
    } else {
      for (unsigned a = 0; a < mt; ++a)
        for (unsigned b = 0; b < nt; ++b)
          for (unsigned i = 0; i < cnt; ++i) push(atomv[l * cnt + i], a * am, b * an, m);
    }
    if (lanes[l].empty() || slots % lanes[l].size()) return false;
  }
  out.assign(32 * slots, Coord{});
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned s = 0; s < slots; ++s) out[l * slots + s] = lanes[l][s % lanes[l].size()];
  return true;
}

// wgmma register fragments (PTX ISA 9.7.15.5.1.1). Warp w of the warpgroup
// holds rows 16w..16w+15; within them lane l (g = l >> 2, t = l & 3) holds
// what it holds in the mma.sync fragment of the same element size:
// - A .f16/.bf16 m64nNk16 (Figure 148): as m16n8k16 A (9.7.14.5.8),
//   row g + 8*((i>>1)&1), column 2t + (i&1) + 8*(i>>2);
// - A .tf32 m64nNk8 (Figure 150): as m16n8k8 .tf32 A, row g + 8*(i&1),
//   column t + 4*(i>>1);
// - A .e4m3/.e5m2/.s8/.u8 m64nNk32 (Figures 152, 154): as m16n8k32 .s8 A,
//   row g + 8*((i>>2)&1), column 4t + (i&3) + 16*(i>>3);
// - A .b1 m64nNk256: as m16n8k256 .b1 A (9.7.14.5.13), row g + 8*((i>>5)&1),
//   column 32t + (i&31) + 128*(i>>6);
// - D (every type, Figures 149, 151, 153, 155): N/2 elements,
//   row g + 8*((i>>1)&1), column 2t + (i&1) + 8*(i>>2).
// The same formulas are CUTLASS's GMMA ALayout_64x8/64x16/64x32 and
// CLayout_64xN (cute/atom/mma_traits_sm90_gmma.hpp).
bool wgmma_layout(unsigned n, unsigned k, MElem ab, Role role, std::vector<Coord>& out, unsigned& count) {
  unsigned bits = melem_bits(ab);
  bool ok = (k == 16 && is_half(ab)) || (k == 8 && ab == MElem::tf32) || (k == 32 && bits == 8) ||
            (k == 256 && ab == MElem::b1);
  if (!ok || n < 8 || n > 256 || n % 8) return false;
  count = role == Role::A ? 16 * k / 32 : n / 2;
  if (role == Role::B) return false;
  out.assign(128 * count, Coord{});
  for (unsigned T = 0; T < 128; ++T) {
    unsigned w = T / 32, l = T % 32, g = l >> 2, t = l & 3;
    for (unsigned i = 0; i < count; ++i) {
      unsigned r, c;
      if (role == Role::C || bits == 16) r = g + 8 * ((i >> 1) & 1), c = 2 * t + (i & 1) + 8 * (i >> 2);
      else if (bits == 32) r = g + 8 * (i & 1), c = t + 4 * (i >> 1);
      else if (bits == 8) r = g + 8 * ((i >> 2) & 1), c = 4 * t + (i & 3) + 16 * (i >> 3);
      else r = g + 8 * ((i >> 5) & 1), c = 32 * t + (i & 31) + 128 * (i >> 6);
      out[T * count + i] = {static_cast<uint8_t>(16 * w + r), static_cast<uint8_t>(c)};
    }
  }
  return true;
}

// wgmma.mma_async.sp (PTX ISA 9.7.15.6). The register fragment of the
// packed A (9.7.15.6.2, Figures 175, 177, 179) is wgmma_layout's dense one
// for K/2: the figures are images; their per-warp tiles are those of mma.sp
// m16n8k32 .f16, m16n8k16 .tf32 and m16n8k64 8-bit (mma_sp_layout below),
// i.e. compressed column 2t + (i&1) + 8(i>>2) (.f16), t + 4(i>>1) (.tf32),
// 4t + (i&3) + 16(i>>3) (8-bit); CUTLASS's sparse GMMA traits use the same
// ALayout_64x32/64x16/64x64 for the packed operand
// (cute/atom/mma_traits_sm90_gmma_sparse.hpp).

// mma.sp fragments (PTX ISA 9.7.14.6.2.1-8). A: the text gives, per lane
// (g = groupID, t = threadID_in_group), the rows and the K-span
// [firstcol, lastcol] of each register's stored elements ("as per the
// mapping of non-zero elements"); a span is t's chunk(s), so on the packed
// 16 x K/2 matrix element a_i sits at
//   m16n8k16 .f16/.bf16 (9.7.14.6.2.1):  row g + 8(i>>1),       col 2t + (i&1)
//   m16n8k32 .f16/.bf16 (9.7.14.6.2.2):  row g + 8((i>>1)&1),   col 2t + (i&1) + 8(i>>2)
//   m16n8k8  .tf32      (9.7.14.6.2.4):  row g + 8i,            col t
//   m16n8k16 .tf32      (9.7.14.6.2.3):  row g + 8(i&1),        col t + 4(i>>1)
//   m16n8k32 8-bit      (9.7.14.6.2.5):  row g + 8(i>>2),       col 4t + (i&3)
//   m16n8k64 8-bit      (9.7.14.6.2.6):  row g + 8((i>>2)&1),   col 4t + (i&3) + 16(i>>3)
//   m16n8k64 .s4/.u4    (9.7.14.6.2.7):  row g + 8(i>>3),       col 8t + (i&7)
//   m16n8k128 .s4/.u4   (9.7.14.6.2.8):  row g + 8((i>>3)&1),   col 8t + (i&7) + 32(i>>4)
// (the dense mma A layouts of the packed shape). B: where the text refers to
// the dense fragments (k16 .f16, k8 .tf32, k32 8-bit, k64 4-bit) they are
// the mma ones; the others (Figures 121, 124, 132-135, 142-145) are images
// and follow the same rule with p = 32/bits elements per register:
// b_i at row p*t + (i%p) + 4p*(i/p), column g. That rule is the dense
// layouts' (9.7.14.5.x) and CUTLASS's sparse SM80 and SM120 BLayouts
// (cute/atom/mma_traits_sm120_sparse.hpp for m16n8k64 8-bit). C/D: the
// m16n8 accumulator.
bool mma_sp_layout(unsigned k, MElem ab, Role role, std::vector<Coord>& out, unsigned& count) {
  const unsigned bits = melem_bits(ab);
  const bool ok = (is_half(ab) && (k == 16 || k == 32)) || (ab == MElem::tf32 && (k == 8 || k == 16)) ||
                  (bits == 8 && (k == 32 || k == 64)) || (is_int4(ab) && (k == 64 || k == 128));
  if (!ok) return false;
  if (role == Role::C) return mma_layout(16, 8, 16, MElem::f16, Role::C, out, count);
  const unsigned p = 32 / bits;  // elements per 32-bit register
  if (role == Role::B) {
    count = k * 8 / 32;
    out.assign(32 * count, Coord{});
    for (unsigned l = 0; l < 32; ++l)
      for (unsigned i = 0; i < count; ++i)
        out[l * count + i] = {static_cast<uint8_t>(p * (l & 3) + i % p + 4 * p * (i / p)), static_cast<uint8_t>(l >> 2)};
    return true;
  }
  // A: k*bits/128 registers (2 or 4) of p packed elements; register j holds
  // row g + 8(j&1), packed columns p*t + (0..p-1) + 4p(j>>1): the table above.
  count = k * bits / 128 * p;
  out.assign(32 * count, Coord{});
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned i = 0; i < count; ++i) {
      const unsigned j = i / p, g = l >> 2, t = l & 3;
      out[l * count + i] = {static_cast<uint8_t>(g + 8 * (j & 1)), static_cast<uint8_t>(p * t + i % p + 4 * p * (j >> 1))};
    }
  return true;
}

unsigned sp_chunk(unsigned bits) { return bits == 32 ? 2 : bits == 4 ? 8 : 4; }

// Metadata layouts (9.7.14.6.2: Figures 119, 122, 125, 127, 129, 136/137,
// 139, 146/147; 9.7.15.6.2: Figures 176, 178, 180/181) are images. The
// text says which threads contribute (9.7.14.6.1): one thread of each group
// of four (selector 0..3) for m16n8k16 .f16/.bf16 and m16n8k8 .tf32; the
// pair T0,T1 (selector 0) or T2,T3 (1) for m16n8k32 .f16/.bf16, m16n8k16
// .tf32, m16n8k32 8-bit and m16n8k64 4-bit; all four (selector 0) for
// m16n8k64 8-bit and m16n8k128 4-bit. Which lane and bits hold which chunk
// is taken from CUTLASS's metadata layouts (ELayout of the SM80 sparse MMA
// traits, of SM120's m16n8k64/m16n8k128 in cute/atom/mma_traits_sm120_sparse.hpp
// and of the sparse GMMA ELayout_64x32/64x16/64x64), with g = r % 8,
// h = r / 8 and Q = k / sp_chunk(bits) chunks per row:
// - Q = 4 (m16n8k16 .f16/.bf16, m16n8k8 .tf32): lane 4g + sel, bits 16h + 4q;
// - Q = 8, 16/32-bit types (m16n8k32 .f16/.bf16, m16n8k16 .tf32, wgmma
//   m64nNk32 .f16/.bf16 and m64nNk16 .tf32): lane 4g + 2 sel + q/4, bits
//   16h + 4(q%4);
// - Q = 8, 8/4-bit types (m16n8k32 8-bit, m16n8k64 4-bit): lane 4g + 2 sel
//   + h, bits 4q;
// - Q = 16 (m16n8k64 8-bit, m16n8k128 4-bit, wgmma m64nNk64 8-bit; sel 0):
//   lane 4g + 2(q/8) + h, bits 4(q%8).
SpMetaPos sp_meta_pos(unsigned bits, unsigned k, unsigned sel, unsigned r, unsigned q) {
  const unsigned g = r % 8, h = r / 8, nq = k / sp_chunk(bits);
  auto pos = [](unsigned lane, unsigned bit) { return SpMetaPos{static_cast<uint8_t>(lane), static_cast<uint8_t>(bit)}; };
  if (nq <= 4) return pos(4 * g + sel, 16 * h + 4 * q);
  if (nq == 8 && bits >= 16) return pos(4 * g + 2 * sel + q / 4, 16 * h + 4 * (q % 4));
  if (nq == 8) return pos(4 * g + 2 * sel + h, 4 * q);
  return pos(4 * g + 2 * (q / 8) + h, 4 * (q % 8));
}

// 9.7.14.6.1 (and 9.7.15.6.1) Sparse matrix storage: for 2:4 (and the 4:8
// pair-wise sparsity of .s4/.u4) the chunk's two stored elements (or
// sub-chunks) are named by two 2-bit indices; 0b0000, 0b0101, 0b1010 and
// 0b1111 (both indices equal) are invalid. We read bits 1:0 as the index of
// the first stored element and bits 3:2 as the second's: that is the order
// under which mma.sp::ordered_metadata's meaningful values 0b0100, 0b1000,
// 0b1001, 0b1100, 0b1101, 0b1110 are "sorted in an increasing order starting
// from LSB" (9.7.14.6.3), which also makes every decreasing pair undefined
// there. For 1:2 (.tf32) "0b1110 and 0b0100 are the only meaningful values":
// 0b0100 = element 0 of the 2-wide chunk (its two 16-bit halves, indices 0
// and 1), 0b1110 = element 1 (halves 2, 3).
bool sp_decode(unsigned bits, unsigned nib, bool ordered, unsigned pos[2]) {
  nib &= 15;
  if (bits == 32) {
    if (nib != 0x4 && nib != 0xe) return false;
    pos[0] = nib == 0xe ? 1 : 0;
    return true;
  }
  pos[0] = nib & 3, pos[1] = nib >> 2;
  return ordered ? pos[0] < pos[1] : pos[0] != pos[1];
}

// PTX ISA 9.7.15.5.1.2.2 Matrix Descriptor Format: bits 0-13 start address,
// 16-29 leading dimension byte offset, 32-45 stride dimension byte offset
// (each encoded as (x & 0x3FFFF) >> 4), 49-51 base offset, 62-63 swizzle.
WgDesc wgmma_decode(uint64_t desc) {
  WgDesc d;
  d.start = static_cast<uint32_t>(desc & 0x3fff) << 4;
  d.lbo = static_cast<uint32_t>((desc >> 16) & 0x3fff) << 4;
  d.sbo = static_cast<uint32_t>((desc >> 32) & 0x3fff) << 4;
  d.base_offset = static_cast<uint8_t>((desc >> 49) & 7);
  d.swizzle = static_cast<uint8_t>(desc >> 62);
  return d;
}

// PTX ISA 9.7.15.5.1.2 Shared Memory Matrix Layout. In units of 16-byte
// chunks (T = 128 / bits elements each) the canonical layouts are, with W =
// 1, 8, 4, 2 chunks per swizzle row for no swizzle, 128B, 64B, 32B (the same
// tables are in CUTLASS's make_gmma_desc):
//   K-major:  ((8, m), 2) : ((W, SBO), W == 1 ? LBO : 1)
//             row r + 8j of the MN dimension, k chunk kc;
//   MN-major: none ((1, m), (8, k)) : ((-, SBO), (1, LBO))
//             swizzled ((W, m), (8, k)) : ((1, LBO), (W, SBO))
//             MN chunk c = w + W*j, k = r + 8*kk.
// The swizzle permutes 16-byte chunks within each 128-byte line: address
// bits 4..(3+B) are XORed with bits 7..(6+B), B = log2 W (Swizzle<B,4,3>),
// taken from the shared-memory address itself; that equals the ISA's
// pattern whenever the base offset is (pattern start >> 7) & 7 as required.
uint64_t wgmma_smem_addr(const WgDesc& d, unsigned bits, bool mn_major, unsigned mn, unsigned k, unsigned* sub_bit) {
  unsigned T = 128 / bits;
  unsigned W = d.swizzle == 1 ? 8 : d.swizzle == 2 ? 4 : d.swizzle == 3 ? 2 : 1;
  uint64_t lbo = d.lbo / 16, sbo = d.sbo / 16, chunk, e;
  if (!mn_major) {
    unsigned r = mn % 8, j = mn / 8, kc = k / T;
    e = k % T;
    chunk = r * W + j * sbo + kc * (W == 1 ? lbo : 1);
  } else {
    unsigned c = mn / T, r = k % 8, kk = k / 8;
    e = mn % T;
    if (W == 1) chunk = c * sbo + r + kk * lbo;
    else chunk = (c % W) + (c / W) * lbo + r * W + kk * sbo;
  }
  uint64_t a = d.start + chunk * 16 + e * bits / 8;
  if (W > 1) a ^= ((a >> 7) & (W - 1)) << 4;
  if (sub_bit) *sub_bit = bits < 8 ? static_cast<unsigned>(e * bits % 8) : 0;
  return a;
}

}  // namespace ptxcheck::interp
