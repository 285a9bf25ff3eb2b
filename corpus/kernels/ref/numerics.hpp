// Numeric building blocks for the references, each following the PTX ISA
// definition of the instruction the CUDA source compiles to: IEEE rounding to
// f16/bf16 (cvt.rn/.rz), float->integer cvt with saturation (PTX ISA 9.7.9.21
// cvt: out-of-range results clamp; NaN rule below), directed rounding by
// error-free transformations, and bit helpers.
#pragma once
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
// cvt.{rni,rzi,rmi,rpi}.{s32,u32,s64}.{f16,f32,f64}: round, then clamp to the
// destination range. A NaN source gives 0 when the source is not .f64 and the
// destination is not 64-bit, otherwise 1 << (bits(dst) - 1) (PTX ISA 9.0, cvt:
// "NaN input results in ..."; earlier ISA texts said 0 throughout).
enum class Src { f16, f32, f64 };
int32_t cvt_s32(double x, Rnd r, Src src);
uint32_t cvt_u32(double x, Rnd r, Src src);
int64_t cvt_s64(double x, Rnd r, Src src);

// Directed rounding without touching the host FPU mode (compilers move
// arithmetic across fesetround even with -frounding-math): an operation's
// exact result is represented as s + e, where s is its round-to-nearest
// double and e the exact (or same-signed) remainder from an error-free
// transformation; the helpers round s + e to f32 or f64 in mode r.
float round_f32(double s, double e, Rnd r);
double round_f64(double s, double e, Rnd r);
// Exact remainders: a + b = s + two_sum_err, a * b = p + two_prod_err.
inline double two_sum_err(double a, double b, double s) {
    double bb = s - a;
    return (a - (s - bb)) + (b - bb);
}
inline double two_prod_err(double a, double b, double p) { return std::fma(a, b, -p); }

// f32 operations in every rounding mode (PTX add/mul/fma/div/sqrt/rcp .rn .rz .rm .rp).
float add_f32(float a, float b, Rnd r);
float mul_f32(float a, float b, Rnd r);
float fma_f32(float a, float b, float c, Rnd r);
float div_f32(float a, float b, Rnd r);
float sqrt_f32(float a, Rnd r);
double add_f64(double a, double b, Rnd r);
double mul_f64(double a, double b, Rnd r);
// Exact value (an integer or a double) rounded to f32 in mode r.
inline float to_f32(double exact, Rnd r) { return float(round_to_format(exact, 23, -126, 127, r)); }

// Saturation to the s32 range (.sat / .satfinite on s32 results).
inline int32_t sat_s32(int64_t v) { return int32_t(v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX : v); }

inline uint32_t popc32(uint32_t x) { return uint32_t(__builtin_popcount(x)); }
inline uint32_t clz32(uint32_t x) { return x ? uint32_t(__builtin_clz(x)) : 32u; }
inline uint32_t brev32(uint32_t x) {
    uint32_t r = 0;
    for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
    return r;
}
inline uint64_t brev64(uint64_t x) { return (uint64_t(brev32(uint32_t(x))) << 32) | brev32(uint32_t(x >> 32)); }

}  // namespace ref
