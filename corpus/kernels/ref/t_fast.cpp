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

// One fast-math kernel: x (seed) in [0.3, 1.2], y (seed + 1) in [2, 100];
// out[k * i + j] = fns[j](x[i], y[i]) evaluated in double, rounded to f32.
using FastFn = double (*)(double a, double b);
static Test fast_test(const char* name, const char* ptx, uint64_t seed, const std::vector<FastFn>& fns) {
    const int n = 64;
    const size_t k = fns.size();
    Test t(name, ptx, name, {2}, {32});
    auto x = t.buffer_arg<float>("x", n, values(range_f32(seed, n, 0.3f, 1.2f)));
    auto y = t.buffer_arg<float>("y", n, values(range_f32(seed + 1, n, 2.0f, 100.0f)));
    auto out = t.buffer_arg<float>("out", k * n, zero<float>());
    t.arg(int32_t(n));
    for (int i = 0; i < n; ++i)
        for (size_t j = 0; j < k; ++j) out[k * i + j] = float(fns[j](x[i], y[i]));
    t.expect("out", out);
    t.tolerance_ulp(64);
    return t;
}

// fastmath.cu: __sinf, __cosf, __expf, __logf, __fdividef, rsqrtf.
REF_TEST(fast_intrinsics) {
    return fast_test("fast_intrinsics", "../ptx/sm_80/fastmath.ptx", 110,
                     {[](double a, double) { return std::sin(a); }, [](double a, double) { return std::cos(a); },
                      [](double a, double) { return std::exp(a); }, [](double, double b) { return std::log(b); },
                      [](double a, double b) { return a / b; }, [](double, double b) { return 1.0 / std::sqrt(b); }});
}

// fastmath_flag.cu, compiled with -use_fast_math (all .approx.ftz; inputs
// are normal so flushing subnormals does not matter): sinf, expf, a / b,
// sqrtf, log2f.
REF_TEST(fast_flag) {
    return fast_test("fast_flag", "../ptx/sm_80/fastmath_flag.ptx", 112,
                     {[](double a, double) { return std::sin(a); }, [](double a, double) { return std::exp(a); },
                      [](double a, double b) { return a / b; }, [](double, double b) { return std::sqrt(b); },
                      [](double, double b) { return std::log2(b); }});
}
