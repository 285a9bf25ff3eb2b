// References for the warp-level matrix kernels (wmma_tf32.cu, mma_sync.cu,
// ldmatrix_mma.cu, stmatrix.cu). They compute plain matrix products; no
// fragment layout appears here except where the CUDA source itself exposes
// one (movmatrix, stmatrix). Kernels on small integers are exact under any
// accumulation order. The others follow docs/mma.md: the products and C are
// summed exactly (here in a 128-bit integer of 2^-48 or 2^-28 units, checked
// exact) and rounded once to nearest even; the rounding goes through the
// correctly rounded double of the exact sum, which is innocuous for f32 and
// f16 results (53 >= 2p + 2).
#include "common.hpp"
#include "inputs.hpp"
#include <type_traits>

using namespace ref;

namespace {

using i128 = __int128;

// x * 2^u as an exact integer (aborts when x is not a multiple of 2^-u).
i128 mma_units(double x, int u) {
    double y = std::ldexp(x, u);
    require(y == std::trunc(y) && std::fabs(y) < 0x1p100, "mma reference: value not exact in units");
    return i128(y);
}
// The exact value v * 2^-u correctly rounded to double.
double mma_value(i128 v, int u) { return std::ldexp(double(v), -u); }

// rand_i32 values as T (f16 and bf16 by exact conversion).
template <class T> std::vector<T> mma_ints(uint64_t seed, size_t n, int lo, int hi) {
    std::vector<T> v;
    for (int32_t x : rand_i32(seed, n, lo, hi)) {
        if constexpr (std::is_same_v<T, Half>) v.push_back(to_half(x));
        else if constexpr (std::is_same_v<T, BF16>) v.push_back(to_bf16(x));
        else v.push_back(T(x));
    }
    return v;
}
// Small dyadic doubles: random integers times scale.
std::vector<double> mma_dyadic(uint64_t seed, size_t n, int lo, int hi, double scale) {
    std::vector<double> v = mma_ints<double>(seed, n, lo, hi);
    for (double& x : v) x *= scale;
    return v;
}
// Random f16 with 11-bit significands and exponents in [emin, emax].
std::vector<Half> mma_rand_halves(uint64_t seed, size_t n, int emin, int emax) {
    std::vector<Half> v;
    for (float x : rand_f32(seed, n, emin, emax)) v.push_back(to_half(x, Rnd::rz));
    return v;
}
// s32 accumulators in [-r, r], every step-th one moved to margin from
// INT32_MAX (i % period == 0) or INT32_MIN (otherwise), plus its value / div,
// so that .satfinite clamps or sums wrap.
std::vector<int32_t> mma_near_limits(uint64_t seed, size_t n, int32_t r, size_t step, size_t period, int32_t margin,
                                     int32_t div) {
    std::vector<int32_t> cv = rand_i32(seed, n, -r, r);
    for (size_t i = 0; i < cv.size(); i += step) cv[i] = (i % period ? INT32_MIN + margin : INT32_MAX - margin) + cv[i] / div;
    return cv;
}

// D = A * B + C over an M x N x K shape: for every (m, n) the sum, of type
// Acc, starts at c(m, n) (or at the constant c) and adds prod(m, n, k) for
// k = 0, 1, ... K-1 in that order; store(m, n, sum) writes the result.
template <class Acc, class C, class P, class S> void mma_loop(int M, int N, int K, C c, P prod, S store) {
    for (int m = 0; m < M; ++m)
        for (int n = 0; n < N; ++n) {
            Acc s;
            if constexpr (std::is_invocable_v<C, int, int>) s = c(m, n);
            else s = c;
            for (int k = 0; k < K; ++k) s += prod(m, n, k);
            store(m, n, s);
        }
}

// cvt.rna.tf32.f32 (PTX ISA 9.7.9.21): round to 10 fraction bits, ties away.
float mma_rna_tf32(float x) {
    uint32_t u = bitcast<uint32_t>(x);
    u = (u + 0x1000u) & 0xffffe000u;
    return bitcast<float>(u);
}

// The integer layout of mma.sync and the s8 wmma: A M x K row-major and B
// K x N column-major (both with leading dimension K), C and D M x N
// row-major; exact sums in int64_t, store(i, sum) writes D[i].
template <class TA, class TB, class St>
void mma_int_rowcol(int M, int N, int K, const std::vector<TA>& a, const std::vector<TB>& b,
                    const std::vector<int32_t>& c, St store) {
    mma_loop<int64_t>(M, N, K, [&](int m, int n) { return c[m * N + n]; },
                      [&](int m, int n, int k) { return int64_t(a[m * K + k]) * b[n * K + k]; },
                      [&](int m, int n, int64_t s) { store(m * N + n, s); });
}

}  // namespace

