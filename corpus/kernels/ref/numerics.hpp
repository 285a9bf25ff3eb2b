// Numeric building blocks for the references, each following the PTX ISA
// definition of the instruction the CUDA source compiles to: IEEE rounding to
// f16/bf16 (cvt.rn/.rz), float->integer cvt with saturation (PTX ISA 9.7.9.21
// cvt: out-of-range results clamp, NaN becomes 0), directed rounding through
// the host FPU's rounding mode, and bit helpers.
#pragma once
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace ref {

struct Half { uint16_t bits = 0; };
struct BF16 { uint16_t bits = 0; };

template <class To, class From> To bitcast(From f) {
    static_assert(sizeof(To) == sizeof(From));
    To t;
    std::memcpy(&t, &f, sizeof t);
    return t;
}

enum class Rnd { rn, rz, rm, rp };

// Rounds the exact value x (a double) to a binary format with `frac` fraction
// bits and minimum normal exponent `emin`, max exponent `emax`, in mode r.
// Returns the rounded value as a double (possibly +-inf on overflow).
double round_to_format(double x, int frac, int emin, int emax, Rnd r);
// Encodes a value already representable in the format (or inf/nan) as bits.
uint16_t encode_small(double v, int frac, int emin);
double decode_small(uint16_t bits, int frac, int emin);

inline Half to_half(double x, Rnd r = Rnd::rn) { return {encode_small(round_to_format(x, 10, -14, 15, r), 10, -14)}; }
inline BF16 to_bf16(double x, Rnd r = Rnd::rn) { return {encode_small(round_to_format(x, 7, -126, 127, r), 7, -126)}; }
inline double val(Half h) { return decode_small(h.bits, 10, -14); }
inline double val(BF16 h) { return decode_small(h.bits, 7, -126); }
inline float fval(Half h) { return float(val(h)); }
inline float fval(BF16 h) { return float(val(h)); }

// Integer rounding of a floating value per mode (ties to even for rn).
double round_int(double x, Rnd r);
// cvt.{rni,rzi,rmi,rpi}.{s32,u32,s64,u64}.{f32,f64}: round, clamp, NaN -> 0.
int32_t cvt_s32(double x, Rnd r);
uint32_t cvt_u32(double x, Rnd r);
int64_t cvt_s64(double x, Rnd r);

// Runs f with the host FPU in rounding mode r (the ref is built with
// -frounding-math so nothing is folded at compile time).
template <class F> auto with_rounding(Rnd r, F f) {
    int old = std::fegetround();
    std::fesetround(r == Rnd::rn ? FE_TONEAREST : r == Rnd::rz ? FE_TOWARDZERO
                    : r == Rnd::rm ? FE_DOWNWARD : FE_UPWARD);
    auto v = f();
    std::fesetround(old);
    return v;
}

inline uint32_t popc32(uint32_t x) { return uint32_t(__builtin_popcount(x)); }
inline uint32_t clz32(uint32_t x) { return x ? uint32_t(__builtin_clz(x)) : 32u; }
inline uint32_t brev32(uint32_t x) {
    uint32_t r = 0;
    for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
    return r;
}
inline uint64_t brev64(uint64_t x) { return (uint64_t(brev32(uint32_t(x))) << 32) | brev32(uint32_t(x >> 32)); }

}  // namespace ref
