// wgmma.mma_async tests: configuration, shared-memory image, kernel, spec and
// manifest. PTX ISA 9.x numbering: 9.7.15.5.2 wgmma.mma_async (shapes, types,
// operand lists), 9.7.15.5.1.1 register fragments (four 32-bit A registers
// per thread; N/2 .f32/.s32 or N/4 .f16x2 accumulator registers),
// 9.7.15.5.1.2 shared-memory layouts and 9.7.15.5.1.2.2 the matrix
// descriptor (start address, LBO, SBO in 16-byte units; swizzle mode in bits
// 62-63: 0 none, 1 128B, 2 64B, 3 32B).
#include "hw/instr/wgmma_gen.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "hw/instr/edges.hpp"

namespace ptxcheck::instrgen {
namespace {

constexpr unsigned kThreads = 128;  // one warpgroup

struct Cfg {
  std::string a, b, d;     // operand and accumulator types
  unsigned k = 16, n = 8;  // shape m64nNkK
  bool a_regs = false, satfinite = false, special = false, scale_d = true;
  int scale_a = 1, scale_b = 1;
  bool trans_a = false, trans_b = false;
  // wgmma.mma_async.sp (PTX ISA 9.7.15.6): k is the logical K (twice the
  // dense one), A the packed 64 x K/2 matrix; sel the sparsity selector;
  // unordered: some metadata indices name the second position first.
  bool sparse = false, unordered = false;
  unsigned sel = 0;
  // mma.sp (PTX ISA 9.7.14.6.3): ::ordered_metadata, .kind::f8f6f4
  bool ordered = false, kind = false;
};

bool is_float_in(const std::string& t) {
  return t == "f16" || t == "bf16" || t == "tf32" || t == "e4m3" || t == "e5m2" || t == "e3m2" || t == "e2m3" ||
         t == "e2m1";
}
unsigned in_bits(const std::string& t) {
  return t == "tf32" ? 32 : t == "f16" || t == "bf16" ? 16 : t == "b1" ? 1 : t == "s4" || t == "u4" ? 4 : 8;
}

// Bits of the exactly representable value q / 4 (|q| < 2^12) in f32 / f16.
uint32_t f32_bits(int q) {
  if (q == 0) return 0;
  const float f = static_cast<float>(q) / 4.0f;
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
uint32_t f16_bits(int q) {
  if (q == 0) return 0;
  uint32_t s = q < 0 ? 0x8000 : 0;
  uint32_t m = static_cast<uint32_t>(q < 0 ? -q : q);
  int e = -2;  // value = m * 2^e
  while (m >= 2048) {
    if (m & 1) throw std::logic_error("wgmma_gen: f16 value not exact");
    m >>= 1;
    ++e;
  }
  while (m < 1024) {
    m <<= 1;
    --e;
  }
  // value = 1.f * 2^(e + 10)
  const int ex = e + 10 + 15;
  if (ex <= 0 || ex >= 31) throw std::logic_error("wgmma_gen: f16 value out of range");
  return s | (static_cast<uint32_t>(ex) << 10) | (m & 0x3ff);
}

// One operand element of type t: a multiple of 0.5 in [-3, 3] for floating
// types (index into the table), any bits for integers and .b1; with
// special_permille > 0, that many in 1000 are +-inf, NaN or -0.
uint32_t operand(Rng& rng, const std::string& t, unsigned special_permille) {
  // +0, 0.5, 1, 1.5, 2, 3 (negatives set the sign bit)
  static const uint32_t kF16[] = {0x0000, 0x3800, 0x3c00, 0x3e00, 0x4000, 0x4200};
  static const uint32_t kBF16[] = {0x0000, 0x3f00, 0x3f80, 0x3fc0, 0x4000, 0x4040};
  static const uint32_t kTF32[] = {0x00000000, 0x3f000000, 0x3f800000, 0x3fc00000, 0x40000000, 0x40400000};
  static const uint32_t kE4M3[] = {0x00, 0x30, 0x38, 0x3c, 0x40, 0x44};
  static const uint32_t kE5M2[] = {0x00, 0x38, 0x3c, 0x3e, 0x40, 0x42};
  // mma.sp .kind::f8f6f4 (PTX ISA 9.7.14.6.3): 8-bit containers, .e3m2/.e2m3
  // in bits 5..0, .e2m1 in bits 5..2; no infinity or NaN.
  static const uint32_t kE3M2[] = {0x00, 0x08, 0x0c, 0x0e, 0x10, 0x12};
  static const uint32_t kE2M3[] = {0x00, 0x04, 0x08, 0x0c, 0x10, 0x14};
  static const uint32_t kE2M1[] = {0x00, 0x04, 0x08, 0x0c, 0x10, 0x14};
  if (t == "e3m2" || t == "e2m3" || t == "e2m1") {
    const unsigned i = static_cast<unsigned>(rng.below(6));
    const uint32_t v = t == "e3m2" ? kE3M2[i] : t == "e2m3" ? kE2M3[i] : kE2M1[i];
    return i && rng.chance(50) ? v | 0x20u : v;  // the sign is bit 5 in all three
  }
  if (t == "s8" || t == "u8") return static_cast<uint32_t>(rng.next() & 0xff);
  if (t == "s4" || t == "u4") return static_cast<uint32_t>(rng.next() & 0xf);
  if (t == "b1") return static_cast<uint32_t>(rng.next() & 1);
  const unsigned bits = in_bits(t);
  const uint32_t sign = 1u << (bits - 1);
  if (special_permille && rng.below(1000) < special_permille) {
    // +-inf, NaN, -0 (e4m3 has no infinity: its largest finite value 448)
    const unsigned kind = static_cast<unsigned>(rng.below(4));
    uint32_t inf = t == "f16" ? 0x7c00 : t == "bf16" ? 0x7f80 : t == "tf32" ? 0x7f800000 : t == "e5m2" ? 0x7c : 0x7e;
    uint32_t nan = t == "f16" ? 0x7e00 : t == "bf16" ? 0x7fc0 : t == "tf32" ? 0x7fc00000 : 0x7f;
    return kind == 0 ? inf : kind == 1 ? (inf | sign) : kind == 2 ? nan : sign;
  }
  const unsigned i = static_cast<unsigned>(rng.below(6));
  const uint32_t v = t == "f16"    ? kF16[i]
                     : t == "bf16" ? kBF16[i]
                     : t == "tf32" ? kTF32[i]
                     : t == "e4m3" ? kE4M3[i]
                                   : kE5M2[i];
  return i && rng.chance(50) ? v | sign : v;
}

// Packs elements of type t into 32-bit words.
std::vector<uint32_t> pack(Rng& rng, const std::string& t, unsigned words, unsigned special_permille) {
  const unsigned bits = in_bits(t), per = 32 / bits;
  std::vector<uint32_t> out(words, 0);
  for (auto& w : out)
    for (unsigned e = 0; e < per; ++e) w |= operand(rng, t, special_permille) << (e * bits);
  return out;
}

// An accumulator input: a multiple of 0.25 in [-64, 64] (f32), of 0.5 in
// [-32, 32] (f16, two per register), any s32 (near the limits for
// .satfinite tests).
uint32_t accumulator(Rng& rng, const Cfg& c) {
  if (c.d == "s32") {
    if (c.satfinite && rng.chance(40)) {
      const int64_t near = rng.chance(50) ? 2147483647 - static_cast<int64_t>(rng.below(1 << 20))
                                          : -2147483648LL + static_cast<int64_t>(rng.below(1 << 20));
      return static_cast<uint32_t>(near);
    }
    return static_cast<uint32_t>(rng.next());
  }
  if (c.d == "f16")
    return f16_bits(2 * (static_cast<int>(rng.below(129)) - 64)) |
           f16_bits(2 * (static_cast<int>(rng.below(129)) - 64)) << 16;
  if (c.special && rng.chance(3)) return rng.chance(50) ? 0x80000000u : 0xff800000u;  // -0, -inf
  return f32_bits(static_cast<int>(rng.below(513)) - 256);
}

// A canonical layout of one operand (R rows of 32 bytes of K: every wgmma
// shape's K extent is 32 bytes) and its descriptor fields.
struct Layout {
  unsigned mode = 0;  // descriptor swizzle field
  uint32_t lbo = 0, sbo = 0, kofs = 0, bytes = 0;
  std::string what;   // for the kernel comment
};

Layout pick_layout(Rng& rng, unsigned rows, bool mn_major) {
  Layout l;
  l.bytes = 32 * rows;
  if (!mn_major) {
    // K-major: rows of 32 bytes; no swizzle: 8x16-byte core matrices with
    // the two K chunks LBO apart and 8-row groups SBO apart; swizzled: one
    // row per swizzle line (W x 16 bytes), 8-row groups SBO = 8 lines apart,
    // the K extent starting kofs bytes into the line.
    static const unsigned kModes[] = {0, 1, 2, 3};
    l.mode = kModes[rng.below(4)];
    if (l.mode == 0) {
      if (rng.chance(50)) {
        l.lbo = 128, l.sbo = 256;
      } else {
        l.lbo = rows / 8 * 128, l.sbo = 128;
      }
      l.what = "K-major, no swizzle";
      return l;
    }
    const unsigned line = l.mode == 1 ? 128 : l.mode == 2 ? 64 : 32;
    l.lbo = 16;  // not used by swizzled K-major layouts (encoded 1)
    l.sbo = 8 * line;
    l.kofs = 32 * static_cast<uint32_t>(rng.below(line / 32));
    l.bytes = line * rows;
    l.what = "K-major, " + std::to_string(line) + "B swizzle, K at +" + std::to_string(l.kofs);
    return l;
  }
  // MN-major (.f16/.bf16 with imm-trans 1): no swizzle: core matrices of 8
  // MN elements (16 bytes) x 8 K rows, MN chunks SBO apart, the two 8-row K
  // groups LBO apart; swizzled with W chunks per line: atoms of 8 K rows x W
  // chunks, atoms along MN LBO apart, K groups SBO apart. A swizzle is drawn
  // only when the MN extent fills whole lines.
  std::vector<unsigned> modes = {0};
  for (unsigned m : {1u, 2u, 3u}) {
    const unsigned w = m == 1 ? 8 : m == 2 ? 4 : 2;
    if ((rows / 8) % w == 0) modes.push_back(m);
  }
  l.mode = modes[rng.below(modes.size())];
  const unsigned w = l.mode == 0 ? 1 : l.mode == 1 ? 8 : l.mode == 2 ? 4 : 2;
  const uint32_t atom = 128 * w, atoms = rows / (8 * w);
  if (l.mode == 0) {
    if (rng.chance(50)) {
      l.sbo = 128, l.lbo = rows / 8 * 128;
    } else {
      l.lbo = 128, l.sbo = 256;
    }
    l.what = "MN-major, no swizzle";
  } else {
    if (rng.chance(50)) {
      l.lbo = atom, l.sbo = atoms * atom;
    } else {
      l.sbo = atom, l.lbo = 2 * atom;
    }
    l.what = "MN-major, " + std::to_string(16 * w) + "B swizzle";
  }
  return l;
}

// A canonical layout of the B operand of wgmma.mma_async.sp: N rows of 64
// bytes of K (four 16-byte chunks). K-major: no swizzle (chunks LBO apart),
// 64B or 128B swizzle (a 32-byte line cannot hold four chunks, 9.7.15.5.1.2
// formula; docs/mma.md); MN-major: four 8-row K groups.
Layout pick_layout_sp_b(Rng& rng, unsigned rows, bool mn_major) {
  Layout l;
  l.bytes = 64 * rows;
  if (!mn_major) {
    static const unsigned kModes[] = {0, 1, 2};
    l.mode = kModes[rng.below(3)];
    if (l.mode == 0) {
      if (rng.chance(50)) {
        l.lbo = 128, l.sbo = 512;
      } else {
        l.lbo = rows / 8 * 128, l.sbo = 128;
      }
      l.what = "K-major, no swizzle";
      return l;
    }
    const unsigned line = l.mode == 1 ? 128 : 64;
    l.lbo = 16;
    l.sbo = 8 * line;
    l.kofs = 32 * static_cast<uint32_t>(rng.below(line / 32 - 1));
    l.bytes = line * rows;
    l.what = "K-major, " + std::to_string(line) + "B swizzle, K at +" + std::to_string(l.kofs);
    return l;
  }
  std::vector<unsigned> modes = {0};
  for (unsigned m : {1u, 2u, 3u}) {
    const unsigned w = m == 1 ? 8 : m == 2 ? 4 : 2;
    if ((rows / 8) % w == 0) modes.push_back(m);
  }
  l.mode = modes[rng.below(modes.size())];
  const unsigned w = l.mode == 0 ? 1 : l.mode == 1 ? 8 : l.mode == 2 ? 4 : 2;
  const uint32_t atom = 128 * w, atoms = rows / (8 * w);
  if (l.mode == 0) {
    if (rng.chance(50)) {
      l.sbo = 128, l.lbo = rows / 8 * 128;
    } else {
      l.lbo = 128, l.sbo = 512;
    }
    l.what = "MN-major, no swizzle";
  } else {
    if (rng.chance(50)) {
      l.lbo = atom, l.sbo = atoms * atom;
    } else {
      l.sbo = atom, l.lbo = 4 * atom;
    }
    l.what = "MN-major, " + std::to_string(16 * w) + "B swizzle";
  }
  return l;
}

// One sparsity-metadata register: eight 4-bit chunk indices, each valid
// (9.7.15.6.1): 1:2 (.tf32) 0b0100 or 0b1110; 2:4 two different 2-bit
// positions, ascending unless `unordered` allows either order.
uint32_t sp_meta_word(Rng& rng, bool tf32, bool unordered) {
  uint32_t w = 0;
  for (unsigned j = 0; j < 8; ++j) {
    uint32_t nib;
    if (tf32) {
      nib = rng.chance(50) ? 0x4 : 0xe;
    } else {
      unsigned p0 = static_cast<unsigned>(rng.below(4)), p1 = static_cast<unsigned>(rng.below(3));
      if (p1 >= p0) ++p1;
      if (!unordered && p0 > p1) std::swap(p0, p1);
      nib = p0 | p1 << 2;
    }
    w |= nib << (4 * j);
  }
  return w;
}

uint64_t desc_const(const Layout& l) {
  return (uint64_t{l.mode} << 62) | (uint64_t{(l.sbo & 0x3FFFF) >> 4} << 32) | (uint64_t{(l.lbo & 0x3FFFF) >> 4} << 16);
}

std::string hex64(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

Cfg pick_cfg(Rng& rng) {
  Cfg c;
  // Types in the proportions of the ISA's families.
  switch (rng.below(8)) {
    case 0: c.a = c.b = "f16"; c.d = rng.chance(50) ? "f16" : "f32"; c.k = 16; break;
    case 1: c.a = c.b = "bf16"; c.d = "f32"; c.k = 16; break;
    case 2: c.a = c.b = "tf32"; c.d = "f32"; c.k = 8; break;
    case 3:
    case 4:
      c.a = rng.chance(50) ? "e4m3" : "e5m2";
      c.b = rng.chance(50) ? "e4m3" : "e5m2";
      c.d = rng.chance(50) ? "f16" : "f32";
      c.k = 32;
      break;
    case 5:
    case 6:
      c.a = rng.chance(50) ? "s8" : "u8";
      c.b = rng.chance(50) ? "s8" : "u8";
      c.d = "s32";
      c.k = 32;
      c.satfinite = rng.chance(50);
      break;
    default: c.a = c.b = "b1"; c.d = "s32"; c.k = 256; break;
  }
  // N: 8..256 in steps of 8 (integer and .b1: 8, 16, 24, then steps of 16),
  // mostly small so that the specs stay small.
  std::vector<unsigned> ns;
  for (unsigned n = 8; n <= 256; n += 8)
    if (is_float_in(c.a) || n <= 24 || n % 16 == 0) ns.push_back(n);
  const unsigned small = rng.chance(75) ? 8 : static_cast<unsigned>(ns.size());
  c.n = ns[rng.below(std::min<size_t>(small, ns.size()))];
  c.a_regs = rng.chance(30);
  c.scale_d = rng.chance(75);
  if (is_float_in(c.a)) {
    c.scale_a = rng.chance(25) ? -1 : 1;
    c.scale_b = rng.chance(25) ? -1 : 1;
    c.special = c.d == "f32" && rng.chance(25);
  }
  if (c.a == "f16" || c.a == "bf16") {
    c.trans_a = !c.a_regs && rng.chance(40);
    c.trans_b = rng.chance(40);
  }
  return c;
}

// The configuration of a wgmma.mma_async.sp test (9.7.15.6.3): the dense
// families without .b1, K doubled, and a selector (0 or 1 for 16/32-bit
// types, 0 for 8-bit ones).
Cfg pick_cfg_sp(Rng& rng) {
  Cfg c;
  c.sparse = true;
  switch (rng.below(7)) {
    case 0: c.a = c.b = "f16"; c.d = rng.chance(50) ? "f16" : "f32"; c.k = 32; break;
    case 1: c.a = c.b = "bf16"; c.d = "f32"; c.k = 32; break;
    case 2: c.a = c.b = "tf32"; c.d = "f32"; c.k = 16; break;
    case 3:
    case 4:
      c.a = rng.chance(50) ? "e4m3" : "e5m2";
      c.b = rng.chance(50) ? "e4m3" : "e5m2";
      c.d = rng.chance(50) ? "f16" : "f32";
      c.k = 64;
      break;
    default:
      c.a = rng.chance(50) ? "s8" : "u8";
      c.b = rng.chance(50) ? "s8" : "u8";
      c.d = "s32";
      c.k = 64;
      c.satfinite = rng.chance(50);
      break;
  }
  std::vector<unsigned> ns;
  for (unsigned n = 8; n <= 256; n += 8)
    if (is_float_in(c.a) || n <= 24 || n % 16 == 0) ns.push_back(n);
  const unsigned small = rng.chance(75) ? 8 : static_cast<unsigned>(ns.size());
  c.n = ns[rng.below(std::min<size_t>(small, ns.size()))];
  c.a_regs = rng.chance(30);
  c.scale_d = rng.chance(75);
  if (is_float_in(c.a)) {
    c.scale_a = rng.chance(25) ? -1 : 1;
    c.scale_b = rng.chance(25) ? -1 : 1;
    c.special = c.d == "f32" && rng.chance(25);
  }
  if (c.a == "f16" || c.a == "bf16") {
    c.trans_a = !c.a_regs && rng.chance(40);
    c.trans_b = rng.chance(40);
  }
  c.sel = in_bits(c.a) == 8 ? 0 : static_cast<unsigned>(rng.below(2));
  c.unordered = c.a != "tf32" && rng.chance(20);
  return c;
}

Test build_test(Rng& rng, const Cfg& c, uint64_t seed, unsigned index);
Test build_mma_sp(Rng& rng, const Cfg& c, uint64_t seed, unsigned index);

// The configuration of an mma.sp test (PTX ISA 9.7.14.6.3): shape, types,
// plain or ::ordered_metadata, a selector the shape defines (9.7.14.6.1:
// 0..3 with 4 chunks per row, 0/1 with 8, 0 with 16), `unordered` index
// pairs only for plain mma.sp; c.k is the logical K.
Cfg pick_cfg_mma_sp(Rng& rng) {
  Cfg c;
  c.sparse = true;
  bool& ordered = c.ordered;
  bool& kind = c.kind;
  ordered = rng.chance(50);
  switch (rng.below(8)) {
    case 0: c.a = c.b = "f16"; c.d = rng.chance(50) ? "f16" : "f32"; c.k = rng.chance(50) ? 16 : 32; break;
    case 1: c.a = c.b = "bf16"; c.d = "f32"; c.k = rng.chance(50) ? 16 : 32; break;
    case 2: c.a = c.b = "tf32"; c.d = "f32"; c.k = rng.chance(50) ? 8 : 16; break;
    case 3:
      c.a = rng.chance(50) ? "e4m3" : "e5m2";
      c.b = rng.chance(50) ? "e4m3" : "e5m2";
      c.d = "f32";
      c.k = 64;
      break;
    case 4: {
      static const char* const kF[] = {"e4m3", "e5m2", "e3m2", "e2m3", "e2m1"};
      c.a = kF[rng.below(5)];
      c.b = kF[rng.below(5)];
      c.d = rng.chance(50) ? "f16" : "f32";
      c.k = 64;
      kind = ordered = true;  // .kind::f8f6f4 exists only with ::ordered_metadata
      break;
    }
    case 5:
    case 6:
      c.a = rng.chance(50) ? "s8" : "u8";
      c.b = rng.chance(50) ? "s8" : "u8";
      c.d = "s32";
      c.k = rng.chance(50) ? 32 : 64;
      c.satfinite = rng.chance(50);
      break;
    default:
      c.a = rng.chance(50) ? "s4" : "u4";
      c.b = rng.chance(50) ? "s4" : "u4";
      c.d = "s32";
      c.k = rng.chance(50) ? 64 : 128;
      c.satfinite = rng.chance(50);
      break;
  }
  const unsigned chunk = c.a == "tf32" ? 2 : in_bits(c.a) == 4 ? 8 : 4, chunks = c.k / chunk;
  c.sel = static_cast<unsigned>(rng.below(chunks <= 4 ? 4 : chunks == 8 ? 2 : 1));
  c.unordered = !ordered && c.a != "tf32" && rng.chance(40);
  c.scale_d = true;
  c.special = c.d == "f32" && !kind && (c.a == "f16" || c.a == "bf16" || c.a == "tf32" || c.a == "e4m3" ||
                                       c.a == "e5m2") && rng.chance(25);
  return c;
}

}  // namespace

Test generate_mma_sp(uint64_t seed, unsigned index) {
  Rng rng(seed * 0x100000001b3ull ^ (uint64_t{index} << 20) ^ 0x6d5a);
  rng.next();
  const Cfg c = pick_cfg_mma_sp(rng);
  return build_mma_sp(rng, c, seed, index);
}

Test generate_wgmma(uint64_t seed, unsigned index) {
  Rng rng(seed * 0x100000001b3ull ^ (uint64_t{index} << 20) ^ 0x3a9c);
  rng.next();
  const Cfg c = pick_cfg(rng);
  return build_test(rng, c, seed, index);
}

Test generate_wgmma_sp(uint64_t seed, unsigned index) {
  Rng rng(seed * 0x100000001b3ull ^ (uint64_t{index} << 20) ^ 0x5b12);
  rng.next();
  const Cfg c = pick_cfg_sp(rng);
  return build_test(rng, c, seed, index);
}

namespace {

Test build_test(Rng& rng, const Cfg& c, uint64_t seed, unsigned index) {
  Test t;
  char stem[64];
  std::snprintf(stem, sizeof stem, "%s%llu_%04u", c.sparse ? "s" : "w", static_cast<unsigned long long>(seed), index);
  t.stem = stem;

  // Shared-memory image: A (64 rows) at 0 unless A is in registers, B (N
  // rows) at the next 1024-byte boundary; both regions 1024-aligned so that
  // every swizzle pattern starts at its region (descriptor base offset 0).
  // .sp: A is the packed 64 x K/2 matrix (rows of 32 bytes as in the dense
  // forms), B has rows of 64 bytes of K.
  Layout la, lb = c.sparse ? pick_layout_sp_b(rng, c.n, c.trans_b) : pick_layout(rng, c.n, c.trans_b);
  uint32_t a_off = 0, b_off = 0;
  if (!c.a_regs) {
    la = pick_layout(rng, 64, c.trans_a);
    b_off = (la.bytes + 1023) / 1024 * 1024;
  }
  const uint32_t img_bytes = (b_off + lb.bytes + 1023) / 1024 * 1024;
  const unsigned img_words = img_bytes / 4;
  std::vector<uint32_t> image(img_words, 0);
  // Special operands: about one dot product in four meets one (2K operand
  // elements each), so that most results stay finite and check the layout.
  const unsigned sp = c.special ? (c.sparse ? 320 : 160) / c.k : 0;
  if (!c.a_regs) {
    auto v = pack(rng, c.a, la.bytes / 4, sp);
    std::copy(v.begin(), v.end(), image.begin() + a_off / 4);
  }
  {
    auto v = pack(rng, c.b, lb.bytes / 4, sp);
    std::copy(v.begin(), v.end(), image.begin() + b_off / 4);
  }
  const unsigned nd = c.d == "f16" ? c.n / 4 : c.n / 2;
  std::vector<uint32_t> acc(kThreads * nd);
  for (auto& w : acc) w = accumulator(rng, c);
  std::vector<uint32_t> afrag;
  if (c.a_regs) afrag = pack(rng, c.a, kThreads * 4, sp);
  std::vector<uint32_t> meta;  // .sp: every thread's sp-meta register
  if (c.sparse)
    for (unsigned i = 0; i < kThreads; ++i) meta.push_back(sp_meta_word(rng, c.a == "tf32", c.unordered));

  // The instruction (9.7.15.5.2 syntax per type family).
  std::string mn = std::string(c.sparse ? "wgmma.mma_async.sp" : "wgmma.mma_async") + ".sync.aligned.m64n" +
                   std::to_string(c.n) + "k" + std::to_string(c.k) + "." + c.d + "." + c.a + "." + c.b;
  if (c.a == "b1") mn += ".and.popc";
  if (c.satfinite) mn += ".satfinite";
  const bool f32d = c.d == "f32";
  const std::string dreg = f32d ? "%f" : "%d";
  std::string dlist = "{";
  for (unsigned i = 0; i < nd; ++i) dlist += (i ? ", " : "") + dreg + std::to_string(i);
  dlist += "}";
  std::string ops = dlist + ", " + (c.a_regs ? std::string("{%a0, %a1, %a2, %a3}") : std::string("%rd4")) + ", %rd5";
  if (c.sparse) ops += ", %r7, " + std::to_string(c.sel);  // sp-meta, sp-sel
  ops += ", %p1";
  if (is_float_in(c.a)) ops += ", " + std::to_string(c.scale_a) + ", " + std::to_string(c.scale_b);
  if (c.a == "f16" || c.a == "bf16") {
    if (!c.a_regs) ops += std::string(", ") + (c.trans_a ? "1" : "0");
    ops += std::string(", ") + (c.trans_b ? "1" : "0");
  }

  const unsigned acc_base = img_words * 4, a_base = (img_words + kThreads * nd) * 4;
  const unsigned meta_base = (img_words + kThreads * nd + static_cast<unsigned>(afrag.size())) * 4;
  std::string body;
  auto L = [&](const std::string& s) { body += "\t" + s + "\n"; };
  L("mov.u32 %r0, %tid.x;");
  L("ld.param.u64 %rd0, [in_ptr];");
  L("cvta.to.global.u64 %rd0, %rd0;");
  L("ld.param.u64 %rd1, [out_ptr];");
  L("cvta.to.global.u64 %rd1, %rd1;");
  L("mov.u32 %r1, smem;");
  L("mov.u32 %r2, %r0;");
  body += "COPY:\t// the image, word by word (generic-proxy writes)\n";
  L("mul.wide.u32 %rd2, %r2, 4;");
  L("add.s64 %rd3, %rd0, %rd2;");
  L("ld.global.b32 %r3, [%rd3];");
  L("shl.b32 %r4, %r2, 2;");
  L("add.u32 %r4, %r4, %r1;");
  L("st.shared.b32 [%r4], %r3;");
  L("add.u32 %r2, %r2, 128;");
  L("setp.lt.u32 %p0, %r2, " + std::to_string(img_words) + ";");
  L("@%p0 bra COPY;");
  L("mul.wide.u32 %rd2, %r0, " + std::to_string(nd * 4) + ";");
  L("add.s64 %rd3, %rd0, %rd2;");
  for (unsigned i = 0; i < nd; ++i)
    L(std::string("ld.global.") + (f32d ? "f32 " : "b32 ") + dreg + std::to_string(i) + ", [%rd3+" +
      std::to_string(acc_base + 4 * i) + "];");
  if (c.a_regs) {
    L("mul.wide.u32 %rd2, %r0, 16;");
    L("add.s64 %rd3, %rd0, %rd2;");
    for (unsigned j = 0; j < 4; ++j)
      L("ld.global.b32 %a" + std::to_string(j) + ", [%rd3+" + std::to_string(a_base + 4 * j) + "];");
  }
  if (c.sparse) {
    L("mul.wide.u32 %rd2, %r0, 4;");
    L("add.s64 %rd3, %rd0, %rd2;");
    L("ld.global.b32 %r7, [%rd3+" + std::to_string(meta_base) + "];\t// sp-meta");
  }
  L("fence.proxy.async.shared::cta;\t// the image -> wgmma's async-proxy reads (PTX ISA 8.6)");
  L("bar.sync 0;");
  auto desc = [&](const char* reg, const char* tmp, uint32_t off, const Layout& l) {
    L(std::string("add.u32 ") + tmp + ", %r1, " + std::to_string(off + l.kofs) + ";\t// " + l.what + ", LBO " +
      std::to_string(l.lbo) + ", SBO " + std::to_string(l.sbo));
    L(std::string("shr.u32 ") + tmp + ", " + tmp + ", 4;");
    L(std::string("and.b32 ") + tmp + ", " + tmp + ", 16383;");
    L(std::string("cvt.u64.u32 ") + reg + ", " + tmp + ";");
    L(std::string("or.b64 ") + reg + ", " + reg + ", " + hex64(desc_const(l)) + ";");
  };
  if (!c.a_regs) desc("%rd4", "%r5", a_off, la);
  desc("%rd5", "%r6", b_off, lb);
  L(std::string(c.scale_d ? "setp.ne.u32" : "setp.eq.u32") + " %p1, %r0, 0xffffffff;\t// scale-d = " +
    (c.scale_d ? "1" : "0"));
  L("wgmma.fence.sync.aligned;");
  L(mn + " " + ops + ";");
  L("wgmma.commit_group.sync.aligned;");
  L("wgmma.wait_group.sync.aligned 0;");
  L("mul.wide.u32 %rd2, %r0, " + std::to_string(nd * 8) + ";");
  L("add.s64 %rd6, %rd1, %rd2;");
  for (unsigned i = 0; i < nd; ++i)
    L(std::string("st.global.") + (f32d ? "f32" : "b32") + " [%rd6+" + std::to_string(8 * i) + "], " + dreg +
      std::to_string(i) + ";");
  L("ret;");

  std::string decls = "\t.shared .align 1024 .b8 smem[" + std::to_string(img_bytes) +
                      "];\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<" + (c.sparse ? "8" : "7") + ">;\n\t.reg .b64 %rd<7>;\n";
  decls += std::string("\t.reg ") + (f32d ? ".f32 %f<" : ".b32 %d<") + std::to_string(nd) + ">;\n";
  if (c.a_regs) decls += "\t.reg .b32 %a<4>;\n";

  nlohmann::json in_values = nlohmann::json::array();
  for (uint32_t w : image) in_values.push_back(w);
  for (uint32_t w : acc) in_values.push_back(w);
  for (uint32_t w : afrag) in_values.push_back(w);
  for (uint32_t w : meta) in_values.push_back(w);

  Slot s;
  s.mnemonic = mn;
  s.ty = c.d == "f16" ? "f16x2" : c.d;
  s.bits = 32;
  s.nan_any = c.special;
  nlohmann::json slots = nlohmann::json::array();
  for (unsigned i = 0; i < nd; ++i) {
    t.slots.push_back(s);
    slots.push_back({{"mnemonic", s.mnemonic}, {"type", s.ty}, {"bits", s.bits}, {"approx", false},
                     {"nan_any", s.nan_any}});
  }
  t.mnemonics.push_back(mn);

  // wgmma needs PTX ISA 8.0; mixed .s8/.u8 operands 8.4 (ptxas: "WGMMA with
  // mixed integer types requires PTX ISA .version 8.4").
  // wgmma.mma_async.sp: PTX ISA 8.2.
  const std::string version = c.d == "s32" && c.a != c.b ? "8.4" : c.sparse ? "8.2" : "8.0";
  Kernel k;
  k.sm = 90;
  k.name = t.stem + ".sm_90";
  std::string summary = mn + (c.a_regs ? ", A from registers" : ", A " + la.what) + ", B " + lb.what +
                        ", scale-d " + (c.scale_d ? "1" : "0") + (c.special ? ", inf/NaN/-0 operands" : "") +
                        (c.sparse ? ", sp-sel " + std::to_string(c.sel) : "") +
                        (c.unordered ? ", metadata index pairs in either order" : "");
  k.ptx = std::string("// Generated by ptxcheck-instrgen wgmma") + (c.sparse ? " --sparse" : "") + " (seed " + std::to_string(seed) + ", test " +
          std::to_string(index) + "); do not edit.\n// " + summary +
          "\n.version " + version + "\n.target sm_90a\n.address_size 64\n\n.visible .entry instr(\n\t.param .u64 in_ptr,\n\t"
          ".param .u64 out_ptr\n)\n.reqntid 128\n{\n" +
          decls + body + "}\n";
  nlohmann::json spec = {
      {"ptx", k.name + ".ptx"},
      {"kernel", "instr"},
      {"grid", {1, 1, 1}},
      {"block", {kThreads, 1, 1}},
      {"dynamic_shared_bytes", 0},
      {"buffers",
       {{"in", {{"type", "u32"}, {"count", in_values.size()}, {"init", {{"values", in_values}}}}},
        {"out", {{"type", "u64"}, {"count", kThreads * nd}, {"init", "zero"}}}}},
      {"args", {{{"buffer", "in"}}, {{"buffer", "out"}}}},
      {"outputs", {"out"}}};
  k.spec_json = spec.dump(1) + "\n";
  nlohmann::json man = {{"format", "ptxcheck-instrgen-manifest/1"}, {"spec", k.name + ".json"},
                        {"output", "out"}, {"threads", kThreads}, {"slots_per_thread", nd},
                        {"slots", slots}};
  k.manifest_json = man.dump(1) + "\n";
  t.variants.push_back(std::move(k));
  return t;
}


// An mma.sp test: one warp loads its A, B, C and metadata registers from
// `in` (per lane, in that order of regions), issues the instruction and
// stores every D register to its own 64-bit slot of `out`. Variant sm_80
// (f16/bf16/tf32/integer), sm_89 (.e4m3/.e5m2) or sm_120 (.kind::f8f6f4,
// target sm_120a).
Test build_mma_sp(Rng& rng, const Cfg& c, uint64_t seed, unsigned index) {
  const bool ordered = c.ordered, kind = c.kind;
  Test t;
  char stem[64];
  std::snprintf(stem, sizeof stem, "p%llu_%04u", static_cast<unsigned long long>(seed), index);
  t.stem = stem;
  const unsigned na = c.k * in_bits(c.a) / 128, nb = c.k * in_bits(c.b) / 128, nd = c.d == "f16" ? 2 : 4;
  const unsigned sp = c.special ? 160 / c.k : 0;
  std::vector<uint32_t> a = pack(rng, c.a, 32 * na, sp), b = pack(rng, c.b, 32 * nb, sp);
  std::vector<uint32_t> acc(32 * nd);
  for (auto& w : acc) w = accumulator(rng, c);
  std::vector<uint32_t> meta;
  for (unsigned l = 0; l < 32; ++l) meta.push_back(sp_meta_word(rng, c.a == "tf32", c.unordered));

  std::string mn = std::string(ordered ? "mma.sp::ordered_metadata" : "mma.sp") + ".sync.aligned.m16n8k" +
                   std::to_string(c.k) + ".row.col" + (kind ? ".kind::f8f6f4" : "") + (c.satfinite ? ".satfinite" : "") +
                   "." + c.d + "." + c.a + "." + c.b + "." + c.d;
  const bool f32d = c.d == "f32";
  const std::string dreg = f32d ? "%f" : "%d", creg = f32d ? "%g" : "%c";
  auto list = [](const std::string& r, unsigned n) {
    std::string s = "{";
    for (unsigned i = 0; i < n; ++i) s += (i ? ", " : "") + r + std::to_string(i);
    return s + "}";
  };
  const unsigned boff = 32 * na * 4, coff = boff + 32 * nb * 4, eoff = coff + 32 * nd * 4;
  std::string body;
  auto L = [&](const std::string& s) { body += "\t" + s + "\n"; };
  L("mov.u32 %r0, %tid.x;");
  L("ld.param.u64 %rd0, [in_ptr];");
  L("cvta.to.global.u64 %rd0, %rd0;");
  L("ld.param.u64 %rd1, [out_ptr];");
  L("cvta.to.global.u64 %rd1, %rd1;");
  auto load = [&](const std::string& reg, unsigned n, unsigned off, const char* ty) {
    L("mul.wide.u32 %rd2, %r0, " + std::to_string(4 * n) + ";");
    L("add.s64 %rd3, %rd0, %rd2;");
    for (unsigned i = 0; i < n; ++i)
      L(std::string("ld.global.") + ty + " " + reg + std::to_string(i) + ", [%rd3+" + std::to_string(off + 4 * i) + "];");
  };
  load("%a", na, 0, "b32");
  load("%b", nb, boff, "b32");
  load(creg, nd, coff, f32d ? "f32" : "b32");
  L("mul.wide.u32 %rd2, %r0, 4;");
  L("add.s64 %rd3, %rd0, %rd2;");
  L("ld.global.b32 %e, [%rd3+" + std::to_string(eoff) + "];\t// metadata");
  L(mn + " " + list(dreg, nd) + ", " + list("%a", na) + ", " + list("%b", nb) + ", " + list(creg, nd) + ", %e, " +
    std::to_string(c.sel) + ";");
  L("mul.wide.u32 %rd2, %r0, " + std::to_string(nd * 8) + ";");
  L("add.s64 %rd4, %rd1, %rd2;");
  for (unsigned i = 0; i < nd; ++i)
    L(std::string("st.global.") + (f32d ? "f32" : "b32") + " [%rd4+" + std::to_string(8 * i) + "], " + dreg +
      std::to_string(i) + ";");
  L("ret;");
  const std::string cd = f32d ? ".f32" : ".b32";
  std::string decls = "\t.reg .b32 %r<1>;\n\t.reg .b64 %rd<5>;\n\t.reg .b32 %a<" + std::to_string(na) + ">;\n\t.reg .b32 %b<" +
                      std::to_string(nb) + ">;\n\t.reg " + cd + " " + creg + "<" + std::to_string(nd) + ">;\n\t.reg " + cd +
                      " " + dreg + "<" + std::to_string(nd) + ">;\n\t.reg .b32 %e;\n";

  nlohmann::json in_values = nlohmann::json::array();
  for (const auto* v : {&a, &b, &acc, &meta})
    for (uint32_t w : *v) in_values.push_back(w);
  Slot s;
  s.mnemonic = mn;
  s.ty = c.d == "f16" ? "f16x2" : c.d;
  s.bits = 32;
  s.nan_any = c.special;
  nlohmann::json slots = nlohmann::json::array();
  for (unsigned i = 0; i < nd; ++i) {
    t.slots.push_back(s);
    slots.push_back({{"mnemonic", s.mnemonic}, {"type", s.ty}, {"bits", s.bits}, {"approx", false},
                     {"nan_any", s.nan_any}});
  }
  t.mnemonics.push_back(mn);
  // Targets as ptxas 13 accepts them: fp8 needs sm_89, .kind::f8f6f4 sm_120a
  // (PTX ISA 8.8); ::ordered_metadata needs PTX ISA 8.5.
  const bool fp8 = c.a == "e4m3" || c.a == "e5m2";
  Kernel k;
  k.sm = kind ? 120 : fp8 ? 89 : 80;
  k.name = t.stem + ".sm_" + std::to_string(k.sm);
  const std::string target = kind ? "sm_120a" : fp8 ? "sm_89" : "sm_80";
  const std::string summary = mn + ", selector " + std::to_string(c.sel) + (c.special ? ", inf/NaN/-0 operands" : "") +
                              (c.unordered ? ", metadata index pairs in either order" : "");
  k.ptx = "// Generated by ptxcheck-instrgen mma-sp (seed " + std::to_string(seed) + ", test " + std::to_string(index) +
          "); do not edit.\n// " + summary + "\n.version " + (kind ? "8.8" : "8.5") + "\n.target " + target +
          "\n.address_size 64\n\n.visible .entry instr(\n\t.param .u64 in_ptr,\n\t.param .u64 out_ptr\n)\n"
          ".reqntid 32\n{\n" + decls + body + "}\n";
  nlohmann::json spec = {
      {"ptx", k.name + ".ptx"},
      {"kernel", "instr"},
      {"grid", {1, 1, 1}},
      {"block", {32, 1, 1}},
      {"dynamic_shared_bytes", 0},
      {"buffers",
       {{"in", {{"type", "u32"}, {"count", in_values.size()}, {"init", {{"values", in_values}}}}},
        {"out", {{"type", "u64"}, {"count", 32 * nd}, {"init", "zero"}}}}},
      {"args", {{{"buffer", "in"}}, {{"buffer", "out"}}}},
      {"outputs", {"out"}}};
  k.spec_json = spec.dump(1) + "\n";
  nlohmann::json man = {{"format", "ptxcheck-instrgen-manifest/1"}, {"spec", k.name + ".json"},
                        {"output", "out"}, {"threads", 32}, {"slots_per_thread", nd},
                        {"slots", slots}};
  k.manifest_json = man.dump(1) + "\n";
  t.variants.push_back(std::move(k));
  return t;
}

}  // namespace

}  // namespace ptxcheck::instrgen
