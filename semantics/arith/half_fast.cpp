// Host-FPU fast path for f16/bf16 (and x2) add/sub/mul/fma, which PTX only
// defines with .rn (PTX ISA 9.7.4.1-4).
//
// Why it is exact: half operands convert to double exactly; a product of two
// halves is exact in double (<= 22 significant bits, no underflow); a sum is
// computed as RN(s) plus its exact TwoSum error, from which we form the
// round-to-odd double of the exact result. Rounding that to the 11- or 8-bit
// format to nearest once is correct because 53 >= p + 2. The same resolve-time
// probe as host_fast.cpp guards the host FPU; results equal the software path
// bit for bit (the test suite runs both).
#include <cstring>

#include "semantics/arith/family.hpp"

namespace ptxcheck::arith {
namespace {

uint64_t dbits(double x) {
  uint64_t u;
  std::memcpy(&u, &x, 8);
  return u;
}
double dval(uint64_t u) {
  double x;
  std::memcpy(&x, &u, 8);
  return x;
}

// Exact double value of a half-format bit pattern (after the optional flush).
template <const Fmt& F>
double to_double(uint64_t b, bool ftz) {
  constexpr uint64_t mall = (uint64_t(1) << F.mbits) - 1, eall = (uint64_t(1) << F.ebits) - 1;
  bool s = ((b >> (F.ebits + F.mbits)) & 1) != 0;
  uint64_t e = (b >> F.mbits) & eall, m = b & mall;
  uint64_t sign = uint64_t(s) << 63;
  if (e == eall) return dval(sign | (uint64_t(0x7ff) << 52) | (m != 0 ? uint64_t(1) << 51 : 0));
  if (e == 0) {
    if (m == 0 || ftz) return dval(sign);
    double v = static_cast<double>(m) * dval(uint64_t(1023 + F.emin() - F.mbits) << 52);  // m * 2^(emin-mbits)
    return s ? -v : v;
  }
  return dval(sign | ((e - F.bias() + 1023) << 52) | (m << (52 - F.mbits)));
}

// Round a double (exact or round-to-odd) to the half format, to nearest even.
template <const Fmt& F>
uint64_t from_double(double x) {
  uint64_t u = dbits(x);
  uint64_t sign = (u >> 63) << (F.ebits + F.mbits);
  int e = static_cast<int>((u >> 52) & 0x7ff);
  uint64_t m = u & ((uint64_t(1) << 52) - 1);
  constexpr uint64_t eall = (uint64_t(1) << F.ebits) - 1;
  if (e == 0x7ff) return m != 0 ? canonical_nan(F) : sign | (eall << F.mbits);
  if (e == 0) return sign;  // double subnormals are far below any half value
  m |= uint64_t(1) << 52;
  int top = e - 1023;
  int q = (top > F.emin() ? top : F.emin()) - F.mbits;  // quantum exponent
  int sh = q - (e - 1075);                              // bits to drop, >= 42
  uint64_t r;
  if (sh >= 64) {
    r = 0;  // below half the smallest subnormal
  } else {
    uint64_t rem = m & ((uint64_t(1) << sh) - 1), half = uint64_t(1) << (sh - 1);
    r = m >> sh;
    if (rem > half || (rem == half && (r & 1) != 0)) ++r;
  }
  if ((r >> (F.mbits + 1)) != 0) {
    r >>= 1;
    ++q;
  }
  int64_t eb = (r >> F.mbits) != 0 ? int64_t(q) + F.mbits + F.bias() : 0;
  if (eb >= int64_t(eall)) return sign | (eall << F.mbits);  // overflow: RN gives infinity
  return sign | (uint64_t(eb) << F.mbits) | (r & ((uint64_t(1) << F.mbits) - 1));
}

// RN(a + b) made round-to-odd with the exact TwoSum error.
double sum_odd(double a, double b) {
  double s = a + b;
  double bb = s - a;
  double err = (a - (s - bb)) + (b - bb);
  uint64_t u = dbits(s);
  if (err == 0 || s != s || (u & 0x7ff0000000000000ull) == 0x7ff0000000000000ull || (u & 1) != 0) return s;
  bool away = (err > 0) == (s > 0);
  return dval(away ? u + 1 : u - 1);
}

template <const Fmt& F, uint32_t Op>
uint64_t half_kernel(const uint64_t* s, uint64_t*, uint64_t c) {
  bool ftz = (c & cfg::kFtz) != 0;
  double a = to_double<F>(s[0], ftz), b = to_double<F>(s[1], ftz), r;
  if constexpr (Op == o_add) r = sum_odd(a, b);
  else if constexpr (Op == o_sub) r = sum_odd(a, -b);
  else if constexpr (Op == o_mul) r = a * b;
  else r = sum_odd(a * b, to_double<F>(s[2], ftz));
  if (r != r) return (c & cfg::kSat) != 0 ? 0 : canonical_nan(F);
  uint64_t h = from_double<F>(r);
  constexpr uint64_t sign = uint64_t(1) << (F.ebits + F.mbits);
  if (ftz && is_subnormal_bits(F, h)) h &= sign;
  if ((c & cfg::kSat) != 0) return sat01(F, h);
  if ((c & cfg::kRelu) != 0 && (h & sign) != 0) return 0;
  return h;
}

template <OpFn Lane>
uint64_t x2(const uint64_t* s, uint64_t* aux, uint64_t c) {
  uint64_t lo[4] = {s[0] & 0xffff, s[1] & 0xffff, s[2] & 0xffff, 0};
  uint64_t hi[4] = {(s[0] >> 16) & 0xffff, (s[1] >> 16) & 0xffff, (s[2] >> 16) & 0xffff, 0};
  return Lane(lo, aux, c) | (Lane(hi, aux, c) << 16);
}

template <const Fmt& F>
OpFn pick(uint32_t sub, bool pair) {
  switch (sub) {
    case o_add: return pair ? x2<half_kernel<F, o_add>> : half_kernel<F, o_add>;
    case o_sub: return pair ? x2<half_kernel<F, o_sub>> : half_kernel<F, o_sub>;
    case o_mul: return pair ? x2<half_kernel<F, o_mul>> : half_kernel<F, o_mul>;
    case o_fma: return pair ? x2<half_kernel<F, o_fma>> : half_kernel<F, o_fma>;
    default: return nullptr;
  }
}

}  // namespace

OpFn host_half_kernel(Ty t, uint32_t sub) {
  if (host_rn_kernel(Ty::f32, o_add) == nullptr) return nullptr;  // the same host probe
  switch (t) {
    case Ty::f16: return pick<kF16>(sub, false);
    case Ty::f16x2: return pick<kF16>(sub, true);
    case Ty::bf16: return pick<kBF16>(sub, false);
    case Ty::bf16x2: return pick<kBF16>(sub, true);
    default: return nullptr;
  }
}

}  // namespace ptxcheck::arith
