// References for the f32/f64 arithmetic kernels: saxpy, vecadd, fma_rounding,
// grid_stride, f32_div_sqrt, fp64_math. Each mirrors the PTX that nvcc emits
// (fma.rn.f32 where it contracted, explicit rounding modes where requested).
#include "common.hpp"
#include "inputs.hpp"
#include <cmath>

using namespace ref;

// saxpy.cu: y[i] = fma.rn(x[i], a, y[i]) for i < n (nvcc contracts a*x+y).
REF_TEST(saxpy) {
    const int n = 1000;
    Test t("saxpy", "../ptx/sm_80/saxpy.ptx", "saxpy", {4}, {256});
    auto x = t.buffer<float>("x", n, fiota<float>(-50, 0.25));
    auto y = t.buffer<float>("y", n, values(rand_f32(1, 97, -3, 6)));
    const float a = 1.7f;
    t.arg(a); t.arg_buffer("x"); t.arg_buffer("y"); t.arg(int32_t(n));
    for (int i = 0; i < n; ++i) y[i] = std::fma(x[i], a, y[i]);
    t.expect("y", y);
    return t;
}

// vecadd.cu: c[i] = op(a[i], b[i]) for i < n; c has c_count elements and
// keeps its initial value past n.
template <class T, class Op>
static Test vec_binop(const char* kernel, std::vector<unsigned> grid, std::vector<unsigned> block, unsigned n,
                      const Init<T>& a_init, const Init<T>& b_init, const Init<T>& c_init, unsigned c_count, Op op) {
    Test t(kernel, "../ptx/sm_80/vecadd.ptx", kernel, grid, block);
    auto a = t.buffer_arg<T>("a", n, a_init);
    auto b = t.buffer_arg<T>("b", n, b_init);
    auto c = t.buffer_arg<T>("c", c_count, c_init);
    t.arg(n);
    for (unsigned i = 0; i < n; ++i) c[i] = op(a[i], b[i]);
    t.expect("c", c);
    return t;
}

// vecadd.cu vecadd_f32: c[i] = a[i] + b[i] (add.f32, round to nearest even);
// threads past n (512 launched, n = 500) write nothing.
REF_TEST(vecadd_f32) {
    const unsigned n = 500;
    return vec_binop<float>("vecadd_f32", {2}, {256}, n, values(rand_f32(2, n, -20, 20)),
                            values(rand_f32(3, n, -20, 20)), fill(-1.0f), n, [](float x, float y) { return x + y; });
}

// vecadd.cu vecadd_u32: wrapping unsigned addition.
REF_TEST(vecadd_u32) {
    return vec_binop<uint32_t>("vecadd_u32", {3}, {128}, 300, values(rand_u32(4, 64)), iota<uint32_t>(1000, 7919),
                               zero<uint32_t>(), 384, [](uint32_t x, uint32_t y) { return x + y; });
}

// vecadd.cu vecsub_f64: sub.f64.
REF_TEST(vecsub_f64) {
    const unsigned n = 200;
    return vec_binop<double>("vecsub_f64", {4}, {64}, n, values(rand_f64(5, n, -40, 40)),
                             values(rand_f64(6, n, -40, 40)), zero<double>(), n, [](double x, double y) { return x - y; });
}

// fma_rounding.cu: eight results per element; each directed mode is
// reproduced by the host FPU in that mode.
REF_TEST(fma_rounding) {
    const int n = 96;
    Test t("fma_rounding", "../ptx/sm_80/fma_rounding.ptx", "fma_rounding", {3}, {32});
    auto a = t.buffer_arg<float>("a", n, values(rand_f32(7, n, -8, 8)));
    auto b = t.buffer_arg<float>("b", n, values(rand_f32(8, n, -8, 8)));
    auto c = t.buffer_arg<float>("c", n, values(rand_f32(9, n, -4, 12)));
    auto out = t.buffer_arg<float>("out", 8 * n, zero<float>());
    t.arg(int32_t(n));
    for (int i = 0; i < n; ++i) {
        float x = a[i], y = b[i], z = c[i];
        float* o = &out[8 * i];
        o[0] = std::fma(x, y, z);
        float p = x * y;
        o[1] = p + z;
        o[2] = fma_f32(x, y, z, Rnd::rz);
        o[3] = fma_f32(x, y, z, Rnd::rm);
        o[4] = fma_f32(x, y, z, Rnd::rp);
        o[5] = add_f32(x, z, Rnd::rp);
        o[6] = mul_f32(x, y, Rnd::rm);
        o[7] = div_f32(x, y, Rnd::rz);
        require(fma_f32(x, y, z, Rnd::rn) == o[0] && div_f32(x, y, Rnd::rn) == x / y, "rn helpers agree with host");
        // Sanity of the directed fma: rm <= rn <= rp, rz is the one nearer 0.
        require(o[3] <= o[0] && o[0] <= o[4] && o[2] == (o[0] < 0 ? o[4] : o[3]), "fma rounding sanity");
    }
    t.expect("out", out);
    return t;
}

