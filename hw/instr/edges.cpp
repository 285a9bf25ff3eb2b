// Edge values per type: zeros, infinities, NaNs with payloads (quiet and
// signalling), smallest/largest subnormals and normals, +-1 (IEEE 754 /
// PTX ISA 5.2.4-5.2.5); INT_MIN/INT_MAX, -1, shift counts around the width.
#include "hw/instr/edges.hpp"

#include <vector>

namespace ptxcheck::instrgen {
namespace {

const std::vector<uint64_t> kF32 = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fffffff,
                                    0xffc00001, 0x7fa12345, 0x00000001, 0x807fffff, 0x00800000, 0x7f7fffff,
                                    0x3f800000, 0xbf800000, 0x3effffff, 0x4b000000, 0x3fc00000, 0x40490fdb,
                                    0x4effffff, 0xcf000000, 0x5f000000, 0x3f000001};
const std::vector<uint64_t> kF64 = {0x0000000000000000, 0x8000000000000000, 0x7ff0000000000000,
                                    0xfff0000000000000, 0x7ff8000000000000, 0x7ff8000000000123,
                                    0xfff4000000000001, 0x0000000000000001, 0x800fffffffffffff,
                                    0x0010000000000000, 0x7fefffffffffffff, 0x3ff0000000000000,
                                    0xbff0000000000000, 0x3fe0000000000001, 0x4330000000000000,
                                    0x400921fb54442d18, 0x43e0000000000000, 0xc3e0000000000000,
                                    0x36a0000000000000, 0x47efffffe0000000};
const std::vector<uint64_t> kF16 = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7fff, 0x7d01, 0xfe01,
                                    0x0001, 0x83ff, 0x0400, 0x7bff, 0xfbff, 0x3c00, 0xbc00, 0x3800,
                                    0x3e00, 0x4248, 0x5bff, 0x3bff};
const std::vector<uint64_t> kBF16 = {0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0x7fff, 0x7f81, 0xffc1,
                                     0x0001, 0x807f, 0x0080, 0x7f7f, 0xff7f, 0x3f80, 0xbf80, 0x3f00,
                                     0x3fc0, 0x4049, 0x4f00, 0x3f7f};

uint64_t mask(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

uint64_t int_edge(Rng& rng, unsigned bits, bool is_signed) {
  const uint64_t m = mask(bits), top = 1ull << (bits - 1);
  const uint64_t edges[] = {0, 1, m, 2, top, top - 1, top + 1, m - 1, 7,
                            bits - 1ull, bits, bits + 1ull, 15, 16, 31, 32, 33, 63, 64, 65, 255, 256, 0x7f, 0x80};
  uint64_t v = edges[rng.below(sizeof edges / sizeof edges[0])];
  if (!is_signed && rng.chance(10)) v = m;  // UINT_MAX again: common in unsigned edge cases
  return v & m;
}

// A float with a moderate exponent, so that arithmetic rounds visibly.
uint64_t moderate(Rng& rng, unsigned bits) {
  unsigned e_bits = bits == 64 ? 11 : bits == 32 ? 8 : 5, m_bits = bits - 1 - e_bits;
  uint64_t bias = (1ull << (e_bits - 1)) - 1;
  uint64_t span = e_bits > 5 ? 24 : 8;
  uint64_t e = bias - span / 2 + rng.below(span);
  return (rng.next() & 1) << (bits - 1) | e << m_bits | (rng.next() & mask(m_bits));
}

uint64_t lane(Rng& rng, const std::string& ty) {
  const unsigned r = static_cast<unsigned>(rng.below(100));
  if (ty == "f32") return r < 40 ? kF32[rng.below(kF32.size())] : r < 75 ? moderate(rng, 32) : rng.next() & mask(32);
  if (ty == "f64") return r < 40 ? kF64[rng.below(kF64.size())] : r < 75 ? moderate(rng, 64) : rng.next();
  if (ty == "f16") return r < 40 ? kF16[rng.below(kF16.size())] : r < 75 ? moderate(rng, 16) : rng.next() & 0xffff;
  if (ty == "bf16") {
    if (r < 40) return kBF16[rng.below(kBF16.size())];
    return r < 75 ? moderate(rng, 32) >> 16 : rng.next() & 0xffff;
  }
  if (ty == "pred") return rng.next() & 1;
  const bool sgn = ty[0] == 's';
  const unsigned bits = static_cast<unsigned>(std::stoul(ty.substr(1)));
  return r < 50 ? int_edge(rng, bits, sgn) : rng.next() & mask(bits);
}

}  // namespace

uint64_t draw(Rng& rng, const std::string& ty) {
  if (ty == "f16x2" || ty == "bf16x2" || ty == "u16x2" || ty == "s16x2") {
    std::string l = ty.substr(0, ty.size() - 2);
    uint64_t lo = lane(rng, l), hi = lane(rng, l);
    return lo | hi << 16;
  }
  if (ty == "b16" || ty == "b32" || ty == "b64") return lane(rng, "u" + ty.substr(1));
  if (ty == "tf32") return lane(rng, "f32");
  return lane(rng, ty);
}

}  // namespace ptxcheck::instrgen
