// References for approximate (fast-math) kernels. PTX defines these results
// only within error bounds (sin/cos/ex2/lg2/rsqrt/rcp .approx, div.approx /
// div.full), so the expected values are the correctly rounded double-precision
// results and the expected file carries a tolerance. 64 ulp covers the
// documented bounds on the chosen input ranges: __sinf/__cosf have absolute
// error <= 2^-21.41 on [-pi, pi] (<= 13 ulp for results >= 0.29 here),
// __expf 2 + floor(|1.173 x|) ulp, __logf / lg2 absolute 2^-21.41 (results
// >= 0.69 here: <= 7 ulp), __fdividef and rsqrt/sqrt.approx <= 2 ulp.
#include "common.hpp"
#include "inputs.hpp"
#include <cmath>

using namespace ref;

// x in [0.3, 1.2] (sin, cos far from zero), y in [2, 100].
static std::vector<float> range_f32(uint64_t seed, size_t n, float lo, float hi) {
    Lcg g(seed);
    std::vector<float> v(n);
    for (auto& x : v) x = lo + (hi - lo) * float(g.u32() & 0xffffff) / 16777216.0f;
    return v;
}

REF_TEST(fast_intrinsics) {
    const int n = 64;
    Test t("fast_intrinsics", "../ptx/sm_80/fastmath.ptx", "fast_intrinsics", {2}, {32});
    auto x = t.buffer<float>("x", n, values(range_f32(110, n, 0.3f, 1.2f)));
    auto y = t.buffer<float>("y", n, values(range_f32(111, n, 2.0f, 100.0f)));
    auto out = t.buffer<float>("out", 6 * n, zero<float>());
    t.arg_buffer("x"); t.arg_buffer("y"); t.arg_buffer("out"); t.arg(int32_t(n));
    for (int i = 0; i < n; ++i) {
        double a = x[i], b = y[i];
        float* o = &out[6 * i];
        o[0] = float(std::sin(a));
        o[1] = float(std::cos(a));
        o[2] = float(std::exp(a));
        o[3] = float(std::log(b));
        o[4] = float(a / b);
        o[5] = float(1.0 / std::sqrt(b));
    }
    t.expect("out", out);
    t.tolerance_ulp(64);
    return t;
}

// fastmath_flag.cu, compiled with -use_fast_math (all .approx.ftz; inputs
// are normal so flushing subnormals does not matter).
REF_TEST(fast_flag) {
    const int n = 64;
    Test t("fast_flag", "../ptx/sm_80/fastmath_flag.ptx", "fast_flag", {2}, {32});
    auto x = t.buffer<float>("x", n, values(range_f32(112, n, 0.3f, 1.2f)));
    auto y = t.buffer<float>("y", n, values(range_f32(113, n, 2.0f, 100.0f)));
    auto out = t.buffer<float>("out", 5 * n, zero<float>());
    t.arg_buffer("x"); t.arg_buffer("y"); t.arg_buffer("out"); t.arg(int32_t(n));
    for (int i = 0; i < n; ++i) {
        double a = x[i], b = y[i];
        float* o = &out[5 * i];
        o[0] = float(std::sin(a));
        o[1] = float(std::exp(a));
        o[2] = float(a / b);
        o[3] = float(std::sqrt(b));
        o[4] = float(std::log2(b));
    }
    t.expect("out", out);
    t.tolerance_ulp(64);
    return t;
}