// wmma_tf32.cu wmma_tf32: A 16x8 row-major (converted to tf32 in the kernel),
// B 8x16 row-major (used as loaded), C = 0, D 16x16 row-major. Integers keep
// tf32 conversion and accumulation exact.
REF_TEST(wmma_tf32) {
    Test t("wmma_tf32", "../ptx/sm_80/wmma_tf32.ptx", "wmma_tf32", {1}, {32});
    auto a = t.buffer_arg<float>("a", 128, values(mma_ints<float>(201, 128, -64, 64)));
    auto b = t.buffer_arg<float>("b", 128, values(mma_ints<float>(202, 128, -64, 64)));
    auto d = t.buffer_arg<float>("d", 256, zero<float>());
    mma_loop<double>(16, 16, 8, 0, [&](int m, int n, int k) { return double(a[m * 8 + k]) * double(b[k * 16 + n]); },
                     [&](int m, int n, double s) { d[m * 16 + n] = float(s); });
    t.expect("d", d);
    return t;
}

// wmma_tf32.cu wmma_bf16: A and B 16x16 bf16 row-major, C = 1, D stored column-major.
REF_TEST(wmma_bf16) {
    Test t("wmma_bf16", "../ptx/sm_80/wmma_tf32.ptx", "wmma_bf16", {1}, {32});
    auto a = t.buffer_arg<BF16>("a", 256, values(mma_ints<BF16>(203, 256, -8, 8)));
    auto b = t.buffer_arg<BF16>("b", 256, values(mma_ints<BF16>(204, 256, -8, 8)));
    auto d = t.buffer_arg<float>("d", 256, zero<float>());
    mma_loop<double>(16, 16, 16, 1, [&](int m, int n, int k) { return val(a[m * 16 + k]) * val(b[k * 16 + n]); },
                     [&](int m, int n, double s) { d[n * 16 + m] = float(s); });
    t.expect("d", d);
    return t;
}

// wmma_tf32.cu wmma_f64: A 8x4 row-major, B 4x8 column-major, C = 0, D 8x8
// row-major; exact: small dyadic values.
REF_TEST(wmma_f64) {
    Test t("wmma_f64", "../ptx/sm_80/wmma_tf32.ptx", "wmma_f64", {1}, {32});
    auto a = t.buffer_arg<double>("a", 32, values(mma_dyadic(205, 32, -1000, 1000, 0.25)));
    auto b = t.buffer_arg<double>("b", 32, values(mma_dyadic(206, 32, -1000, 1000, 0.5)));
    auto d = t.buffer_arg<double>("d", 64, zero<double>());
    mma_loop<double>(8, 8, 4, 0, [&](int m, int n, int k) { return a[m * 4 + k] * b[n * 4 + k]; },
                     [&](int m, int n, double s) { d[m * 8 + n] = s; });
    t.expect("d", d);
    return t;
}

