// Fragment layouts and the numeric policy of the warp-level matrix
// instructions (semantics/interp/mma.hpp, docs/mma.md).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <vector>

#include "semantics/arith/softfloat.hpp"
#include "semantics/interp/mma.hpp"

using namespace ptxcheck::interp;

namespace {

struct Case {
  unsigned m, n, k;
  MElem ab;
};
// Every mma.sync shape/type the interpreter implements (PTX ISA 9.7.14.5).
const Case kMma[] = {{16, 8, 16, MElem::f16}, {16, 8, 16, MElem::bf16}, {16, 8, 8, MElem::f16},
                     {16, 8, 8, MElem::bf16}, {16, 8, 8, MElem::tf32},  {16, 8, 4, MElem::tf32},
                     {16, 8, 16, MElem::s8},  {16, 8, 32, MElem::u8},   {8, 8, 16, MElem::s8},
                     {8, 8, 4, MElem::f64},   {8, 8, 32, MElem::s4},    {16, 8, 64, MElem::u4},
                     {8, 8, 128, MElem::b1},  {16, 8, 128, MElem::b1}};
const Case kWmma[] = {{16, 16, 16, MElem::f16}, {32, 8, 16, MElem::f16}, {8, 32, 16, MElem::f16},
                      {16, 16, 16, MElem::bf16}, {32, 8, 16, MElem::bf16}, {8, 32, 16, MElem::bf16},
                      {16, 16, 8, MElem::tf32},  {16, 16, 16, MElem::s8},  {32, 8, 16, MElem::u8},
                      {8, 32, 16, MElem::s8},    {8, 8, 4, MElem::f64}};

void dims(const Case& c, Role r, unsigned& rows, unsigned& cols) {
  rows = r == Role::B ? c.k : c.m;
  cols = r == Role::A ? c.k : c.n;
}

// Each matrix element is held by exactly one (lane, slot) among the first
// `unique` slots of every lane.
void check_bijective(const std::vector<Coord>& map, unsigned slots, unsigned unique, unsigned rows, unsigned cols) {
  std::set<std::pair<unsigned, unsigned>> seen;
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned i = 0; i < unique; ++i) {
      Coord c = map[l * slots + i];
      CHECK(c.row < rows);
      CHECK(c.col < cols);
      CHECK(seen.insert({c.row, c.col}).second);
    }
  CHECK(seen.size() == rows * cols);
}

