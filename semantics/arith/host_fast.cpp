// Host-FPU fast path for round-to-nearest f32/f64 arithmetic.
//
// IEEE 754 requires + - * / sqrt and fusedMultiplyAdd to be correctly rounded,
// so on a conforming host in round-to-nearest they give exactly the software
// result; we only add PTX's canonical NaN, .ftz and .sat. "Conforming" is
// checked once by a probe (rounding mode, flush-to-zero/denormals-are-zero
// state, excess precision); otherwise resolve() keeps the software kernels.
// std::fma is used for fma (never a*b+c, which could be contracted).
#include <cfloat>
#include <cmath>
#include <cstring>

#include "semantics/arith/family.hpp"

namespace ptxcheck::arith {
namespace {

template <typename FT, typename UT>
UT bits_of(FT x) {
  UT u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}
template <typename FT, typename UT>
FT from_bits(UT u) {
  FT x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

template <typename FT, typename UT, const Fmt& F, uint32_t Op>
uint64_t host_kernel(const uint64_t* s, uint64_t*, uint64_t c) {
  constexpr UT sign = UT(1) << (sizeof(UT) * 8 - 1);
  constexpr UT expm = ((UT(1) << F.ebits) - 1) << F.mbits;
  bool ftz = (c & cfg::kFtz) != 0;
  auto flush = [&](UT u) { return (ftz && (u & expm) == 0) ? UT(u & sign) : u; };
  FT a = from_bits<FT, UT>(flush(static_cast<UT>(s[0])));
  FT b = from_bits<FT, UT>(flush(static_cast<UT>(s[1])));
  FT r;
  if constexpr (Op == o_add) r = a + b;
  else if constexpr (Op == o_sub) r = a - b;
  else if constexpr (Op == o_mul) r = a * b;
  else if constexpr (Op == o_div) r = a / b;
  else if constexpr (Op == o_rcp) r = FT(1) / a;
  else if constexpr (Op == o_sqrt) r = std::sqrt(a);
  else r = std::fma(a, b, from_bits<FT, UT>(flush(static_cast<UT>(s[2]))));
  UT u = bits_of<FT, UT>(r);
  if (r != r) return (c & cfg::kSat) != 0 ? 0 : canonical_nan(F);
  u = flush(u);
  if ((c & cfg::kSat) != 0) return sat01(F, u);
  return u;
}

// The probe: round-to-nearest-even, subnormals produced and consumed, no
// excess precision. volatile keeps the compiler from folding it.
bool host_ok() {
#if defined(__FAST_MATH__) || FLT_EVAL_METHOD != 0
  return false;
#else
  volatile float one = 1.0f, tie = 0x1.0p-24f, tiny = 0x1.0p-149f, half = 0.5f;
  volatile double done = 1.0, dtie = 0x1.0p-53, above = 0x1.0000000000001p-53;
  bool rn = one + tie == 1.0f && done + dtie == 1.0 && done + above > 1.0;
  bool no_ftz = tiny * one != 0.0f && (tiny * 2.0f) * half == tiny;
  bool fma_ok = std::fma(1.0 + 0x1.0p-30, 1.0 + 0x1.0p-30, -1.0) == 0x1.0p-29 + 0x1.0p-60;
  return rn && no_ftz && fma_ok;
#endif
}

template <typename FT, typename UT, const Fmt& F>
OpFn pick(uint32_t sub) {
  switch (sub) {
    case o_add: return host_kernel<FT, UT, F, o_add>;
    case o_sub: return host_kernel<FT, UT, F, o_sub>;
    case o_mul: return host_kernel<FT, UT, F, o_mul>;
    case o_fma: return host_kernel<FT, UT, F, o_fma>;
    case o_div: return host_kernel<FT, UT, F, o_div>;
    case o_rcp: return host_kernel<FT, UT, F, o_rcp>;
    case o_sqrt: return host_kernel<FT, UT, F, o_sqrt>;
    default: return nullptr;
  }
}

// Directed rounding (.rz/.rm/.rp) of f64 add/sub/mul/div on the host: the
// round-to-nearest result r and the sign of the exact error, from an
// error-free transformation (TwoSum for add/sub; fma(a, b, -r) for mul; the
// remainder fma(-r, b, a) for div, whose sign times b's is the error's),
// then r or its neighbour: the exact value lies strictly between r and the
// neighbour on the error's side. The transformations are exact in the
// ranges taken here; operands of magnitude 2^1022 or more, non-finite
// operands or results, zero results, and products, quotients or dividends
// below 2^-960 (where the error terms could underflow) go to the software
// kernel, which also gives the canonical NaN.
template <uint32_t Op>
uint64_t host_dir_f64(const uint64_t* s, uint64_t* aux, uint64_t c) {
  const double a = from_bits<double, uint64_t>(s[0]);
  double b = from_bits<double, uint64_t>(s[1]);
  constexpr double kBig = 0x1p1022, kTiny = 0x1p-960;
  if (!(std::fabs(a) < kBig) || !(std::fabs(b) < kBig)) return soft_f64_arith(s, aux, c);
  double r, e;
  if constexpr (Op == o_add || Op == o_sub) {
    if constexpr (Op == o_sub) b = -b;
    r = a + b;
    const double bb = r - a;
    e = (a - (r - bb)) + (b - bb);
  } else if constexpr (Op == o_mul) {
    r = a * b;
    if (!(std::fabs(r) >= kTiny)) return soft_f64_arith(s, aux, c);
    e = std::fma(a, b, -r);
  } else {
    if (b == 0 || !(std::fabs(a) >= kTiny)) return soft_f64_arith(s, aux, c);
    r = a / b;
    if (!(std::fabs(r) >= kTiny)) return soft_f64_arith(s, aux, c);
    e = std::fma(-r, b, a);
    if (b < 0) e = -e;
  }
  if (r == 0 || !std::isfinite(r)) return soft_f64_arith(s, aux, c);
  uint64_t u = bits_of<double, uint64_t>(r);
  if (e == 0) return u;
  const bool neg = r < 0;
  switch (cfg::round(c)) {
    case Round::rz:  // |exact| < |r|: the neighbour toward zero
      if ((e < 0) != neg) --u;
      return u;
    case Round::rm:
      if (e < 0) u = neg ? u + 1 : u - 1;
      return u;
    case Round::rp:
      if (e > 0) u = neg ? u - 1 : u + 1;
      return u;
    default: return soft_f64_arith(s, aux, c);
  }
}

}  // namespace

OpFn host_dir_kernel(Ty t, uint32_t sub) {
  if (!host_ok() || t != Ty::f64) return nullptr;
  switch (sub) {
    case o_add: return host_dir_f64<o_add>;
    case o_sub: return host_dir_f64<o_sub>;
    case o_mul: return host_dir_f64<o_mul>;
    case o_div: return host_dir_f64<o_div>;
    default: return nullptr;
  }
}

OpFn host_rn_kernel(Ty t, uint32_t sub) {
  if (!host_ok()) return nullptr;
  if (t == Ty::f32) return pick<float, uint32_t, kF32>(sub);
  if (t == Ty::f64) return pick<double, uint64_t, kF64>(sub);
  return nullptr;
}

}  // namespace ptxcheck::arith
