// wgmma, wgmma.mma_async.sp and mma.sp tests: the random configuration
// (shape, types, operand sources, flags), operand and accumulator values,
// shared-memory layouts with their descriptors, and sparsity metadata. PTX
// ISA sections: wgmma_gen.cpp's header comment.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "hw/instr/wgmma_detail.hpp"

namespace ptxcheck::instrgen::wgmma_detail {

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
    return f16_bits(2 * (static_cast<int>(rng.below(129)) - 64)) | f16_bits(2 * (static_cast<int>(rng.below(129)) - 64))
                                                                       << 16;
  if (c.special && rng.chance(3)) return rng.chance(50) ? 0x80000000u : 0xff800000u;  // -0, -inf
  return f32_bits(static_cast<int>(rng.below(513)) - 256);
}

Layout pick_layout(Rng& rng, unsigned rows, bool mn_major, unsigned chunks) {
  Layout l;
  const uint32_t kbytes = 16 * chunks;
  l.bytes = kbytes * rows;
  if (!mn_major) {
    // K-major: rows of K; no swizzle: 8x16-byte core matrices with the K
    // chunks LBO apart and 8-row groups SBO apart; swizzled: one row per
    // swizzle line (W x 16 bytes), 8-row groups SBO = 8 lines apart, the K
    // extent starting kofs bytes into the line. A swizzle is drawn only when
    // its line holds the K extent (a 32-byte line cannot hold four chunks,
    // 9.7.15.5.1.2 formula; docs/mma.md).
    l.mode = static_cast<unsigned>(rng.below(kbytes <= 32 ? 4 : kbytes <= 64 ? 3 : 2));
    if (l.mode == 0) {
      if (rng.chance(50)) {
        l.lbo = 128, l.sbo = 128 * chunks;
      } else {
        l.lbo = rows / 8 * 128, l.sbo = 128;
      }
      l.what = "K-major, no swizzle";
      return l;
    }
    const unsigned line = l.mode == 1 ? 128 : l.mode == 2 ? 64 : 32;
    l.lbo = 16;  // not used by swizzled K-major layouts (encoded 1)
    l.sbo = 8 * line;
    l.kofs = 32 * static_cast<uint32_t>(rng.below((line - kbytes) / 32 + 1));
    l.bytes = line * rows;
    l.what = "K-major, " + std::to_string(line) + "B swizzle, K at +" + std::to_string(l.kofs);
    return l;
  }
  // MN-major (.f16/.bf16 with imm-trans 1): no swizzle: core matrices of 8
  // MN elements (16 bytes) x 8 K rows, MN chunks SBO apart, the 8-row K
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
      l.lbo = 128, l.sbo = 128 * chunks;
    }
    l.what = "MN-major, no swizzle";
  } else {
    if (rng.chance(50)) {
      l.lbo = atom, l.sbo = atoms * atom;
    } else {
      l.sbo = atom, l.lbo = chunks * atom;
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

namespace {

// The operand and accumulator types of a wgmma test, in the proportions of
// the ISA's families (.b1 only if with_b1), and the dense K (32 bytes of
// the operand type; 256 for .b1).
void pick_types(Rng& rng, Cfg& c, bool with_b1) {
  static const unsigned kFamily[] = {0, 1, 2, 3, 3, 4, 4, 5};
  switch (kFamily[rng.below(with_b1 ? 8 : 7)]) {
    case 0:
      c.a = c.b = "f16";
      c.d = rng.chance(50) ? "f16" : "f32";
      c.k = 16;
      break;
    case 1:
      c.a = c.b = "bf16";
      c.d = "f32";
      c.k = 16;
      break;
    case 2:
      c.a = c.b = "tf32";
      c.d = "f32";
      c.k = 8;
      break;
    case 3:
      c.a = rng.chance(50) ? "e4m3" : "e5m2";
      c.b = rng.chance(50) ? "e4m3" : "e5m2";
      c.d = rng.chance(50) ? "f16" : "f32";
      c.k = 32;
      break;
    case 4:
      c.a = rng.chance(50) ? "s8" : "u8";
      c.b = rng.chance(50) ? "s8" : "u8";
      c.d = "s32";
      c.k = 32;
      c.satfinite = rng.chance(50);
      break;
    default:
      c.a = c.b = "b1";
      c.d = "s32";
      c.k = 256;
      break;
  }
}

// N, the operand sources and the flags of a wgmma test of c's types.
void pick_shape_flags(Rng& rng, Cfg& c) {
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
}

}  // namespace

Cfg pick_cfg(Rng& rng) {
  Cfg c;
  pick_types(rng, c, true);
  pick_shape_flags(rng, c);
  return c;
}

// The configuration of a wgmma.mma_async.sp test (9.7.15.6.3): the dense
// families without .b1, K doubled, and a selector (0 or 1 for 16/32-bit
// types, 0 for 8-bit ones).
Cfg pick_cfg_sp(Rng& rng) {
  Cfg c;
  c.sparse = true;
  pick_types(rng, c, false);
  c.k *= 2;
  pick_shape_flags(rng, c);
  c.sel = in_bits(c.a) == 8 ? 0 : static_cast<unsigned>(rng.below(2));
  c.unordered = c.a != "tf32" && rng.chance(20);
  return c;
}

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
    case 0:
      c.a = c.b = "f16";
      c.d = rng.chance(50) ? "f16" : "f32";
      c.k = rng.chance(50) ? 16 : 32;
      break;
    case 1:
      c.a = c.b = "bf16";
      c.d = "f32";
      c.k = rng.chance(50) ? 16 : 32;
      break;
    case 2:
      c.a = c.b = "tf32";
      c.d = "f32";
      c.k = rng.chance(50) ? 8 : 16;
      break;
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
  c.special = c.d == "f32" && !kind &&
              (c.a == "f16" || c.a == "bf16" || c.a == "tf32" || c.a == "e4m3" || c.a == "e5m2") && rng.chance(25);
  return c;
}

}  // namespace ptxcheck::instrgen::wgmma_detail