uint64_t f32b(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float bf32(uint64_t b) {
  uint32_t u = static_cast<uint32_t>(b);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint64_t f64b(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
constexpr uint64_t kHalfOne = 0x3c00, kHalfInf = 0x7c00, kHalfNaN = 0x7e00;

// A reference for mma_compute's float sums, written the plain way: one
// two's-complement accumulator of 70 limbs (bit 0 weighs 2^-2200), every
// term added with its borrow or carry run to the top limb, the magnitude
// negated over all limbs and its 120 leading bits read one at a time.
uint64_t ref_sum(const std::vector<std::pair<bool, std::pair<ptxcheck::arith::u128, int>>>& terms,
                 const ptxcheck::arith::Fmt& f) {
  using ptxcheck::arith::u128;
  constexpr int kL = 70, kBias = 2200;
  uint64_t limb[kL] = {};
  for (const auto& t : terms) {
    const bool neg = t.first;
    const u128 mant = t.second.first;
    const int p = t.second.second + kBias;
    for (int b = 0; b < 128; ++b) {  // one bit at a time: += or -= 2^(p + b)
      if (!((mant >> b) & 1)) continue;
      const int at = p + b;
      uint64_t bit = uint64_t(1) << (at % 64);
      for (int i = at / 64; i < kL; ++i) {
        const uint64_t old = limb[i];
        limb[i] = neg ? old - bit : old + bit;
        if (neg ? old >= bit : limb[i] >= old) break;  // no borrow / carry
        bit = 1;
      }
    }
  }
  const bool neg = limb[kL - 1] >> 63;
  if (neg) {
    for (auto& l : limb) l = ~l;
    for (auto& l : limb)
      if (++l != 0) break;
  }
  int msb = -1;
  for (int b = kL * 64 - 1; b >= 0 && msb < 0; --b)
    if ((limb[b / 64] >> (b % 64)) & 1) msb = b;
  if (msb < 0) return ~0ull;  // zero: the caller decides the sign
  const int lo = std::max(msb - 119, 0);
  u128 mant = 0;
  for (int b = msb; b >= lo; --b) mant = (mant << 1) | ((limb[b / 64] >> (b % 64)) & 1);
  bool sticky = false;
  for (int b = 0; b < lo; ++b) sticky = sticky || ((limb[b / 64] >> (b % 64)) & 1);
  return ptxcheck::arith::round_pack(f, neg, lo - kBias, mant, sticky, ptxcheck::arith::Round::rn, 0);
}


}  // namespace

TEST_CASE("mma.sync fragments cover each matrix element once", "[mma]") {
  for (const Case& c : kMma)
    for (Role r : {Role::A, Role::B, Role::C}) {
      INFO(c.m << "x" << c.n << "x" << c.k << " " << melem_name(c.ab) << " role " << int(r));
      std::vector<Coord> map;
      unsigned cnt = 0;
      REQUIRE(mma_layout(c.m, c.n, c.k, c.ab, r, map, cnt));
      unsigned rows, cols;
      dims(c, r, rows, cols);
      REQUIRE(cnt * 32 == rows * cols);
      check_bijective(map, cnt, cnt, rows, cols);
    }
}

TEST_CASE("mma.sync fragments follow the ISA formulas", "[mma]") {
  std::vector<Coord> map;
  unsigned cnt;
  // m16n8k16 .f16 A (PTX ISA 9.7.14.5.8): lane 5 (groupID 1, threadID_in_group 1), a6 -> row 9, col 2+0+8.
  REQUIRE(mma_layout(16, 8, 16, MElem::f16, Role::A, map, cnt));
  CHECK(cnt == 8);
  CHECK(map[5 * 8 + 6].row == 9);
  CHECK(map[5 * 8 + 6].col == 10);
  // B: b3 of lane 30 (g 7, t 2) -> row 2*2+1+8 = 13, col 7.
  REQUIRE(mma_layout(16, 8, 16, MElem::f16, Role::B, map, cnt));
  CHECK(map[30 * 4 + 3].row == 13);
  CHECK(map[30 * 4 + 3].col == 7);
  // C/D: c2 of lane 30 -> row 15, col 4.
  REQUIRE(mma_layout(16, 8, 16, MElem::f16, Role::C, map, cnt));
  CHECK(map[30 * 4 + 2].row == 15);
  CHECK(map[30 * 4 + 2].col == 4);
  // m16n8k8 .tf32 A (9.7.14.5.7): a1 of lane 6 (g 1, t 2) -> row 9, col 2; a2 -> row 1, col 6.
  REQUIRE(mma_layout(16, 8, 8, MElem::tf32, Role::A, map, cnt));
  CHECK(map[6 * 4 + 1].row == 9);
  CHECK(map[6 * 4 + 1].col == 2);
  CHECK(map[6 * 4 + 2].row == 1);
  CHECK(map[6 * 4 + 2].col == 6);
  // m16n8k32 .s8 A (9.7.14.5.10): a13 of lane 3 (g 0, t 3) -> row 8, col 12+1+16.
  REQUIRE(mma_layout(16, 8, 32, MElem::s8, Role::A, map, cnt));
  CHECK(map[3 * 16 + 13].row == 8);
  CHECK(map[3 * 16 + 13].col == 29);
  CHECK_FALSE(mma_layout(16, 8, 12, MElem::f16, Role::A, map, cnt));
}

TEST_CASE("wmma fragments tile the mma.sync layouts", "[mma]") {
  for (const Case& c : kWmma)
    for (Role r : {Role::A, Role::B, Role::C}) {
      INFO(c.m << "x" << c.n << "x" << c.k << " " << melem_name(c.ab) << " role " << int(r));
      unsigned rows, cols;
      dims(c, r, rows, cols);
      unsigned slots = wmma_slots(c.m, c.n, c.k, c.ab, r);
      std::vector<Coord> map;
      REQUIRE(wmma_layout(c.m, c.n, c.k, c.ab, r, slots, map));
      unsigned unique = rows * cols / 32;
      REQUIRE(slots % unique == 0);
      check_bijective(map, slots, unique, rows, cols);
      for (unsigned l = 0; l < 32; ++l)  // further copies repeat the first
        for (unsigned s = unique; s < slots; ++s) {
          CHECK(map[l * slots + s].row == map[l * slots + s % unique].row);
          CHECK(map[l * slots + s].col == map[l * slots + s % unique].col);
        }
    }
  // f16 A and B always have 8 .f16x2 registers (PTX ISA 9.7.14.4.3).
  CHECK(wmma_slots(16, 16, 16, MElem::f16, Role::A) == 16);
  CHECK(wmma_slots(16, 16, 16, MElem::bf16, Role::A) == 8);
  // The 16x16 f32 accumulator is two m16n8 tiles side by side: x4 is x0 shifted 8 columns.
  std::vector<Coord> map;
  REQUIRE(wmma_layout(16, 16, 16, MElem::f16, Role::C, 8, map));
  CHECK(map[9 * 8 + 4].row == map[9 * 8 + 0].row);
  CHECK(map[9 * 8 + 4].col == map[9 * 8 + 0].col + 8);
}

TEST_CASE("mma sums exactly and rounds once", "[mma]") {
  // 16 products of 1 added to 2^24: an f32 running sum would stay at 2^24
  // (each +1 is a tie to even); the exact sum 2^24 + 16 is representable.
  std::vector<uint64_t> A(16 * 16, kHalfOne), B(16 * 8, kHalfOne), C(16 * 8, f32b(16777216.0f)), D(16 * 8);
  mma_compute({16, 8, 16, MElem::f16, MElem::f16, MElem::f32, MElem::f32, false}, A.data(), B.data(), C.data(),
              D.data());
  CHECK(bf32(D[0]) == 16777232.0f);
  // One rounding: 2^24 + 1 (exact) is a tie, rounds to even 2^24; 2^24 + 1 + 2^-10 rounds up.
  std::vector<uint64_t> A2(16 * 16, 0), B2(16 * 8, 0), C2(16 * 8, f32b(16777216.0f));
  A2[0] = kHalfOne;
  B2[0] = kHalfOne;
  mma_compute({16, 8, 16, MElem::f16, MElem::f16, MElem::f32, MElem::f32, false}, A2.data(), B2.data(), C2.data(),
              D.data());
  CHECK(bf32(D[0]) == 16777216.0f);
  A2[1] = 0x1400;  // 2^-10
  B2[8] = kHalfOne;  // B[1][0]
  mma_compute({16, 8, 16, MElem::f16, MElem::f16, MElem::f32, MElem::f32, false}, A2.data(), B2.data(), C2.data(),
              D.data());
  CHECK(bf32(D[0]) == 16777218.0f);
  // f16 destination (spacing 2 at 2048): 2048 + 1 + 2^-10 rounds up to 2050,
  // where rounding 2048 + 1 first would give 2048.
  std::vector<uint64_t> C3(16 * 8, 0x6800);  // 2048
  mma_compute({16, 8, 16, MElem::f16, MElem::f16, MElem::f16, MElem::f16, false}, A2.data(), B2.data(), C3.data(),
              D.data());
  CHECK(D[0] == 0x6801);
}

// mma_compute's accumulator (positive and negative terms apart, over the
// limbs they touch, the leading bits read by words) against ref_sum on
// random operands: random bits of every class, and terms that cancel
// (x and -x in the same row, leaving nothing or a few low bits), for f16,
// bf16 and tf32 into f32, f16 into f16, and f64 (exponents across the
// whole range); then a long carry and a sticky bit just below the kept
// bits.
TEST_CASE("mma's exact sum equals a bit-by-bit reference", "[mma]") {
  using namespace ptxcheck::arith;
  struct T {
    MmaShape sh;
    const Fmt &fa, &fc;
    unsigned bits;
  };
  const T types[] = {{{16, 8, 16, MElem::f16, MElem::f16, MElem::f32, MElem::f32, false}, kF16, kF32, 16},
                     {{16, 8, 16, MElem::bf16, MElem::bf16, MElem::f32, MElem::f32, false}, kBF16, kF32, 16},
                     {{16, 8, 8, MElem::tf32, MElem::tf32, MElem::f32, MElem::f32, false}, kTF32, kF32, 32},
                     {{16, 8, 16, MElem::f16, MElem::f16, MElem::f16, MElem::f16, false}, kF16, kF16, 16},
                     {{8, 8, 4, MElem::f64, MElem::f64, MElem::f64, MElem::f64, false}, kF64, kF64, 64}};
  std::mt19937_64 rng(10);
  size_t bad = 0, sums = 0, cancelled = 0;
  for (const T& t : types) {
    const MmaShape& sh = t.sh;
    const uint64_t am = t.bits >= 64 ? ~0ull : (1ull << t.bits) - 1;
    const uint64_t cm = t.fc.width() >= 64 ? ~0ull : (1ull << t.fc.width()) - 1;
    for (int round = 0; round < 60; ++round) {
      std::vector<uint64_t> A(sh.m * sh.k), B(sh.k * sh.n), C(sh.m * sh.n), D(sh.m * sh.n);
      const int mode = round % 3;  // 0: random bits; 1: cancelling pairs; 2: cancelling pairs, one low term
      for (auto& x : A) x = rng() & am;
      for (auto& x : B) x = rng() & am;
      for (auto& x : C) x = rng() & cm;
      if (mode) {
        const uint64_t sign = 1ull << (t.fa.width() - 1);
        for (unsigned i = 0; i < sh.m; ++i)
          for (unsigned k = 0; k + 1 < sh.k; k += 2) A[i * sh.k + k + 1] = A[i * sh.k + k] ^ sign;
        for (unsigned k = 0; k + 1 < sh.k; k += 2)
          for (unsigned j = 0; j < sh.n; ++j) B[(k + 1) * sh.n + j] = B[k * sh.n + j];
        for (auto& x : C) x = mode == 2 ? (rng() & 0xff) : 0;  // a subnormal or zero C
      }
      mma_compute(sh, A.data(), B.data(), C.data(), D.data());
      for (unsigned i = 0; i < sh.m; ++i)
        for (unsigned j = 0; j < sh.n; ++j) {
          std::vector<std::pair<bool, std::pair<u128, int>>> terms;
          bool special = false, negzero = true;
          auto note = [&](const Unp& v) {
            special = special || v.cls == Cls::nan || v.cls == Cls::inf;
            if (v.cls == Cls::finite) terms.push_back({v.sign, {v.mant, v.exp}});
          };
          for (unsigned k = 0; k < sh.k; ++k) {
            Unp x = unpack(t.fa, A[i * sh.k + k], false), y = unpack(t.fa, B[k * sh.n + j], false);
            if (x.cls == Cls::finite && y.cls == Cls::finite) {
              terms.push_back({x.sign != y.sign, {x.mant * y.mant, x.exp + y.exp}});
              negzero = false;
            } else {
              special = special || x.cls == Cls::nan || x.cls == Cls::inf || y.cls == Cls::nan || y.cls == Cls::inf;
              negzero = negzero && x.sign != y.sign;
            }
          }
          Unp c = unpack(t.fc, C[i * sh.n + j], false);
          note(c);
          negzero = negzero && c.cls == Cls::zero && c.sign;
          if (special) continue;  // NaN and infinity: "mma special values" above
          ++sums;
          uint64_t want = ref_sum(terms, t.fc);
          if (want == ~0ull) {
            want = zero_bits(t.fc, negzero);
            cancelled += !terms.empty();
          }
          if (D[i * sh.n + j] != want && ++bad <= 5)
            FAIL_CHECK("element " << i << "," << j << ": " << D[i * sh.n + j] << " != " << want);
        }
    }
  }
  CHECK(bad == 0);
  CHECK(sums > 20000);
  CHECK(cancelled > 1000);
  // A carry through 106 one bits into the next limb: (2^53 - 1) * 2^62 +
  // (2^53 - 1) * 2^115 + 2^62 = 2^168 (bit 2200 + 168 begins limb 37).
  const MmaShape f64s{8, 8, 4, MElem::f64, MElem::f64, MElem::f64, MElem::f64, false};
  std::vector<uint64_t> A(8 * 4, 0), B(4 * 8, 0), C(8 * 8, 0), D(8 * 8);
  A[0] = f64b(std::ldexp(9007199254740991.0, 62));
  A[1] = f64b(std::ldexp(9007199254740991.0, 115));
  A[2] = f64b(std::ldexp(1.0, 62));
  B[0] = B[8] = B[16] = f64b(1.0);
  mma_compute(f64s, A.data(), B.data(), C.data(), D.data());
  CHECK(D[0] == f64b(std::ldexp(1.0, 168)));
  // A sticky bit in the limb of the lowest kept bit, below it: 1 + 2^-53
  // (a tie) + 2^-130 rounds up.
  std::fill(A.begin(), A.end(), 0);
  std::fill(B.begin(), B.end(), 0);
  A[0] = B[0] = f64b(1.0);
  A[1] = B[8] = f64b(std::ldexp(1.0, -65));
  C[0] = f64b(0x1p-53);
  mma_compute(f64s, A.data(), B.data(), C.data(), D.data());
  CHECK(D[0] == f64b(1.0 + 0x1p-52));
}

TEST_CASE("mma special values and integer saturation", "[mma]") {
  std::vector<uint64_t> A(16 * 16, 0), B(16 * 8, 0), C(16 * 8, 0), D(16 * 8);
  MmaShape sh{16, 8, 16, MElem::f16, MElem::f16, MElem::f32, MElem::f32, false};
  A[0] = kHalfInf;
  B[0] = kHalfOne;
  mma_compute(sh, A.data(), B.data(), C.data(), D.data());
  CHECK(D[0] == 0x7f800000u);  // inf * 1
  CHECK(D[1] == 0x7fffffffu);  // inf * 0 in row 0: NaN (canonical)
  CHECK(D[8] == 0);            // row 1 untouched: +0
  A[1] = kHalfInf | 0x8000;
  B[8] = kHalfOne;
  mma_compute(sh, A.data(), B.data(), C.data(), D.data());
  CHECK(D[0] == 0x7fffffffu);  // inf - inf
  A[0] = kHalfNaN;
  mma_compute(sh, A.data(), B.data(), C.data(), D.data());
  CHECK(D[0] == 0x7fffffffu);
  // Signed zeros: -0 + (-0 products) stays -0; a +0 product makes +0.
  std::vector<uint64_t> Z(16 * 16, 0x8000), Bz(16 * 8, 0), Cz(16 * 8, 0x80000000u);
  mma_compute(sh, Z.data(), Bz.data(), Cz.data(), D.data());
  CHECK(D[0] == 0x80000000u);
  // Integers: wrap modulo 2^32, or clamp with .satfinite.
  std::vector<uint64_t> Ai(16 * 32, 127), Bi(32 * 8, 127), Ci(16 * 8, 0x7fffff00u), Di(16 * 8);
  mma_compute({16, 8, 32, MElem::s8, MElem::s8, MElem::s32, MElem::s32, true}, Ai.data(), Bi.data(), Ci.data(),
              Di.data());
  CHECK(Di[0] == 0x7fffffffu);
  mma_compute({16, 8, 32, MElem::s8, MElem::s8, MElem::s32, MElem::s32, false}, Ai.data(), Bi.data(), Ci.data(),
              Di.data());
  CHECK(Di[0] == static_cast<uint32_t>(0x7fffff00u + 32u * 127u * 127u));
  std::vector<uint64_t> Au(16 * 32, 0xff);  // u8 255 times s8 -1 (0xff)
  std::vector<uint64_t> Bs(32 * 8, 0xff), C0(16 * 8, 0);
  mma_compute({16, 8, 32, MElem::u8, MElem::s8, MElem::s32, MElem::s32, false}, Au.data(), Bs.data(), C0.data(),
              Di.data());
  CHECK(static_cast<int32_t>(Di[0]) == -32 * 255);
}

TEST_CASE("f64 mma is exact across the whole exponent range", "[mma]") {
  std::vector<uint64_t> A(8 * 4, 0), B(4 * 8, 0), C(8 * 8, 0), D(8 * 8);
  A[0] = f64b(0x1p1000);
  B[0] = f64b(0x1p1000);                    // 2^2000 would overflow: +inf after rounding
  A[1] = f64b(std::ldexp(1.0, -1074));
  B[8] = f64b(std::ldexp(1.0, -1074));     // 2^-2148: below every f64, but part of the exact sum
  mma_compute({8, 8, 4, MElem::f64, MElem::f64, MElem::f64, MElem::f64, false}, A.data(), B.data(), C.data(),
              D.data());
  CHECK(D[0] == 0x7ff0000000000000ull);
  A[0] = f64b(1.0);
  B[0] = f64b(1.0);
  C[0] = f64b(0x1p-53);                    // 1 + 2^-53 + 2^-2148: just above the tie, rounds up
  mma_compute({8, 8, 4, MElem::f64, MElem::f64, MElem::f64, MElem::f64, false}, A.data(), B.data(), C.data(),
              D.data());
  CHECK(D[0] == f64b(1.0 + 0x1p-52));
}

TEST_CASE("sub-byte integer and .b1 mma", "[mma]") {
  // s4 elements are sign-extended nibbles: 0xf is -1, 0x8 is -8; u4 0xf is 15.
  std::vector<uint64_t> A(8 * 32, 0xf), B(32 * 8, 0x8), C(8 * 8, 5), D(8 * 8);
  mma_compute({8, 8, 32, MElem::s4, MElem::s4, MElem::s32, MElem::s32, false}, A.data(), B.data(), C.data(), D.data());
  CHECK(static_cast<int32_t>(D[0]) == 5 + 32 * 8);
  mma_compute({8, 8, 32, MElem::u4, MElem::s4, MElem::s32, MElem::s32, false}, A.data(), B.data(), C.data(), D.data());
  CHECK(static_cast<int32_t>(D[0]) == 5 - 32 * 15 * 8);
  // .b1: popc over k of a AND b (or a XOR b), plus C (PTX ISA 9.7.14.5.14).
  std::vector<uint64_t> X(8 * 128), Y(128 * 8), Z(8 * 8, 100), R(8 * 8);
  for (unsigned k = 0; k < 128; ++k) {
    X[k] = k % 2;        // row 0 of A: 0101...
    Y[k * 8] = k % 3 == 0;  // column 0 of B
  }
  unsigned both = 0, diff = 0;
  for (unsigned k = 0; k < 128; ++k) {
    both += (k % 2) & (k % 3 == 0);
    diff += (k % 2) ^ (k % 3 == 0);
  }
  mma_compute({8, 8, 128, MElem::b1, MElem::b1, MElem::s32, MElem::s32, false, 1}, X.data(), Y.data(), Z.data(), R.data());
  CHECK(R[0] == 100 + both);
  mma_compute({8, 8, 128, MElem::b1, MElem::b1, MElem::s32, MElem::s32, false, 2}, X.data(), Y.data(), Z.data(), R.data());
  CHECK(R[0] == 100 + diff);
  CHECK(R[1] == 100 + 64);  // column 1 of B is zero: XOR counts A's ones
}

TEST_CASE("wgmma fragments cover the warpgroup's matrices once", "[mma]") {
  // PTX ISA 9.7.15.5.1.1: A is 64 x k, D is 64 x N, over 128 threads.
  const std::pair<unsigned, MElem> kTypes[] = {{16, MElem::f16}, {16, MElem::bf16}, {8, MElem::tf32}, {32, MElem::e4m3},
                                               {32, MElem::e5m2}, {32, MElem::s8}, {32, MElem::u8}, {256, MElem::b1}};
  for (auto [k, ab] : kTypes)
    for (unsigned n : {8u, 24u, 128u, 256u}) {
      for (Role role : {Role::A, Role::C}) {
        std::vector<Coord> map;
        unsigned count = 0;
        REQUIRE(wgmma_layout(n, k, ab, role, map, count));
        unsigned cols = role == Role::A ? k : n;
        CHECK(count * 128 == 64 * cols);
        std::set<unsigned> seen;
        for (const Coord& c : map) {
          CHECK(c.row < 64);
          CHECK(c.col < cols);
          seen.insert(c.row * cols + c.col);
        }
        CHECK(seen.size() == 64 * cols);
      }
    }
  std::vector<Coord> map;
  unsigned count = 0;
  CHECK_FALSE(wgmma_layout(12, 16, MElem::f16, Role::C, map, count));  // N a multiple of 8
  CHECK_FALSE(wgmma_layout(8, 32, MElem::f16, Role::A, map, count));   // f16 is k16
  // Thread 37 (warp 1, lane 5: g = 1, t = 1), accumulator element 5: row
  // 16 + 1 + 8*((5>>1)&1) = 17, column 2 + 1 + 8*(5>>2) = 11.
  REQUIRE(wgmma_layout(16, 16, MElem::f16, Role::C, map, count));
  CHECK(map[37 * count + 5].row == 17);
  CHECK(map[37 * count + 5].col == 11);
}

TEST_CASE("wgmma matrix descriptors and shared-memory layouts", "[mma]") {
  // PTX ISA 9.7.15.5.1.2.2: start 0x1230 >> 4, LBO 256, SBO 1024, 128B swizzle.
  uint64_t desc = (0x1230ull >> 4) | (256ull >> 4) << 16 | (1024ull >> 4) << 32 | 1ull << 62;
  WgDesc d = wgmma_decode(desc);
  CHECK(d.start == 0x1230);
  CHECK(d.lbo == 256);
  CHECK(d.sbo == 1024);
  CHECK(d.swizzle == 1);
  // K-major 128B swizzle, f16: row r of the 8-row group is 128 bytes long,
  // its 16-byte chunk c lands at chunk c ^ r.
  WgDesc s{0, 0, 1024, 0, 1};
  CHECK(wgmma_smem_addr(s, 16, false, 0, 0, nullptr) == 0);
  CHECK(wgmma_smem_addr(s, 16, false, 3, 8, nullptr) == 3 * 128 + ((1 ^ 3) * 16));
  CHECK(wgmma_smem_addr(s, 16, false, 9, 1, nullptr) == 1024 + 128 + ((0 ^ 1) * 16) + 2);
  // No swizzle, K-major: core matrices of 8 rows x 16 bytes, LBO between
  // the two k chunks, SBO between 8-row groups.
  WgDesc n{0, 2048, 128, 0, 0};
  CHECK(wgmma_smem_addr(n, 16, false, 10, 9, nullptr) == 128 + 2 * 16 + 2048 + 2);
  // MN-major 32B swizzle: 16 MN elements per 32-byte line, 8 k lines per atom.
  WgDesc m{0, 512, 256, 0, 3};
  uint64_t a = 17 % 8 * 2 + (17 / 8 % 2) * 16 + (17 / 16) * 512 + 3 * 32 + 1 * 256;  // mn 17, k 11
  CHECK(wgmma_smem_addr(m, 16, true, 17, 11, nullptr) == (a ^ (((a >> 7) & 1) << 4)));
  // .b1: bit k % 8 of byte k / 8 within the chunk.
  unsigned bit = 9;
  CHECK(wgmma_smem_addr(n, 1, false, 0, 130, &bit) == 2048 + 0);
  CHECK(bit == 2);
}

TEST_CASE("wgmma numerics: fp8 products, scale-d = 0 keeps -0", "[mma]") {
  // e4m3 1.5 (0x3c) x e5m2 -2 (0xc0) = -3 exactly, summed with C = 0.5.
  uint64_t A[32] = {0x3c}, B[32] = {0xc0}, C[1] = {0x3f000000}, D[1] = {0};
  mma_compute({1, 1, 32, MElem::e4m3, MElem::e5m2, MElem::f32, MElem::f32, false}, A, B, C, D);
  CHECK(D[0] == 0xc0200000);  // -2.5
  // D = A*B only: products -0 (1.5 x -0) sum to -0 although C is +1.
  MmaShape sh{1, 1, 32, MElem::e4m3, MElem::e5m2, MElem::f32, MElem::f32, false};
  sh.use_c = false;
  uint64_t A1[32];
  for (auto& x : A1) x = 0x3c;
  uint64_t B1[32];
  for (auto& x : B1) x = 0x80;
  uint64_t C1[1] = {0x3f800000};
  mma_compute(sh, A1, B1, C1, D);
  CHECK(D[0] == 0x80000000);
}

TEST_CASE("wgmma.mma_async.sp metadata positions and indices", "[mma]") {
  // PTX ISA 9.7.15.6.2: per warp, every (row, chunk) of its 16 rows has its
  // own 4 bits; .f16/.tf32 use only the selected thread pair (2 of every 4
  // lanes), 8-bit types all 32 lanes.
  for (unsigned bits : {16u, 32u, 8u}) {
    const unsigned chunks = bits == 8 ? 16 : 8;
    for (unsigned sel = 0; sel < (bits == 8 ? 1u : 2u); ++sel) {
      std::set<std::pair<unsigned, unsigned>> used;
      for (unsigned r = 0; r < 16; ++r)
        for (unsigned q = 0; q < chunks; ++q) {
          SpMetaPos p = sp_meta_pos(bits, bits == 8 ? 64 : bits == 16 ? 32 : 16, sel, r, q);
          CHECK(p.lane < 32);
          CHECK(p.bit % 4 == 0);
          CHECK(p.bit < 32);
          CHECK(p.lane / 4 == r % 8);  // the row's group of four lanes
          if (bits != 8) CHECK((p.lane & 3) >> 1 == sel);
          CHECK(used.insert({p.lane, p.bit}).second);
        }
      CHECK(used.size() == 16 * chunks);
    }
  }
  // 8-bit: lane 4g + 2(q/8) + h holds row g + 8h, chunk q at bits 4(q%8).
  SpMetaPos p = sp_meta_pos(8, 64, 0, 9, 10);
  CHECK(p.lane == 4 * 1 + 2 * 1 + 1);
  CHECK(p.bit == 8);
  // .f16: row 9 (g 1, h 1), chunk 5 -> lane 4 + 2*sel + 1, bits 16 + 4.
  p = sp_meta_pos(16, 32, 1, 9, 5);
  CHECK(p.lane == 4 + 2 + 1);
  CHECK(p.bit == 20);
  // 9.7.15.6.1: 2:4 indices, bits 1:0 first, 3:2 second; equal ones undefined.
  unsigned pos[2];
  REQUIRE(sp_decode(16, 0b1101, false, pos));
  CHECK(pos[0] == 1);
  CHECK(pos[1] == 3);
  for (unsigned bad : {0b0000u, 0b0101u, 0b1010u, 0b1111u}) CHECK_FALSE(sp_decode(8, bad, false, pos));
  // 1:2 (.tf32): only 0b0100 (element 0) and 0b1110 (element 1).
  REQUIRE(sp_decode(32, 0b1110, false, pos));
  CHECK(pos[0] == 1);
  REQUIRE(sp_decode(32, 0b0100, false, pos));
  CHECK(pos[0] == 0);
  CHECK_FALSE(sp_decode(32, 0b1000, false, pos));
  CHECK_FALSE(sp_decode(32, 0b0001, false, pos));
}

TEST_CASE("mma.sp fragments, metadata and the sparse product", "[mma]") {
  // PTX ISA 9.7.14.6.2: every mma.sp K/type; A is the packed 16 x K/2
  // matrix, B the K x 8 one; each is covered once by the (lane, slot) pairs.
  struct Sp {
    unsigned k;
    MElem ab;
    unsigned aregs;  // A registers per lane (the text's fragment tables)
  };
  const Sp kSp[] = {{16, MElem::f16, 2},  {32, MElem::bf16, 4}, {8, MElem::tf32, 2}, {16, MElem::tf32, 4},
                    {32, MElem::s8, 2},   {64, MElem::u8, 4},   {64, MElem::e4m3, 4}, {64, MElem::e2m1, 4},
                    {64, MElem::s4, 2},   {128, MElem::u4, 4}};
  for (const Sp& c : kSp) {
    INFO("k " << c.k << " " << melem_name(c.ab));
    const unsigned bits = melem_bits(c.ab);
    std::vector<Coord> a, b, cm;
    unsigned ca = 0, cb = 0, cc = 0;
    REQUIRE(mma_sp_layout(c.k, c.ab, Role::A, a, ca));
    REQUIRE(mma_sp_layout(c.k, c.ab, Role::B, b, cb));
    REQUIRE(mma_sp_layout(c.k, c.ab, Role::C, cm, cc));
    CHECK(ca * bits == 32 * c.aregs);
    check_bijective(a, ca, ca, 16, c.k / 2);
    check_bijective(b, cb, cb, c.k, 8);
    check_bijective(cm, cc, cc, 16, 8);
    // The text's rows: a register's elements share a row; registers
    // alternate g, g + 8 (e.g. m16n8k32 .f16: a0,a1 row g, a2,a3 row g+8).
    for (unsigned l = 0; l < 32; ++l)
      for (unsigned i = 0; i < ca; ++i) CHECK(a[l * ca + i].row == (l >> 2) + 8 * ((i * bits / 32) & 1));
    // The stored elements of a lane lie in its threadID_in_group's columns:
    // the text's [firstcol, lastcol], K/4 wide at t*K/4 for the 2-register
    // forms, K/8 wide at t*K/8 (+ K/2 for registers 2 and 3) for the others.
    const unsigned cw = sp_chunk(bits), span = c.aregs == 4 ? c.k / 8 : c.k / 4;
    for (unsigned l = 0; l < 32; ++l)
      for (unsigned i = 0; i < ca; ++i) {
        const unsigned chunk_first = a[l * ca + i].col / (cw / 2) * cw;  // its chunk's first logical column
        const unsigned first = (l & 3) * span + (c.aregs == 4 ? ((i * bits / 32) >> 1) * c.k / 2 : 0);
        CHECK(chunk_first >= first);
        CHECK(chunk_first < first + span);
      }
    // Metadata (9.7.14.6.1): every (row, chunk) has its own 4 bits in the
    // lanes the selector names.
    const unsigned chunks = c.k / cw, nsel = chunks <= 4 ? 4 : chunks == 8 ? 2 : 1;
    for (unsigned sel = 0; sel < nsel; ++sel) {
      std::set<std::pair<unsigned, unsigned>> used;
      for (unsigned r = 0; r < 16; ++r)
        for (unsigned q = 0; q < chunks; ++q) {
          SpMetaPos p = sp_meta_pos(bits, c.k, sel, r, q);
          CHECK(p.lane / 4 == r % 8);
          if (nsel == 4) CHECK(p.lane % 4 == sel);
          if (nsel == 2) CHECK((p.lane & 3) >> 1 == sel);
          CHECK(p.bit % 4 == 0);
          CHECK(p.bit < 32);
          CHECK(used.insert({p.lane, p.bit}).second);
        }
    }
  }
  // m16n8k16 .f16: one thread per group; row 9 (g 1, h 1), chunk 2 with
  // selector 3 -> lane 7, bits 16 + 8. m16n8k32 .s8: lane 4g + 2 sel + h.
  SpMetaPos p = sp_meta_pos(16, 16, 3, 9, 2);
  CHECK(p.lane == 7);
  CHECK(p.bit == 24);
  p = sp_meta_pos(8, 32, 1, 9, 6);
  CHECK(p.lane == 4 + 2 + 1);
  CHECK(p.bit == 24);
  p = sp_meta_pos(4, 128, 0, 3, 12);  // 4:8 chunks: row 3, chunk 12 -> lane 12 + 2, bits 16
  CHECK(p.lane == 14);
  CHECK(p.bit == 16);
  // ::ordered_metadata (9.7.14.6.3): only increasing pairs from the LSB.
  unsigned pos[2];
  for (unsigned nib : {0b0100u, 0b1000u, 0b1001u, 0b1100u, 0b1101u, 0b1110u}) CHECK(sp_decode(16, nib, true, pos));
  for (unsigned nib : {0b0001u, 0b0010u, 0b0110u, 0b0011u, 0b0111u, 0b1011u}) {
    CHECK_FALSE(sp_decode(8, nib, true, pos));
    CHECK(sp_decode(8, nib, false, pos));  // plain mma.sp: the pair in that order
  }

  // The product: m16n8k16 .f16 -> .f32, every chunk of row r keeps
  // positions (1, 3) (0b1101), A's stored values 1 and 2, B[k][n] = k + 1:
  // D[r][n] = 1 * B[q*4+1][n] + 2 * B[q*4+3][n] + C = sum over q of
  // (4q + 2) + 2 (4q + 4) = 12q + 10 -> 10 + 22 + 34 + 46 = 112, plus C 0.5.
  MmaShape sh{16, 8, 16, MElem::f16, MElem::f16, MElem::f32, MElem::f32, false, 0};
  std::vector<uint64_t> A(16 * 8), B(16 * 8), C(16 * 8, 0x3f000000), D(16 * 8);
  for (unsigned r = 0; r < 16; ++r)
    for (unsigned kc = 0; kc < 8; ++kc) A[r * 8 + kc] = kc % 2 ? 0x4000 : 0x3c00;
  const uint16_t kF16Int[] = {0x3c00, 0x4000, 0x4200, 0x4400, 0x4500, 0x4600, 0x4700, 0x4800,
                              0x4880, 0x4900, 0x4980, 0x4a00, 0x4a80, 0x4b00, 0x4b80, 0x4c00};  // 1..16
  for (unsigned k = 0; k < 16; ++k)
    for (unsigned n = 0; n < 8; ++n) B[k * 8 + n] = kF16Int[k];
  uint32_t meta[32];
  for (uint32_t l = 0; l < 32; ++l) meta[l] = (l & 3) == 2 ? 0xddddddddu : 0u;  // only selector 2's lanes valid
  SpBad bad;
  REQUIRE(mma_sp_compute(sh, 2, true, meta, A.data(), B.data(), C.data(), D.data(), &bad));
  float f;
  for (uint64_t d : D) {
    uint32_t u = static_cast<uint32_t>(d);
    std::memcpy(&f, &u, 4);
    CHECK(f == 112.5f);
  }
  // Selector 1 reads the zero registers: undefined (0b0000) at row 0, chunk 0.
  CHECK_FALSE(mma_sp_compute(sh, 1, false, meta, A.data(), B.data(), C.data(), D.data(), &bad));
  CHECK(bad.row == 0);
  CHECK(bad.col == 0);
  CHECK(bad.width == 4);
  CHECK(bad.thread == 1);
  // A decreasing pair is an undefined index only for ::ordered_metadata:
  // 0b0111 = positions (3, 1), the same elements in the other order.
  for (uint32_t l = 0; l < 32; ++l) meta[l] = 0x77777777u;
  CHECK(mma_sp_compute(sh, 0, false, meta, A.data(), B.data(), C.data(), D.data(), &bad));
  uint32_t u = static_cast<uint32_t>(D[0]);
  std::memcpy(&f, &u, 4);
  CHECK(f == 104.5f);  // sum over q of 1 * B[4q+3] + 2 * B[4q+1]: the pair order matters
  CHECK_FALSE(mma_sp_compute(sh, 0, true, meta, A.data(), B.data(), C.data(), D.data(), &bad));
}
