// References for control flow: device calls (.func with struct return),
// recursion, local arrays, selp/predication/divergence, loops, switch.
#include "common.hpp"
#include "inputs.hpp"
#include <algorithm>
#include <cmath>

using namespace ref;

// device_calls.cu: gcd (C remainder semantics = rem.s32), divmod, and a
// degree-4 Horner polynomial in fma.rn.f32 at x = i * 0.125.
REF_TEST(device_calls) {
    const int n = 40;
    Test t("device_calls", "../ptx/sm_80/device_calls.ptx", "device_calls", {2}, {32});
    auto av = rand_i32(70, n, -100000, 100000), bv = rand_i32(71, n, -1000, 1000);
    for (auto& v : bv) if (v == 0) v = 7;
    av[0] = 462; bv[0] = 1071;
    auto a = t.buffer_arg<int32_t>("a", n, values(av));
    auto b = t.buffer_arg<int32_t>("b", n, values(bv));
    auto coef = t.buffer_arg<float>("coef", 5, values<float>({1.5f, -0.3f, 0.7f, 0.01f, -0.125f}));
    auto oi = t.buffer_arg<int32_t>("out_i", 3 * n, zero<int32_t>());
    auto of = t.buffer_arg<float>("out_f", n, zero<float>());
    t.arg(int32_t(n));
    for (int i = 0; i < n; ++i) {
        int x = a[i], y = b[i];
        while (y != 0) { int r = x % y; x = y; y = r; }
        oi[3 * i] = x;
        oi[3 * i + 1] = a[i] / b[i];
        oi[3 * i + 2] = a[i] % b[i];
        float xf = float(i) * 0.125f, r = coef[4];
        for (int k = 3; k >= 0; --k) r = std::fma(r, xf, coef[k]);
        of[i] = r;
    }
    t.expect("out_i", oi);
    t.expect("out_f", of);
    return t;
}

// recursion.cu: fib(n) and (n+5)! by recursive .func calls.
REF_TEST(recursion) {
    const int n = 32;
    Test t("recursion", "../ptx/sm_80/recursion.ptx", "recursion", {1}, {32});
    std::vector<int32_t> iv;
    for (int i = 0; i < 11; ++i) iv.push_back(i);
    auto in = t.buffer_arg<int32_t>("in", n, values(iv));   // 0..10 repeated
    auto fibs = t.buffer_arg<int32_t>("fibs", n, zero<int32_t>());
    auto facts = t.buffer_arg<uint64_t>("facts", n, zero<uint64_t>());
    t.arg(int32_t(n));
    for (int i = 0; i < n; ++i) {
        int f0 = 0, f1 = 1;
        for (int k = 0; k < in[i]; ++k) { int f2 = f0 + f1; f0 = f1; f1 = f2; }
        fibs[i] = f0;
        uint64_t f = 1;
        for (uint64_t k = 2; k <= uint64_t(in[i]) + 5; ++k) f *= k;
        facts[i] = f;
    }
    t.expect("fibs", fibs);
    t.expect("facts", facts);
    return t;
}

// local_array.cu: each thread sorts 16 gathered values in a .local array.
REF_TEST(local_sort) {
    const int n = 32;  // ~1500 thread-instructions each (insertion sort in .local)
    Test t("local_sort", "../ptx/sm_80/local_array.ptx", "local_sort", {1}, {32});
    auto in = t.buffer_arg<int32_t>("in", n, values(rand_i32(72, n, -1000, 1000)));
    auto idx = t.buffer_arg<int32_t>("idx", n, values(rand_i32(73, n, 0, 1000)));
    auto out = t.buffer_arg<int32_t>("out", 2 * n, zero<int32_t>());
    t.arg(int32_t(n));
    for (int i = 0; i < n; ++i) {
        std::vector<int32_t> buf(16);
        for (int k = 0; k < 16; ++k) buf[k] = in[(i * 5 + k * 3) % n];
        std::sort(buf.begin(), buf.end());
        out[2 * i] = buf.at(idx[i] & 15);
        out[2 * i + 1] = buf[0] + buf[15];
    }
    t.expect("out", out);
    return t;
}

// select_pred.cu: selp, nested divergent branches, data-dependent loop.
REF_TEST(select_pred) {
    const int n = 96;
    Test t("select_pred", "../ptx/sm_80/select_pred.ptx", "select_pred", {3}, {32});
    auto in = t.buffer_arg<int32_t>("in", n, values(rand_i32(74, n, -1000, 1000)));
    auto out = t.buffer_arg<int32_t>("out", n, zero<int32_t>());
    auto outf = t.buffer_arg<float>("outf", n, zero<float>());
    t.arg(int32_t(n));
    for (int i = 0; i < n; ++i) {
        int v = in[i];
        int r = v > 0 ? v * 2 : -v + 7;
        if (v & 1) {
            if (v % 3 == 0) r += 100; else r -= 100;
        } else {
            for (int k = 0; k < (v & 7); ++k) r ^= k << 4;
        }
        out[i] = r;
        float f = float(v);
        outf[i] = (v & 2) ? f * 0.5f : (f < -3.0f ? -f : f + 0.25f);
    }
    t.expect("out", out);
    t.expect("outf", outf);
    return t;
}

// loops.cu: Collatz step counts for 1..64, do-while, nested break/continue.
REF_TEST(loops) {
    const int n = 64;
    Test t("loops", "../ptx/sm_80/loops.ptx", "loops", {2}, {32});
    auto steps = t.buffer_arg<int32_t>("steps", n, zero<int32_t>());
    auto acc = t.buffer_arg<uint32_t>("acc", n, zero<uint32_t>());
    t.arg(int32_t(n));
    for (int i = 0; i < n; ++i) {
        uint32_t x = uint32_t(i) + 1;
        int s = 0;
        while (x != 1) { x = (x & 1) ? 3 * x + 1 : x >> 1; ++s; }
        steps[i] = s;
        uint32_t a = 0, k = uint32_t(i);
        do { a += k * k; k >>= 1; } while (k != 0);
        for (int p = 0; p < 6; ++p) {
            if (p == i % 5) continue;
            for (int q = 0; q < 6; ++q) {
                if (q > p) break;
                a = a * 31u + uint32_t(p * q);
            }
        }
        acc[i] = a;
    }
    t.expect("steps", steps);
    t.expect("acc", acc);
    return t;
}

// switch.cu switch_dense: a dense switch with a fallthrough, then a sparse one.
REF_TEST(switch_dense) {
    const int n = 64;
    Test t("switch_dense", "../ptx/sm_80/switch.ptx", "switch_dense", {2}, {32});
    auto in = t.buffer_arg<int32_t>("in", n, values(rand_i32(75, n, -2, 9)));
    auto out = t.buffer_arg<int32_t>("out", n, zero<int32_t>());
    t.arg(int32_t(n));
    for (int i = 0; i < n; ++i) {
        int v = in[i], r;
        switch (v) {
        case 0: r = 11; break;
        case 1: r = v * 13 + 2; break;
        case 2: r = -5; break;
        case 3: r = i * i; break;
        case 4: r = 1 << i % 16; break;
        case 5: [[fallthrough]];
        case 6: r = v + 600; break;
        case 7: r = i ^ 0x55; break;
        default: r = -1; break;
        }
        switch (v * 1000) {
        case 0: r += 1; break;
        case 3000: r += 3; break;
        case 7000: r += 7; break;
        default: break;
        }
        out[i] = r;
    }
    t.expect("out", out);
    return t;
}