// mma_sync.cu mma_f16_f32 on small integers: exact, order-independent.
REF_TEST(mma_f16_f32) {
    Test t("mma_f16_f32", "../ptx/sm_80/mma_sync.ptx", "mma_f16_f32", {1}, {32});
    auto a = t.buffer_arg<Half>("a", 256, values(mma_ints<Half>(207, 256, -6, 6)));
    auto b = t.buffer_arg<Half>("b", 128, values(mma_ints<Half>(208, 128, -6, 6)));
    auto c = t.buffer_arg<float>("c", 128, fiota<float>(-64, 1));
    auto d = t.buffer_arg<float>("d", 128, zero<float>());
    mma_loop<double>(16, 8, 16, [&](int m, int n) { return c[m * 8 + n]; },
                     [&](int m, int n, int k) { return val(a[m * 16 + k]) * val(b[n * 16 + k]); },
                     [&](int m, int n, double s) { d[m * 8 + n] = float(s); });
    t.expect("d", d);
    return t;
}

// mma_sync.cu mma_f16_f32 on values that need rounding: 11-bit significands
// over 2^-8..2^8 and f32 C over 2^-6..2^20 (some rows cancel, some add a
// large C), so a running f32 sum would differ from the exact sum rounded once.
REF_TEST(mma_f16_round) {
    Test t("mma_f16_round", "../ptx/sm_80/mma_sync.ptx", "mma_f16_f32", {1}, {32});
    auto a = t.buffer_arg<Half>("a", 256, values(mma_rand_halves(209, 256, -8, 8)));
    auto b = t.buffer_arg<Half>("b", 128, values(mma_rand_halves(210, 128, -8, 8)));
    auto c = t.buffer_arg<float>("c", 128, values(rand_f32(211, 128, -6, 20)));
    auto d = t.buffer_arg<float>("d", 128, zero<float>());
    mma_loop<i128>(16, 8, 16, [&](int m, int n) { return mma_units(c[m * 8 + n], 48); },
                   [&](int m, int n, int k) { return mma_units(val(a[m * 16 + k]), 24) * mma_units(val(b[n * 16 + k]), 24); },
                   [&](int m, int n, i128 s) { d[m * 8 + n] = float(mma_value(s, 48)); });
    t.expect("d", d);
    return t;
}

// mma_sync.cu mma_f16_f16: f16 accumulator, exact sum rounded once to f16.
REF_TEST(mma_f16_f16) {
    Test t("mma_f16_f16", "../ptx/sm_80/mma_sync.ptx", "mma_f16_f16", {1}, {32});
    auto a = t.buffer_arg<Half>("a", 256, values(mma_rand_halves(212, 256, -4, 4)));
    auto b = t.buffer_arg<Half>("b", 128, values(mma_rand_halves(213, 128, -4, 4)));
    auto c = t.buffer_arg<Half>("c", 128, values(mma_rand_halves(214, 128, -4, 6)));
    auto d = t.buffer_arg<Half>("d", 128, zero<Half>());
    mma_loop<i128>(16, 8, 16, [&](int m, int n) { return mma_units(val(c[m * 8 + n]), 48); },
                   [&](int m, int n, int k) { return mma_units(val(a[m * 16 + k]), 24) * mma_units(val(b[n * 16 + k]), 24); },
                   [&](int m, int n, i128 s) { d[m * 8 + n] = to_half(mma_value(s, 48)); });
    t.expect("d", d);
    return t;
}

// mma_sync.cu mma_s8_satfinite: s8 x s8 over k = 32, C partly near the s32
// limits so that .satfinite clamps.
REF_TEST(mma_s8_satfinite) {
    Test t("mma_s8_satfinite", "../ptx/sm_80/mma_sync.ptx", "mma_s8_satfinite", {1}, {32});
    auto a = t.buffer_arg<int8_t>("a", 512, values(mma_ints<int8_t>(215, 512, -128, 127)));
    auto b = t.buffer_arg<int8_t>("b", 256, values(mma_ints<int8_t>(216, 256, -128, 127)));
    auto c = t.buffer_arg<int32_t>("c", 128, values(mma_near_limits(217, 128, 100000, 3, 2, 20000, 50)));
    auto d = t.buffer_arg<int32_t>("d", 128, zero<int32_t>());
    mma_int_rowcol(16, 8, 32, a, b, c, [&](int i, int64_t s) { d[i] = sat_s32(s); });
    t.expect("d", d);
    return t;
}

