// Exact software floating point on bit patterns, for every PTX float format.
//
// Contract: every function here is a pure function of its arguments; no host
// FPU rounding mode, flag or compiler option (-O2, -ffast-math aside, ASan)
// changes a result. Values are carried exactly as (-1)^sign * mant * 2^exp
// with a 128-bit mantissa and rounded once, in software, by round_pack().
// IEEE 754-2008 rounding as required by PTX ISA 9.2 section 4.6 (Rounding
// modifiers) and section 5.2.5 (floating-point types).
#pragma once
#include <cstdint>

namespace ptxcheck::arith {

using u128 = unsigned __int128;

// PTX ISA 9.7.3 (.rn .rz .rm .rp) plus .rna (cvt to tf32, ties away).
enum class Round : uint8_t { rn, rz, rm, rp, rna };

// A binary floating-point format. tf32 is carried in a 32-bit container
// (f32 layout with the low 13 mantissa bits zero), PTX ISA 5.2.5.3.
struct Fmt {
  uint8_t ebits, mbits;
  bool has_inf;      // false: e4m3 (NaN only), e2m1 (neither)
  bool nan_allones;  // NaN is exponent and mantissa all ones (e4m3)
  bool has_nan;
  uint8_t shift;     // position of the mantissa lsb in the container (tf32: 13)
  int bias() const { return (1 << (ebits - 1)) - 1; }
  int emin() const { return 1 - bias(); }
  unsigned width() const { return 1u + ebits + mbits + shift; }
};

inline constexpr Fmt kF64{11, 52, true, false, true, 0};
inline constexpr Fmt kF32{8, 23, true, false, true, 0};
inline constexpr Fmt kF16{5, 10, true, false, true, 0};
inline constexpr Fmt kBF16{8, 7, true, false, true, 0};
inline constexpr Fmt kTF32{8, 10, true, false, true, 13};
inline constexpr Fmt kE4M3{4, 3, false, true, true, 0};
inline constexpr Fmt kE5M2{5, 2, true, false, true, 0};
// PTX ISA 9.2 5.2.3: e2m1, e2m3 and e3m2 have neither infinity nor NaN (the
// all-ones exponent holds normal values).
inline constexpr Fmt kE2M1{2, 1, false, false, false, 0};
inline constexpr Fmt kE2M3{2, 3, false, false, false, 0};
inline constexpr Fmt kE3M2{3, 2, false, false, false, 0};

enum class Cls : uint8_t { zero, finite, inf, nan };

// An unpacked value: sign, class and, for finite nonzero values,
// |value| = mant * 2^exp exactly (mant != 0, not normalised).
struct Unp {
  Cls cls;
  bool sign;
  int exp;
  u128 mant;
};

// Flags for round_pack.
enum : uint32_t {
  kFtz = 1u,        // subnormal results become signed zero (PTX ISA 9.7.3 ".ftz")
  kSatFinite = 2u,  // overflow and infinity become the largest finite value
};

Unp unpack(const Fmt& f, uint64_t bits, bool ftz);

// The canonical NaN of a format (PTX ISA 9.7.3: 0x7fffffff for .f32).
uint64_t canonical_nan(const Fmt& f);
uint64_t inf_bits(const Fmt& f, bool sign);
uint64_t max_finite(const Fmt& f, bool sign);
uint64_t zero_bits(const Fmt& f, bool sign);

// Round (-1)^sign * (mant + sticky*epsilon) * 2^exp to format f. sticky says
// the true value exceeds mant*2^exp in magnitude by less than 2^exp.
uint64_t round_pack(const Fmt& f, bool sign, int exp, u128 mant, bool sticky, Round rm,
                    uint32_t flags);
uint64_t pack_unp(const Fmt& f, const Unp& v, Round rm, uint32_t flags);

// Exact operations, rounded once. NaN operands or results give NaN with
// class Cls::nan (callers decide the payload); zero signs follow IEEE 754.
Unp add_exact(const Unp& a, const Unp& b, Round rm);  // a + b, unrounded
Unp mul_exact(const Unp& a, const Unp& b);            // a * b, unrounded
// a / b and sqrt(a): the result carries a jammed sticky bit in mant's lsb and
// at least 70 significant bits, enough for any format here.
Unp div_jam(const Unp& a, const Unp& b);
Unp sqrt_jam(const Unp& a);

// Round a finite value to an integer with rm (rn/rz/rm/rp). Returns the
// magnitude; *overflow is set when it does not fit in 64 bits.
uint64_t round_to_int(const Unp& v, Round rm, bool* overflow);

// True when the value is tiny enough to be a subnormal of f (after rounding
// this is decided by round_pack; unpack() flushes subnormal inputs).
inline bool is_subnormal_bits(const Fmt& f, uint64_t bits) {
  uint64_t e = (bits >> (f.mbits + f.shift)) & ((1u << f.ebits) - 1);
  uint64_t m = (bits >> f.shift) & ((uint64_t(1) << f.mbits) - 1);
  return e == 0 && m != 0;
}

}  // namespace ptxcheck::arith
