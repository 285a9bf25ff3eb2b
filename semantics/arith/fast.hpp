// Inline forms of the hottest arithmetic kernels, for the interpreter's lane
// loop (semantics/interp/exec_fast.cpp): a warp step of one of these runs
// without an indirect call per lane. Each form computes what its OpDesc::fn
// computes (int_ops.cpp plain<>, minmax, mul_mad's .wide and .hi; bit_ops.cpp logic, selp;
// compare.cpp setp; cvt.cpp cvt1 between integers, host_f2i, host_i2f;
// float_ops.cpp absneg,
// minmax and, where resolve chose the host FPU, host_fast.cpp's .rn kernels), written again here rather than
// shared, so that tests/semantics/arith_fast.cpp compares two
// implementations bit for bit on random and edge operands for every form
// (fast_ops.def); the float forms are compared with the software kernels.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "semantics/arith/fast_form.hpp"
#include "semantics/arith/intutil.hpp"
#include "semantics/arith/resolve.hpp"
#include "semantics/arith/softfloat.hpp"

namespace ptxcheck::arith::fast {

// The operations (declared in fast_form.hpp); none is 0, Form's default.
enum class Op : uint8_t {
  none,
#define X(name, what, section) name,
#include "semantics/arith/fast_ops.def"
#undef X
};
static_assert(Op{} == Op::none);

Form form_of(const OpDesc& d);

// The relation of two w-bit integers (compare.cpp relation for k_uint/k_sint).
inline uint32_t int_relation(uint64_t a, uint64_t b, unsigned w, bool sg) {
  if (!sg) {
    a &= mask(w);
    b &= mask(w);
    return a < b ? 1 : a == b ? 2 : 4;
  }
  int64_t x = sext(a, w), y = sext(b, w);
  return x < y ? 1 : x == y ? 2 : 4;
}

// logic's shifts (bit_ops.cpp): shift amounts above the width clamp to it
// (9.7.8.8 shl, 9.7.8.9 shr; .s fills with the sign bit). `a` is already
// masked to w bits.
inline uint64_t shl(uint64_t a, uint64_t b, unsigned w) {
  uint64_t n = b & 0xffffffffu;
  return n >= w ? 0 : (a << n) & mask(w);
}
inline uint64_t shr(uint64_t a, uint64_t b, unsigned w, bool sg) {
  uint64_t n = b & 0xffffffffu;
  if (n > w) n = w;
  if (sg) return static_cast<uint64_t>(sext(a, w) >> (n < 63 ? n : 63)) & mask(w);
  return n >= w ? 0 : a >> n;
}

// min/max (int_ops.cpp minmax1 without .relu).
inline uint64_t minmax(uint64_t a, uint64_t b, unsigned w, bool sg, bool mx) {
  if (sg) {
    int64_t x = sext(a, w), y = sext(b, w);
    return static_cast<uint64_t>(mx ? (x < y ? y : x) : (y < x ? y : x)) & mask(w);
  }
  uint64_t x = a & mask(w), y = b & mask(w);
  return mx ? (x < y ? y : x) : (y < x ? y : x);
}

// IEEE binary32/binary64 on their bit patterns (UT the unsigned type of the
// width) and on the host FPU. The host's + - * and std::fma are correctly
// rounded to nearest even, subnormals included, when host_fast.cpp's probe
// passed (the float arithmetic forms exist only then: float_ops.cpp).
template <typename FT, typename UT>
struct Flt {
  static constexpr UT kSign = UT(1) << (sizeof(UT) * 8 - 1);
  static constexpr UT kExp = sizeof(UT) == 4 ? UT(0x7f800000u) : UT(0x7ff0000000000000ull);
  static constexpr UT kNaN = kSign - 1;  // PTX's canonical NaN (docs/approx.md)
  static constexpr UT kOne = sizeof(UT) == 4 ? UT(0x3f800000u) : UT(0x3ff0000000000000ull);
  // .ftz: a subnormal becomes the zero of its sign.
  static UT flush(UT u, bool ftz) { return ftz && (u & kExp) == 0 ? UT(u & kSign) : u; }
  static bool nan(UT u) { return (u & ~kSign) > kExp; }
  static FT in(uint64_t b, bool ftz) {
    UT u = flush(static_cast<UT>(b), ftz);
    FT x;
    std::memcpy(&x, &u, sizeof x);
    return x;
  }
  // A host result as PTX gives it: NaN canonical, then .ftz, then .sat
  // (clamped to [+0, 1], NaN and negatives to +0).
  static uint64_t out(FT r, bool ftz, bool sat) {
    if (r != r) return sat ? 0 : kNaN;
    UT u;
    std::memcpy(&u, &r, sizeof u);
    u = flush(u, ftz);
    if (sat) return (u & kSign) != 0 ? 0 : u > kOne ? kOne : u;
    return u;
  }
  // setp's relation: 8 when either is NaN; zeros of both signs are equal.
  static uint32_t relation(uint64_t a, uint64_t b, bool ftz) {
    UT ma = static_cast<UT>(a) & ~kSign, mb = static_cast<UT>(b) & ~kSign;
    if (ma > kExp || mb > kExp) return 8;
    ma = flush(ma, ftz);
    mb = flush(mb, ftz);
    if (ma == 0 && mb == 0) return 2;
    const bool na = (a & kSign) != 0, nb = (b & kSign) != 0;
    if (na != nb) return na ? 1 : 4;
    if (ma == mb) return 2;
    return (ma < mb) != na ? 1 : 4;
  }
  // min/max: one NaN operand is ignored, two give the canonical NaN; -0 < +0.
  static uint64_t minmax(uint64_t a, uint64_t b, bool ftz, bool mx) {
    UT x = flush(static_cast<UT>(a), ftz), y = flush(static_cast<UT>(b), ftz);
    const bool nx = nan(x), ny = nan(y);
    if (nx || ny) return nx && ny ? kNaN : nx ? y : x;
    // -0 orders below +0: compare sign-magnitude keys.
    auto key = [](UT u) {
      using ST = std::make_signed_t<UT>;
      ST m = static_cast<ST>(u & ~kSign);
      return (u & kSign) != 0 ? -m - 1 : m;
    };
    const bool x_less = key(x) < key(y);
    return (mx ? !x_less : x_less) ? x : y;
  }
  // cvt to a w-bit integer (signed: sg) with rounding rnd (cvt.cpp
  // host_f2i): NaN gives 0, or the sign bit alone for an f64 source or a
  // 64-bit destination; out-of-range values saturate.
  static uint64_t to_int(uint64_t a, bool ftz, uint8_t rnd, unsigned w, bool sg) {
    const FT x = in(a, ftz);
    if (x != x) return (sizeof(FT) == 8 || w == 64) ? uint64_t(1) << (w - 1) : 0;
    FT r;
    switch (static_cast<Round>(rnd)) {
      case Round::rz: r = std::trunc(x); break;
      case Round::rm: r = std::floor(x); break;
      case Round::rp: r = std::ceil(x); break;
      default: r = std::nearbyint(x); break;
    }
    // Limits as exact powers of two: [-2^(w-1), 2^(w-1)) or [0, 2^w).
    const FT lim = static_cast<FT>(uint64_t(1) << (w - 1)) * (sg ? FT(1) : FT(2));
    if (sg) {
      if (r >= lim) return mask(w) >> 1;
      if (r < -lim) return (uint64_t(1) << (w - 1)) & mask(w);
      return static_cast<uint64_t>(static_cast<int64_t>(r)) & mask(w);
    }
    if (r >= lim) return mask(w);
    if (r <= 0) return 0;
    return static_cast<uint64_t>(r);
  }
  // cvt.rn from an sw-bit integer (signed: sg): the host's conversion
  // rounds to nearest even; an integer is never subnormal or NaN.
  static uint64_t from_int(uint64_t a, unsigned sw, bool sg) {
    const FT r = sg ? static_cast<FT>(sext(a, sw)) : static_cast<FT>(a & mask(sw));
    UT u;
    std::memcpy(&u, &r, sizeof u);
    return u;
  }
  // abs/neg: the sign bit after .ftz; a NaN gives the canonical NaN for
  // f32, for f64 abs passes it and neg quiets it (float_ops.cpp absneg).
  static uint64_t absneg(uint64_t a, bool ftz, bool abs) {
    UT x = flush(static_cast<UT>(a), ftz);
    if (nan(x)) {
      if constexpr (sizeof(UT) == 4)
        return kNaN;
      else
        return abs ? x : x | (UT(1) << 51);
    }
    return abs ? UT(x & ~kSign) : UT(x ^ kSign);
  }
};
using F32 = Flt<float, uint32_t>;
using F64 = Flt<double, uint64_t>;

// The result of form `f` (operation O) on sources a, b, c, in the low f.w
// bits (setp: p, 0 or 1; its q is !p).
template <Op O>
inline uint64_t apply(const Form& f, uint64_t a, uint64_t b, uint64_t c) {
  const unsigned w = f.w;
  if constexpr (O == Op::add)
    return (a + b) & mask(w);
  else if constexpr (O == Op::sub)
    return (a - b) & mask(w);
  else if constexpr (O == Op::mul_lo)
    return (a * b) & mask(w);
  else if constexpr (O == Op::mad_lo)
    return (a * b + c) & mask(w);
  else if constexpr (O == Op::mul_wide)  // (w <= 32: the product fits 64 bits)
    return (f.sg ? static_cast<uint64_t>(sext(a, w) * sext(b, w)) : (a & mask(w)) * (b & mask(w))) & mask(2 * w);
  else if constexpr (O == Op::mul_hi) {
    if (w == 64)
      return f.sg ? static_cast<uint64_t>((__int128(static_cast<int64_t>(a)) * static_cast<int64_t>(b)) >> 64)
                  : static_cast<uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
    return ((f.sg ? static_cast<uint64_t>(sext(a, w) * sext(b, w)) : (a & mask(w)) * (b & mask(w))) >> w) & mask(w);
  } else if constexpr (O == Op::and_)
    return a & b & mask(w);
  else if constexpr (O == Op::or_)
    return (a | b) & mask(w);
  else if constexpr (O == Op::xor_)
    return (a ^ b) & mask(w);
  else if constexpr (O == Op::not_)
    return ~a & mask(w);
  else if constexpr (O == Op::cnot)
    return (a & mask(w)) == 0 ? 1 : 0;
  else if constexpr (O == Op::shl)
    return shl(a & mask(w), b, w);
  else if constexpr (O == Op::shr)
    return shr(a & mask(w), b, w, f.sg);
  else if constexpr (O == Op::selp)
    return ((c & 1) != 0 ? a : b) & mask(w);
  else if constexpr (O == Op::setp)
    return (int_relation(a, b, w, f.sg) & f.rel) != 0 ? 1 : 0;
  else if constexpr (O == Op::min)
    return minmax(a, b, w, f.sg, false);
  else if constexpr (O == Op::max)
    return minmax(a, b, w, f.sg, true);
  else if constexpr (O == Op::add_f32)
    return F32::out(F32::in(a, f.ftz) + F32::in(b, f.ftz), f.ftz, f.sat);
  else if constexpr (O == Op::sub_f32)
    return F32::out(F32::in(a, f.ftz) - F32::in(b, f.ftz), f.ftz, f.sat);
  else if constexpr (O == Op::mul_f32)
    return F32::out(F32::in(a, f.ftz) * F32::in(b, f.ftz), f.ftz, f.sat);
  else if constexpr (O == Op::fma_f32)
    return F32::out(std::fma(F32::in(a, f.ftz), F32::in(b, f.ftz), F32::in(c, f.ftz)), f.ftz, f.sat);
  else if constexpr (O == Op::add_f64)
    return F64::out(F64::in(a, false) + F64::in(b, false), false, false);
  else if constexpr (O == Op::sub_f64)
    return F64::out(F64::in(a, false) - F64::in(b, false), false, false);
  else if constexpr (O == Op::mul_f64)
    return F64::out(F64::in(a, false) * F64::in(b, false), false, false);
  else if constexpr (O == Op::fma_f64)
    return F64::out(std::fma(F64::in(a, false), F64::in(b, false), F64::in(c, false)), false, false);
  else if constexpr (O == Op::setp_f32)
    return (F32::relation(a, b, f.ftz) & f.rel) != 0 ? 1 : 0;
  else if constexpr (O == Op::setp_f64)
    return (F64::relation(a, b, false) & f.rel) != 0 ? 1 : 0;
  else if constexpr (O == Op::min_f32)
    return F32::minmax(a, b, f.ftz, false);
  else if constexpr (O == Op::max_f32)
    return F32::minmax(a, b, f.ftz, true);
  else if constexpr (O == Op::min_f64)
    return F64::minmax(a, b, false, false);
  else if constexpr (O == Op::max_f64)
    return F64::minmax(a, b, false, true);
  else if constexpr (O == Op::abs_f32)
    return F32::absneg(a, f.ftz, true);
  else if constexpr (O == Op::neg_f32)
    return F32::absneg(a, f.ftz, false);
  else if constexpr (O == Op::abs_f64)
    return F64::absneg(a, false, true);
  else if constexpr (O == Op::neg_f64)
    return F64::absneg(a, false, false);
  else if constexpr (O == Op::cvt_int)
    return (f.sg ? static_cast<uint64_t>(sext(a, f.sw)) : a & mask(f.sw)) & mask(w);
  else if constexpr (O == Op::cvt_f2i)
    return f.sw == 32 ? F32::to_int(a, f.ftz, f.rnd, w, f.sg) : F64::to_int(a, f.ftz, f.rnd, w, f.sg);
  else if constexpr (O == Op::cvt_i2f)
    return w == 32 ? F32::from_int(a, f.sw, f.sg) : F64::from_int(a, f.sw, f.sg);
  else if constexpr (O == Op::div_f32)
    return F32::out(F32::in(a, f.ftz) / F32::in(b, f.ftz), f.ftz, f.sat);
  else if constexpr (O == Op::div_approx_f32) {
    // PTX ISA 9.7.3.8: "For 2^126 < |b| < 2^128, if a is infinity,
    // div.approx.f32 returns NaN, otherwise it returns a sign-preserving
    // zero" (approx.cpp approx_fn, which gives a NaN a the canonical NaN
    // too; .ftz changes neither b there nor a's sign); elsewhere the
    // correctly rounded quotient.
    const uint32_t mb = static_cast<uint32_t>(b) & 0x7fffffffu;
    if (mb > 0x7e800000u && mb < 0x7f800000u)
      return (static_cast<uint32_t>(a) & 0x7fffffffu) >= 0x7f800000u ? F32::kNaN
                                                                     : (static_cast<uint32_t>(a ^ b) & F32::kSign);
    return F32::out(F32::in(a, f.ftz) / F32::in(b, f.ftz), f.ftz, false);
  } else if constexpr (O == Op::rcp_f32)
    return F32::out(1.0f / F32::in(a, f.ftz), f.ftz, f.sat);
  else if constexpr (O == Op::sqrt_f32)
    return F32::out(std::sqrt(F32::in(a, f.ftz)), f.ftz, f.sat);
  else if constexpr (O == Op::div_f64)
    return F64::out(F64::in(a, false) / F64::in(b, false), false, false);
  else if constexpr (O == Op::rcp_f64)
    return F64::out(1.0 / F64::in(a, false), false, false);
  else if constexpr (O == Op::sqrt_f64)
    return F64::out(std::sqrt(F64::in(a, false)), false, false);
  else
    return 0;
}

// The host's fused multiply-add instruction (x86-64 FMA3). Built without
// -mfma, std::fma is a call into libm (whose x86-64 fmaf/fma pick the same
// instruction at load time when the CPU has it); a function compiled with
// `target("fma")` (kFmaTarget) expands std::fma inline to vfmadd, which
// IEEE 754 fusedMultiplyAdd defines bit for bit (one rounding, in the
// MXCSR's mode, which host_fast.cpp's probe checked to be
// round-to-nearest-even without FTZ/DAZ). Such code runs only where
// host_fma() is true.
#if defined(__x86_64__) && defined(__GNUC__)
#define PTXCHECK_FMA_TARGET 1
#define PTXCHECK_FMA_TARGET_ATTR __attribute__((target("fma")))
inline bool host_fma() {
  static const bool has = __builtin_cpu_supports("fma");
  return has;
}
#else
#define PTXCHECK_FMA_TARGET 0
#define PTXCHECK_FMA_TARGET_ATTR
inline bool host_fma() { return false; }
#endif

// The forms whose lane loops have an FMA-instruction variant.
constexpr bool uses_fma(Op o) { return o == Op::fma_f32 || o == Op::fma_f64; }

// apply() by a run-time op (for tests); setp's q is !p.
inline uint64_t eval_any(const Form& f, const uint64_t* s) {
  switch (f.op) {
#define X(name, what, section) \
  case Op::name:               \
    return apply<Op::name>(f, s[0], s[1], s[2]);
#include "semantics/arith/fast_ops.def"
#undef X
    case Op::none: break;
  }
  return 0;
}
// The same compiled for the FMA instruction (only where host_fma()).
PTXCHECK_FMA_TARGET_ATTR inline uint64_t eval_fma(const Form& f, const uint64_t* s) {
  switch (f.op) {
    case Op::fma_f32: return apply<Op::fma_f32>(f, s[0], s[1], s[2]);
    case Op::fma_f64: return apply<Op::fma_f64>(f, s[0], s[1], s[2]);
    default: return eval_any(f, s);
  }
}
// What the interpreter's lane loop computes: the FMA-instruction variant
// where the host has it (exec_fast.cpp picks the same).
inline uint64_t eval(const Form& f, const uint64_t* s) {
  return uses_fma(f.op) && host_fma() ? eval_fma(f, s) : eval_any(f, s);
}

}  // namespace ptxcheck::arith::fast