// mma_sync.cu mma_u8s8: u8 x s8 over k = 16, C near INT32_MAX: results wrap.
REF_TEST(mma_u8s8) {
    Test t("mma_u8s8", "../ptx/sm_80/mma_sync.ptx", "mma_u8s8", {1}, {32});
    auto a = t.buffer_arg<uint8_t>("a", 256, values(mma_ints<uint8_t>(218, 256, 0, 255)));
    auto b = t.buffer_arg<int8_t>("b", 128, values(mma_ints<int8_t>(219, 128, -128, 127)));
    auto c = t.buffer_arg<int32_t>("c", 128, values(rand_i32(220, 128, INT32_MAX - 300000, INT32_MAX)));
    auto d = t.buffer_arg<int32_t>("d", 128, zero<int32_t>());
    mma_int_rowcol(16, 8, 16, a, b, c, [&](int i, int64_t s) { d[i] = int32_t(uint32_t(uint64_t(s))); });
    t.expect("d", d);
    return t;
}

// mma_sync.cu mma_tf32: f32 inputs rounded to tf32 with ties away, exact
// products and sum, one rounding to f32.
REF_TEST(mma_tf32) {
    Test t("mma_tf32", "../ptx/sm_80/mma_sync.ptx", "mma_tf32", {1}, {32});
    auto a = t.buffer_arg<float>("a", 128, values(rand_f32(221, 128, -4, 4)));
    auto b = t.buffer_arg<float>("b", 64, values(rand_f32(222, 64, -4, 4)));
    auto c = t.buffer_arg<float>("c", 128, values(rand_f32(223, 128, -4, 12)));
    auto d = t.buffer_arg<float>("d", 128, zero<float>());
    auto tf32 = [](float x) { return mma_units(mma_rna_tf32(x), 24); };
    mma_loop<i128>(16, 8, 8, [&](int m, int n) { return mma_units(c[m * 8 + n], 48); },
                   [&](int m, int n, int k) { return tf32(a[m * 8 + k]) * tf32(b[n * 8 + k]); },
                   [&](int m, int n, i128 s) { d[m * 8 + n] = float(mma_value(s, 48)); });
    t.expect("d", d);
    return t;
}

// mma_sync.cu mma_f64: A 8x4 row-major, B 4x8 column-major, C 8x8; exact.
REF_TEST(mma_f64) {
    Test t("mma_f64", "../ptx/sm_80/mma_sync.ptx", "mma_f64", {1}, {32});
    auto a = t.buffer_arg<double>("a", 32, values(mma_dyadic(224, 32, -4096, 4096, 0.125)));
    auto b = t.buffer_arg<double>("b", 32, values(mma_dyadic(225, 32, -4096, 4096, 0.5)));
    auto c = t.buffer_arg<double>("c", 64, fiota<double>(-1000.5, 31.25));
    auto d = t.buffer_arg<double>("d", 64, zero<double>());
    mma_loop<double>(8, 8, 4, [&](int m, int n) { return c[m * 8 + n]; },
                     [&](int m, int n, int k) { return a[m * 4 + k] * b[n * 4 + k]; },
                     [&](int m, int n, double s) { d[m * 8 + n] = s; });
    t.expect("d", d);
    return t;
}