// grid_stride.cu: 128 threads cover 1000 elements; x = fma.rn(x, s, 1).
REF_TEST(grid_stride) {
    const int n = 1000;
    Test t("grid_stride", "../ptx/sm_80/grid_stride.ptx", "scale_grid_stride", {2}, {64});
    auto x = t.buffer_arg<float>("x", n, fiota<float>(-10, 0.03125));
    const float s = 1.1f;
    t.arg(s); t.arg(int32_t(n));
    for (int i = 0; i < n; ++i) x[i] = std::fma(x[i], s, 1.0f);
    t.expect("x", x);
    return t;
}

// f32_div_sqrt.cu: div.rn, sqrt.rn, rcp.rn, sqrt.rm, div.rp, rcp.rz (all
// correctly rounded, so exact). b > 0 keeps sqrt away from NaN.
REF_TEST(f32_div_sqrt) {
    const int n = 64;
    Test t("f32_div_sqrt", "../ptx/sm_80/f32_div_sqrt.ptx", "f32_div_sqrt", {2}, {32});
    auto a = t.buffer_arg<float>("a", n, values(rand_f32(10, n, -30, 30)));
    auto b = t.buffer_arg<float>("b", n, values(rand_f32(11, n, -30, 30, true)));
    auto out = t.buffer_arg<float>("out", 6 * n, zero<float>());
    t.arg(int32_t(n));
    for (int i = 0; i < n; ++i) {
        float x = a[i], y = b[i];
        float* o = &out[6 * i];
        o[0] = x / y;
        o[1] = std::sqrt(y);
        o[2] = 1.0f / x;
        o[3] = sqrt_f32(y, Rnd::rm);
        o[4] = div_f32(x, y, Rnd::rp);
        o[5] = div_f32(1.0f, y, Rnd::rz);
        require(sqrt_f32(y, Rnd::rn) == o[1] && div_f32(x, y, Rnd::rn) == o[0], "rn helpers agree with host");
        require(o[3] <= o[1] && o[4] >= o[0] && std::fabs(o[5]) <= std::fabs(1.0f / y), "directed sanity");
    }
    t.expect("out", out);
    return t;
}

// fp64_math.cu: add, mul, fma.rn, div.rn, sqrt.rn, rcp.rn, add.rz,
// mul.rp - mul.rm (the width of the rounding interval: 0 or 1 ulp).
REF_TEST(fp64_math) {
    const int n = 64;
    Test t("fp64_math", "../ptx/sm_80/fp64_math.ptx", "fp64_math", {1}, {64});
    auto a = t.buffer_arg<double>("a", n, values(rand_f64(12, n, -100, 100)));
    auto b = t.buffer_arg<double>("b", n, values(rand_f64(13, n, -100, 100)));
    auto out = t.buffer_arg<double>("out", 8 * n, zero<double>());
    t.arg(int32_t(n));
    for (int i = 0; i < n; ++i) {
        double x = a[i], y = b[i];
        double* o = &out[8 * i];
        o[0] = x + y;
        o[1] = x * y;
        o[2] = std::fma(x, y, -1.0);
        o[3] = x / y;
        o[4] = std::sqrt(std::fabs(y));
        o[5] = 1.0 / y;
        o[6] = add_f64(x, y, Rnd::rz);
        double up = mul_f64(x, y, Rnd::rp);
        double dn = mul_f64(x, y, Rnd::rm);
        o[6 + 1] = up - dn;
    }
    t.expect("out", out);
    return t;
}
