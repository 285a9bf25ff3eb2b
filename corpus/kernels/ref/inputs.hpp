// Deterministic pseudo-random input lists for the tests (a fixed 64-bit LCG,
// so regenerating gives identical specs on every host).
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

namespace ref {

struct Lcg {
    uint64_t s;
    explicit Lcg(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
    uint64_t next() { s = s * 6364136223846793005ull + 1442695040888963407ull; return s ^ (s >> 29); }
    uint32_t u32() { return uint32_t(next() >> 16); }
    // Uniform integer in [lo, hi].
    int64_t range(int64_t lo, int64_t hi) { return lo + int64_t(next() % uint64_t(hi - lo + 1)); }
};

// Floats with random 24-bit significands, exponents in [emin, emax], random sign
// unless positive_only.
inline std::vector<float> rand_f32(uint64_t seed, size_t n, int emin, int emax, bool positive_only = false) {
    Lcg g(seed);
    std::vector<float> v(n);
    for (auto& x : v) {
        float m = 1.0f + float(g.u32() & 0x7fffff) / 8388608.0f;
        x = std::ldexp(m, int(g.range(emin, emax)));
        if (!positive_only && (g.u32() & 1)) x = -x;
    }
    return v;
}
inline std::vector<double> rand_f64(uint64_t seed, size_t n, int emin, int emax, bool positive_only = false) {
    Lcg g(seed);
    std::vector<double> v(n);
    for (auto& x : v) {
        double m = 1.0 + double(g.next() & ((1ull << 52) - 1)) / 4503599627370496.0;
        x = std::ldexp(m, int(g.range(emin, emax)));
        if (!positive_only && (g.u32() & 1)) x = -x;
    }
    return v;
}
inline std::vector<uint32_t> rand_u32(uint64_t seed, size_t n) {
    Lcg g(seed);
    std::vector<uint32_t> v(n);
    for (auto& x : v) x = g.u32();
    return v;
}
inline std::vector<uint64_t> rand_u64(uint64_t seed, size_t n) {
    Lcg g(seed);
    std::vector<uint64_t> v(n);
    for (auto& x : v) x = g.next();
    return v;
}
inline std::vector<int32_t> rand_i32(uint64_t seed, size_t n, int32_t lo, int32_t hi) {
    Lcg g(seed);
    std::vector<int32_t> v(n);
    for (auto& x : v) x = int32_t(g.range(lo, hi));
    return v;
}

}  // namespace ref