// ldmatrix_mma.cu: D = A(16x16) * B(16x8, row-major) from shared memory via
// ldmatrix; at[l] is lane l's register after movmatrix.trans of the tile
// A[0..7][0..7]: row l/4, columns 2(l%4), 2(l%4)+1 of its transpose.
REF_TEST(ldmatrix_mma) {
    Test t("ldmatrix_mma", "../ptx/sm_80/ldmatrix_mma.ptx", "ldmatrix_mma", {1}, {32});
    auto a = t.buffer_arg<Half>("a", 256, values(mma_ints<Half>(226, 256, -5, 5)));
    auto b = t.buffer_arg<Half>("b", 128, values(mma_ints<Half>(227, 128, -5, 5)));
    auto d = t.buffer_arg<float>("d", 128, zero<float>());
    auto at = t.buffer_arg<uint32_t>("at", 32, zero<uint32_t>());
    mma_loop<double>(16, 8, 16, 0, [&](int m, int n, int k) { return val(a[m * 16 + k]) * val(b[k * 8 + n]); },
                     [&](int m, int n, double s) { d[m * 8 + n] = float(s); });
    for (int l = 0; l < 32; ++l) {
        int r = l / 4, c0 = 2 * (l % 4);
        at[l] = uint32_t(a[c0 * 16 + r].bits) | uint32_t(a[(c0 + 1) * 16 + r].bits) << 16;
    }
    t.expect("d", d);
    t.expect("at", at);
    return t;
}

// stmatrix.cu: in[32j + l] is register j of lane l, holding row l/4, columns
// 2(l%4) (low half) and 2(l%4)+1 (high half) of matrix j. out is the four
// matrices row-major; out_t the transposes of matrices 0 and 1.
REF_TEST(stmatrix_x4) {
    Test t("stmatrix_x4", "../ptx/sm_90/stmatrix.ptx", "stmatrix_x4", {1}, {32});
    auto in = t.buffer_arg<uint32_t>("in", 128, values(rand_u32(228, 128)));
    auto out = t.buffer_arg<uint16_t>("out", 256, zero<uint16_t>());
    auto out_t = t.buffer_arg<uint16_t>("out_t", 128, zero<uint16_t>());
    auto elem = [&](int j, int r, int c) { return uint16_t(in[32 * j + 4 * r + c / 2] >> (16 * (c % 2))); };
    for (int j = 0; j < 4; ++j)
        for (int r = 0; r < 8; ++r)
            for (int c = 0; c < 8; ++c) out[j * 64 + r * 8 + c] = elem(j, r, c);
    for (int j = 0; j < 2; ++j)
        for (int r = 0; r < 8; ++r)
            for (int c = 0; c < 8; ++c) out_t[j * 64 + r * 8 + c] = elem(j, c, r);
    t.expect("out", out);
    t.expect("out_t", out_t);
    return t;
}

// wmma_shapes.cu wmma_m32n8k16_f16: A 32x16 column-major (ld 40), B 16x8
// row-major, C 32x8 row-major f16 doubled in the kernel, D column-major (ld
// 40; rows 32..39 of each column untouched). Small integers: exact.
REF_TEST(wmma_m32n8k16_f16) {
    Test t("wmma_m32n8k16_f16", "../ptx/sm_80/wmma_shapes.ptx", "wmma_m32n8k16_f16", {1}, {32});
    auto a = t.buffer_arg<Half>("a", 640, values(mma_ints<Half>(229, 640, -4, 4)));
    auto b = t.buffer_arg<Half>("b", 128, values(mma_ints<Half>(230, 128, -4, 4)));
    auto c = t.buffer_arg<Half>("c", 256, values(mma_ints<Half>(231, 256, -100, 100)));
    auto d = t.buffer_arg<Half>("d", 320, zero<Half>());
    mma_loop<double>(32, 8, 16, [&](int m, int n) { return 2 * val(c[m * 8 + n]); },
                     [&](int m, int n, int k) { return val(a[k * 40 + m]) * val(b[k * 8 + n]); },
                     [&](int m, int n, double s) { d[n * 40 + m] = to_half(s); });
    t.expect("d", d);
    return t;
}

