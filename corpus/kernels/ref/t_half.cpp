// References for f16 and bf16: every result is the exact real result
// (computed in double and checked exact with TwoSum) rounded once to the
// 16-bit format, which is what the single-rounding PTX instructions
// (add/sub/mul/fma.rn.f16[x2], fma.rn.bf16[x2], cvt.rn/.rz) define.
#include "common.hpp"
#include "inputs.hpp"
#include <limits>

using namespace ref;

// p + c in double, aborting unless the sum is exact (so one rounding to f16
// or bf16 afterwards equals the hardware's single rounding).
static double exact_sum(double p, double c) {
    double s = p + c;
    if (!std::isfinite(s)) return s;
    double bb = s - p;
    double err = (p - (s - bb)) + (c - bb);
    require(err == 0, "half reference: sum not exact in double");
    return s;
}

static std::vector<Half> rand_half(uint64_t seed, size_t n, int emin, int emax) {
    std::vector<Half> v;
    for (float x : rand_f32(seed, n, emin, emax)) v.push_back(to_half(x, Rnd::rz));  // 11-bit significands
    return v;
}

// half_math.cu half2_ops: 2 x 48 packed pairs = 96 halves per buffer.
REF_TEST(half2_ops) {
    const int n = 48;  // __half2 elements
    Test t("half2_ops", "../ptx/sm_80/half_math.ptx", "half2_ops", {2}, {32});
    auto a = t.buffer_arg<Half>("a", 2 * n, values(rand_half(40, 2 * n, -6, 6)));
    auto b = t.buffer_arg<Half>("b", 2 * n, values(rand_half(41, 2 * n, -6, 6)));
    auto c = t.buffer_arg<Half>("c", 2 * n, values(rand_half(42, 2 * n, -6, 6)));
    auto add = t.buffer_arg<Half>("add", 2 * n, zero<Half>());
    auto mul = t.buffer_arg<Half>("mul", 2 * n, zero<Half>());
    auto fma = t.buffer_arg<Half>("fma", 2 * n, zero<Half>());
    t.arg(int32_t(n));
    for (int i = 0; i < 2 * n; ++i) {
        double x = val(a[i]), y = val(b[i]), z = val(c[i]);
        add[i] = to_half(exact_sum(x, y));
        mul[i] = to_half(x * y);  // 22-bit product: exact in double
        fma[i] = to_half(exact_sum(x * y, z));
    }
    t.expect("add", add);
    t.expect("mul", mul);
    t.expect("fma", fma);
    return t;
}

// half_math.cu half_convert: cvt.rn.f16.f32, cvt.rz.f16.f32, cvt.f32.f16,
// cvt.rni.s32.f16 (saturating: inf -> INT_MAX).
REF_TEST(half_convert) {
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<float> in = {0.1f, 1.0f / 3, 65504.0f, 65519.0f, 65520.0f, 70000.0f, -70000.0f, 1e-5f,
                             6e-8f, 2e-8f, -0.0f, 2.5f, 3.5f, -2.5f, 0.5f, 1.5f,
                             inf, -inf, 1.00048828125f, 1.00146484375f, -1000.7f, 6.1035156e-05f, 3e-5f, 1e-7f};
    for (float x : rand_f32(43, 40, -20, 14)) in.push_back(x);
    const int n = int(in.size());
    Test t("half_convert", "../ptx/sm_80/half_math.ptx", "half_convert", {1}, {64});
    auto x = t.buffer_arg<float>("in", n, values(in));
    auto rn = t.buffer_arg<Half>("rn", n, zero<Half>());
    auto rz = t.buffer_arg<Half>("rz", n, zero<Half>());
    auto back = t.buffer_arg<float>("back", n, zero<float>());
    auto toint = t.buffer_arg<int32_t>("toint", n, zero<int32_t>());
    t.arg(int32_t(n));
    for (int i = 0; i < n; ++i) {
        rn[i] = to_half(x[i], Rnd::rn);
        rz[i] = to_half(x[i], Rnd::rz);
        back[i] = fval(rn[i]);
        toint[i] = cvt_s32(val(rn[i]), Rnd::rn, Src::f16);
    }
    t.expect("rn", rn);
    t.expect("rz", rz);
    t.expect("back", back);
    t.expect("toint", toint);
    return t;
}

// half_math.cu half_scalar: sub.f16, neg.f16, abs.f16, setp.lt.f16 + selp.
REF_TEST(half_scalar) {
    const int n = 40;
    Test t("half_scalar", "../ptx/sm_80/half_math.ptx", "half_scalar", {1}, {64});
    auto av = rand_half(44, n, -8, 8);
    auto bv = rand_half(45, n, -8, 8);
    bv[3] = av[3];            // x - x = +0
    bv[7] = Half{0x8000};     // -0
    auto a = t.buffer_arg<Half>("a", n, values(av));
    auto b = t.buffer_arg<Half>("b", n, values(bv));
    auto out = t.buffer_arg<Half>("out", 4 * n, zero<Half>());
    t.arg(int32_t(n));
    for (int i = 0; i < n; ++i) {
        double x = val(a[i]), y = val(b[i]);
        out[4 * i + 0] = to_half(exact_sum(x, -y));
        out[4 * i + 1] = Half{uint16_t(a[i].bits ^ 0x8000)};
        out[4 * i + 2] = Half{uint16_t(b[i].bits & 0x7fff)};
        out[4 * i + 3] = x < y ? a[i] : b[i];
    }
    t.expect("out", out);
    return t;
}

// bf16_math.cu bf16_ops: cvt.rn/.rz.bf16.f32, fma.rn.bf16x2 with 1.0 (the
// sm_80 lowering of __hadd2), fma.rn.bf16, and back*2 in f32.
REF_TEST(bf16_ops) {
    std::vector<float> xs = {1.00390625f, 1.01171875f, 3.4e38f, -3.4e38f, 1.0f / 3, 0.1f, -2.75f, 1e-3f};
    for (float v : rand_f32(46, 40, -6, 6)) xs.push_back(v);
    const int n = int(xs.size());
    Test t("bf16_ops", "../ptx/sm_80/bf16_math.ptx", "bf16_ops", {2}, {32});
    auto x = t.buffer_arg<float>("x", n, values(xs));
    auto y = t.buffer_arg<float>("y", n, values(rand_f32(47, n, -6, 6)));
    auto rn = t.buffer_arg<BF16>("rn", n, zero<BF16>());
    auto rz = t.buffer_arg<BF16>("rz", n, zero<BF16>());
    auto sum2 = t.buffer_arg<BF16>("sum2", 2 * n, zero<BF16>());
    auto fma = t.buffer_arg<BF16>("fma", n, zero<BF16>());
    auto back = t.buffer_arg<float>("back", n, zero<float>());
    t.arg(int32_t(n));
    for (int i = 0; i < n; ++i) {
        BF16 a = to_bf16(x[i]), b = to_bf16(y[i]);
        double va = val(a), vb = val(b);
        rn[i] = a;
        rz[i] = to_bf16(x[i], Rnd::rz);
        sum2[2 * i] = to_bf16(exact_sum(va * 1.0, vb));
        sum2[2 * i + 1] = to_bf16(exact_sum(vb * 1.0, vb));
        fma[i] = to_bf16(exact_sum(va * vb, vb));
        back[i] = fval(a) + fval(a);
    }
    t.expect("rn", rn);
    t.expect("rz", rz);
    t.expect("sum2", sum2);
    t.expect("fma", fma);
    t.expect("back", back);
    return t;
}
