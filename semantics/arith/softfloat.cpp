// Exact software floating point: unpack, exact add/mul/div/sqrt, one rounding.
// Why software: PTX asks for .rz/.rm/.rp per instruction (PTX ISA 9.7.3),
// and the host FPU's dynamic rounding mode is not reliable under -O2
// (GCC ignores FENV_ACCESS). Integer arithmetic on 128-bit mantissas is.
#include "semantics/arith/softfloat.hpp"

#include <utility>

namespace ptxcheck::arith {
namespace {

int msb128(u128 x) {
  auto hi = static_cast<uint64_t>(x >> 64);
  if (hi != 0) return 127 - __builtin_clzll(hi);
  return 63 - __builtin_clzll(static_cast<uint64_t>(x));
}

// Position of the remainder relative to half an ulp: 0 exact, 1 below half,
// 2 exactly half, 3 above half.
int classify(u128 rem, u128 half, bool sticky) {
  if (rem > half) return 3;
  if (rem == half) return sticky ? 3 : 2;
  return (rem != 0 || sticky) ? 1 : 0;
}

u128 apply_round(u128 m, int rc, bool sign, Round rm) {
  bool inc = false;
  switch (rm) {
    case Round::rn: inc = rc == 3 || (rc == 2 && (m & 1) != 0); break;
    case Round::rna: inc = rc >= 2; break;
    case Round::rz: break;
    case Round::rm: inc = sign && rc != 0; break;
    case Round::rp: inc = !sign && rc != 0; break;
  }
  return m + (inc ? 1 : 0);
}

// mant * 2^-sh rounded to an integer with rm (sh <= 0 is an exact left shift;
// the caller guarantees it fits).
u128 shr_round(u128 mant, int sh, bool sticky, bool sign, Round rm) {
  if (sh <= 0) return apply_round(mant << -sh, sticky ? 1 : 0, sign, rm);
  if (sh > 128) return apply_round(0, (mant != 0 || sticky) ? 1 : 0, sign, rm);
  if (sh == 128) return apply_round(0, classify(mant, u128(1) << 127, sticky), sign, rm);
  u128 rem = mant & ((u128(1) << sh) - 1);
  return apply_round(mant >> sh, classify(rem, u128(1) << (sh - 1), sticky), sign, rm);
}

// Shift right keeping a sticky ("jam") bit in the lsb: the result is odd
// whenever bits were lost, which preserves every later rounding decision as
// long as at least two bits separate the jam bit from the rounding point.
u128 shr_jam(u128 x, int d) {
  if (d <= 0) return x;
  if (d >= 128) return x != 0 ? 1 : 0;
  u128 lost = x & ((u128(1) << d) - 1);
  return (x >> d) | (lost != 0 ? 1 : 0);
}

Unp nan_v() { return {Cls::nan, false, 0, 0}; }
Unp zero_v(bool s) { return {Cls::zero, s, 0, 0}; }
Unp inf_v(bool s) { return {Cls::inf, s, 0, 0}; }

uint64_t isqrt128(u128 n) {
  u128 res = 0;
  u128 bit = u128(1) << 126;
  while (bit > n) bit >>= 2;
  while (bit != 0) {
    if (n >= res + bit) {
      n -= res + bit;
      res = (res >> 1) + bit;
    } else {
      res >>= 1;
    }
    bit >>= 2;
  }
  return static_cast<uint64_t>(res);
}

}  // namespace

uint64_t canonical_nan(const Fmt& f) { return (uint64_t(1) << (f.width() - 1)) - 1; }

uint64_t zero_bits(const Fmt& f, bool sign) { return uint64_t(sign) << (f.width() - 1); }

uint64_t inf_bits(const Fmt& f, bool sign) {
  uint64_t e = (uint64_t(1) << f.ebits) - 1;
  return zero_bits(f, sign) | (e << (f.mbits + f.shift));
}

uint64_t max_finite(const Fmt& f, bool sign) {
  uint64_t eall = (uint64_t(1) << f.ebits) - 1;
  uint64_t mall = (uint64_t(1) << f.mbits) - 1;
  uint64_t e = f.has_inf ? eall - 1 : eall;
  uint64_t m = f.nan_allones ? mall - 1 : mall;
  return zero_bits(f, sign) | (e << (f.mbits + f.shift)) | (m << f.shift);
}

// PTX ISA 9.2 5.2.5: IEEE 754 binary layouts; e4m3 has no infinity and a single
// NaN mantissa (all ones); tf32 ignores the 13 low bits of its container.
Unp unpack(const Fmt& f, uint64_t bits, bool ftz) {
  bool s = ((bits >> (f.width() - 1)) & 1) != 0;
  uint64_t eall = (uint64_t(1) << f.ebits) - 1;
  uint64_t mall = (uint64_t(1) << f.mbits) - 1;
  uint64_t e = (bits >> (f.mbits + f.shift)) & eall;
  uint64_t m = (bits >> f.shift) & mall;
  if (f.has_inf && e == eall) return m != 0 ? nan_v() : inf_v(s);
  if (f.nan_allones && e == eall && m == mall) return nan_v();
  if (e == 0) {
    if (m == 0 || ftz) return zero_v(s);
    return {Cls::finite, s, f.emin() - f.mbits, m};
  }
  return {Cls::finite, s, static_cast<int>(e) - f.bias() - f.mbits, m | (mall + 1)};
}

uint64_t round_pack(const Fmt& f, bool sign, int exp, u128 mant, bool sticky, Round rm,
                    uint32_t flags) {
  if (mant == 0) {
    if (!sticky) return zero_bits(f, sign);
    mant = 1;  // a value below 2^exp: far below any format's range here
    exp -= 256;
  }
  int top = exp + msb128(mant);
  int q = (top > f.emin() ? top : f.emin()) - f.mbits;
  u128 m = shr_round(mant, q - exp, sticky, sign, rm);
  if ((m >> (f.mbits + 1)) != 0) {  // rounding carried into a new binade
    m >>= 1;
    ++q;
  }
  uint64_t eall = (uint64_t(1) << f.ebits) - 1;
  uint64_t mall = (uint64_t(1) << f.mbits) - 1;
  int64_t eb = (m >> f.mbits) != 0 ? int64_t(q) + f.mbits + f.bias() : 0;
  auto field = static_cast<uint64_t>(m) & mall;
  int64_t emax = f.has_inf ? int64_t(eall) - 1 : int64_t(eall);
  bool over = eb > emax || (f.nan_allones && eb == emax && field == mall);
  if (over) {
    bool to_inf = f.has_inf && (flags & kSatFinite) == 0 &&
                  (rm == Round::rn || rm == Round::rna || (rm == Round::rp && !sign) ||
                   (rm == Round::rm && sign));
    return to_inf ? inf_bits(f, sign) : max_finite(f, sign);
  }
  if ((flags & kFtz) != 0 && eb == 0 && field != 0) return zero_bits(f, sign);
  return zero_bits(f, sign) | (uint64_t(eb) << (f.mbits + f.shift)) | (field << f.shift);
}

uint64_t pack_unp(const Fmt& f, const Unp& v, Round rm, uint32_t flags) {
  switch (v.cls) {
    case Cls::nan: return canonical_nan(f);
    case Cls::zero: return zero_bits(f, v.sign);
    case Cls::inf: return (flags & kSatFinite) != 0 ? max_finite(f, v.sign) : inf_bits(f, v.sign);
    case Cls::finite: break;
  }
  return round_pack(f, v.sign, v.exp, v.mant, false, rm, flags);
}

// IEEE 754-2008 6.3: an exact zero sum is +0 except under roundTowardNegative.
Unp add_exact(const Unp& a0, const Unp& b0, Round rm) {
  if (a0.cls == Cls::nan || b0.cls == Cls::nan) return nan_v();
  if (a0.cls == Cls::inf) return (b0.cls == Cls::inf && a0.sign != b0.sign) ? nan_v() : a0;
  if (b0.cls == Cls::inf) return b0;
  if (a0.cls == Cls::zero && b0.cls == Cls::zero)
    return zero_v(a0.sign == b0.sign ? a0.sign : rm == Round::rm);
  if (a0.cls == Cls::zero) return b0;
  if (b0.cls == Cls::zero) return a0;
  // Normalise both mantissas (at most 106 significant bits) to bit 125; the
  // low 19 bits are then zero, so an alignment shift of <= 19 is exact and a
  // larger one cancels at most one bit, leaving >= 124 bits above the jam bit.
  int sa = 125 - msb128(a0.mant), sb = 125 - msb128(b0.mant);
  u128 A = a0.mant << sa, B = b0.mant << sb;
  int ea = a0.exp - sa, eb = b0.exp - sb;
  bool sgn_a = a0.sign, sgn_b = b0.sign;
  if (ea < eb || (ea == eb && A < B)) {
    std::swap(A, B);
    std::swap(ea, eb);
    std::swap(sgn_a, sgn_b);
  }
  B = shr_jam(B, ea - eb);
  u128 m = sgn_a == sgn_b ? A + B : A - B;
  if (m == 0) return zero_v(rm == Round::rm);
  return {Cls::finite, sgn_a, ea, m};
}

Unp mul_exact(const Unp& a, const Unp& b) {
  bool s = a.sign != b.sign;
  if (a.cls == Cls::nan || b.cls == Cls::nan) return nan_v();
  if (a.cls == Cls::inf || b.cls == Cls::inf)
    return (a.cls == Cls::zero || b.cls == Cls::zero) ? nan_v() : inf_v(s);
  if (a.cls == Cls::zero || b.cls == Cls::zero) return zero_v(s);
  return {Cls::finite, s, a.exp + b.exp, a.mant * b.mant};
}

Unp div_jam(const Unp& a, const Unp& b) {
  bool s = a.sign != b.sign;
  if (a.cls == Cls::nan || b.cls == Cls::nan) return nan_v();
  if (a.cls == Cls::inf) return b.cls == Cls::inf ? nan_v() : inf_v(s);
  if (b.cls == Cls::inf) return zero_v(s);
  if (b.cls == Cls::zero) return a.cls == Cls::zero ? nan_v() : inf_v(s);
  if (a.cls == Cls::zero) return zero_v(s);
  int sa = 126 - msb128(a.mant);
  u128 n = a.mant << sa;
  u128 q = n / b.mant;
  u128 r = n % b.mant;
  return {Cls::finite, s, a.exp - sa - b.exp, q | (r != 0 ? 1 : 0)};
}

Unp sqrt_jam(const Unp& a) {
  if (a.cls == Cls::nan) return nan_v();
  if (a.cls == Cls::zero) return a;  // sqrt(-0) = -0
  if (a.sign) return nan_v();
  if (a.cls == Cls::inf) return a;
  int k = 125 - msb128(a.mant);
  if (((a.exp - k) & 1) != 0) ++k;
  u128 n = a.mant << k;
  uint64_t r = isqrt128(n);
  u128 rem = n - u128(r) * r;
  return {Cls::finite, false, (a.exp - k) / 2, u128(r) | (rem != 0 ? 1 : 0)};
}

uint64_t round_to_int(const Unp& v, Round rm, bool* overflow) {
  *overflow = false;
  if (v.cls != Cls::finite) return 0;
  if (v.exp >= 0) {
    if (msb128(v.mant) + v.exp >= 64) {
      *overflow = true;
      return 0;
    }
    return static_cast<uint64_t>(v.mant << v.exp);
  }
  u128 m = shr_round(v.mant, -v.exp, false, v.sign, rm);
  if ((m >> 64) != 0) *overflow = true;
  return static_cast<uint64_t>(m);
}

}  // namespace ptxcheck::arith