// wmma_shapes.cu wmma_m8n32k16_s8: A 8x16 row-major, B 16x32 column-major,
// C 8x32 row-major with some entries near the int limits; .satfinite.
REF_TEST(wmma_m8n32k16_s8) {
    Test t("wmma_m8n32k16_s8", "../ptx/sm_80/wmma_shapes.ptx", "wmma_m8n32k16_s8", {1}, {32});
    auto a = t.buffer_arg<int8_t>("a", 128, values(mma_ints<int8_t>(232, 128, -128, 127)));
    auto b = t.buffer_arg<int8_t>("b", 512, values(mma_ints<int8_t>(233, 512, -128, 127)));
    auto c = t.buffer_arg<int32_t>("c", 256, values(mma_near_limits(234, 256, 50000, 4, 8, 10000, 50)));
    auto d = t.buffer_arg<int32_t>("d", 256, zero<int32_t>());
    mma_int_rowcol(8, 32, 16, a, b, c, [&](int i, int64_t s) { d[i] = sat_s32(s); });
    t.expect("d", d);
    return t;
}

// wmma_shapes.cu wmma_u8: A and B 16x16 u8 row-major, C = -5, D column-major.
REF_TEST(wmma_u8) {
    Test t("wmma_u8", "../ptx/sm_80/wmma_shapes.ptx", "wmma_u8", {1}, {32});
    auto a = t.buffer_arg<uint8_t>("a", 256, values(mma_ints<uint8_t>(235, 256, 0, 255)));
    auto b = t.buffer_arg<uint8_t>("b", 256, values(mma_ints<uint8_t>(236, 256, 0, 255)));
    auto d = t.buffer_arg<int32_t>("d", 256, zero<int32_t>());
    mma_loop<int64_t>(16, 16, 16, -5, [&](int m, int n, int k) { return int64_t(a[m * 16 + k]) * b[k * 16 + n]; },
                      [&](int m, int n, int64_t s) { d[n * 16 + m] = int32_t(s); });
    t.expect("d", d);
    return t;
}

// mma_sync.cu mma_s4: A 16x64 and B 64x8 (column-major) s4 packed eight per
// word, lowest nibble first; C partly near the limits; .satfinite.
REF_TEST(mma_s4) {
    Test t("mma_s4", "../ptx/sm_80/mma_sync.ptx", "mma_s4", {1}, {32});
    auto a = t.buffer_arg<uint32_t>("a", 128, values(rand_u32(237, 128)));
    auto b = t.buffer_arg<uint32_t>("b", 64, values(rand_u32(238, 64)));
    auto c = t.buffer_arg<int32_t>("c", 128, values(mma_near_limits(239, 128, 2000, 3, 2, 100, 40)));
    auto d = t.buffer_arg<int32_t>("d", 128, zero<int32_t>());
    auto nib = [](const std::vector<uint32_t>& v, unsigned i) { return int((v[i / 8] >> (4 * (i % 8)) & 15) ^ 8) - 8; };
    mma_loop<int64_t>(16, 8, 64, [&](int m, int n) { return c[m * 8 + n]; },
                      [&](int m, int n, int k) { return int64_t(nib(a, m * 64 + k)) * nib(b, n * 64 + k); },
                      [&](int m, int n, int64_t s) { d[m * 8 + n] = sat_s32(s); });
    t.expect("d", d);
    return t;
}

// mma_sync.cu mma_b1: D = C + number of k with A[m][k] and B[k][n] both set;
// A 16x128 row-major and B column-major, 32 bits per word, bit 0 first (the
// loop runs over the four words of a row).
REF_TEST(mma_b1) {
    Test t("mma_b1", "../ptx/sm_80/mma_sync.ptx", "mma_b1", {1}, {32});
    auto a = t.buffer_arg<uint32_t>("a", 64, values(rand_u32(240, 64)));
    auto b = t.buffer_arg<uint32_t>("b", 32, values(rand_u32(241, 32)));
    auto c = t.buffer_arg<int32_t>("c", 128, values(rand_i32(242, 128, -1000, 1000)));
    auto d = t.buffer_arg<int32_t>("d", 128, zero<int32_t>());
    mma_loop<int32_t>(16, 8, 4, [&](int m, int n) { return c[m * 8 + n]; },
                      [&](int m, int n, int w) { return int32_t(popc32(a[m * 4 + w] & b[n * 4 + w])); },
                      [&](int m, int n, int32_t s) { d[m * 8 + n] = s; });
    t.expect("d", d);
    return t;
}
