// Implementation of numerics.hpp: exact rounding by scaling to an integer
// quantum (exact in double for the formats used: f16, bf16).
#include "numerics.hpp"
#include <limits>

namespace ref {

double round_int(double x, Rnd r) {
    switch (r) {
    case Rnd::rn: return std::nearbyint(x);  // host default mode: ties to even
    case Rnd::rz: return std::trunc(x);
    case Rnd::rm: return std::floor(x);
    case Rnd::rp: return std::ceil(x);
    }
    return x;
}

double round_to_format(double x, int frac, int emin, int emax, Rnd r) {
    if (std::isnan(x) || std::isinf(x) || x == 0) return x;
    int e;
    std::frexp(x, &e);                        // |x| = m * 2^e, m in [0.5, 1)
    int exp = std::max(e - 1, emin);          // exponent of the leading bit (subnormals share emin)
    double quantum = std::ldexp(1.0, exp - frac);
    double q = round_int(x / quantum, r);     // x / quantum is exact: a power-of-two scaling
    double v = q * quantum;
    double maxfin = std::ldexp(2.0 - std::ldexp(1.0, -frac), emax);
    if (std::fabs(v) > maxfin) {
        // IEEE overflow: rn -> inf; rz -> max finite; rm/rp depend on the sign.
        bool neg = v < 0;
        bool inf = r == Rnd::rn || (r == Rnd::rm && neg) || (r == Rnd::rp && !neg);
        double big = inf ? std::numeric_limits<double>::infinity() : maxfin;
        return neg ? -big : big;
    }
    return v;
}

uint16_t encode_small(double v, int frac, int emin) {
    int ebits = frac == 10 ? 5 : 8;
    uint16_t sign = std::signbit(v) ? uint16_t(1u << 15) : 0;
    uint16_t expmask = uint16_t(((1u << ebits) - 1) << frac);
    if (std::isnan(v)) return uint16_t(0x7fff);  // canonical NaN of f16 and bf16 in PTX
    v = std::fabs(v);
    if (std::isinf(v)) return sign | expmask;
    if (v < std::ldexp(1.0, emin)) return sign | uint16_t(v / std::ldexp(1.0, emin - frac));
    int e;
    double m = std::frexp(v, &e);             // v = m * 2^e
    int exp = e - 1;
    uint16_t mant = uint16_t((m * 2 - 1) * std::ldexp(1.0, frac));
    return sign | uint16_t((exp - emin + 1) << frac) | mant;
}

double decode_small(uint16_t bits, int frac, int emin) {
    int ebits = frac == 10 ? 5 : 8;
    bool neg = bits >> 15;
    unsigned e = (bits >> frac) & ((1u << ebits) - 1);
    unsigned m = bits & ((1u << frac) - 1);
    double v;
    if (e == (1u << ebits) - 1) v = m ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    else if (e == 0) v = std::ldexp(double(m), emin - frac);
    else v = std::ldexp(double(m + (1u << frac)), int(e) - 1 + emin - frac);
    return neg ? -v : v;
}

template <class I> static I cvt_int(double x, Rnd r, Src src) {
    if (std::isnan(x)) {
        if (src != Src::f64 && sizeof(I) < 8) return 0;
        return I(uint64_t(1) << (8 * sizeof(I) - 1));  // MININT, or 2^(n-1) unsigned
    }
    double v = round_int(x, r);
    if (v <= double(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
    if (v >= std::ldexp(1.0, std::numeric_limits<I>::digits)) return std::numeric_limits<I>::max();
    return I(v);
}
int32_t cvt_s32(double x, Rnd r, Src src) { return cvt_int<int32_t>(x, r, src); }
uint32_t cvt_u32(double x, Rnd r, Src src) { return cvt_int<uint32_t>(x, r, src); }
int64_t cvt_s64(double x, Rnd r, Src src) { return cvt_int<int64_t>(x, r, src); }

// f is the exact round-to-nearest value of s + e (e the remainder, possibly
// 0): steps it one ulp of F away when mode r rounds the other way.
template <class F> static F step_towards(F f, double e, Rnd r) {
    if (e == 0 || r == Rnd::rn) return f;
    bool up = (r == Rnd::rp && e > 0) || (r == Rnd::rz && f < 0 && e > 0);
    bool down = (r == Rnd::rm && e < 0) || (r == Rnd::rz && f > 0 && e < 0);
    if (up) return std::nextafter(f, std::numeric_limits<F>::infinity());
    if (down) return std::nextafter(f, -std::numeric_limits<F>::infinity());
    return f;
}

float round_f32(double s, double e, Rnd r) {
    float f = float(s);
    if (double(f) != s) return to_f32(s, r);  // no float lies between s and s + e
    return step_towards(f, e, r);
}

double round_f64(double s, double e, Rnd r) { return step_towards(s, e, r); }

float add_f32(float a, float b, Rnd r) {
    double s = double(a) + double(b);
    return round_f32(s, two_sum_err(a, b, s), r);
}
float mul_f32(float a, float b, Rnd r) { return round_f32(double(a) * double(b), 0, r); }  // exact in double
float fma_f32(float a, float b, float c, Rnd r) {
    double p = double(a) * double(b);  // exact
    double s = p + double(c);
    return round_f32(s, two_sum_err(p, c, s), r);
}
float div_f32(float a, float b, Rnd r) {
    double q = double(a) / double(b);
    double rem = std::fma(-q, double(b), double(a));  // exact: a - q*b
    return round_f32(q, rem / double(b), r);          // only the sign of e matters
}
float sqrt_f32(float a, Rnd r) {
    double s = std::sqrt(double(a));
    return round_f32(s, std::fma(-s, s, double(a)), r);
}
double add_f64(double a, double b, Rnd r) {
    double s = a + b;
    return round_f64(s, two_sum_err(a, b, s), r);
}
double mul_f64(double a, double b, Rnd r) {
    double p = a * b;
    return round_f64(p, two_prod_err(a, b, p), r);
}

}  // namespace ref
