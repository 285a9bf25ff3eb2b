// References for integer and conversion kernels: 64-bit arithmetic, the
// 32-bit bit intrinsics (prmt, shf, dp4a/dp2a per their PTX definitions),
// bit fields, float<->int cvt with rounding and saturation, saturating
// arithmetic, min/max.
#include "common.hpp"
#include "inputs.hpp"
#include <algorithm>
#include <limits>

using namespace ref;

// int64_ops.cu: 12 results per element. b is never 0, and (INT64_MIN, -1)
// never occurs, so the C++ operators are defined and equal div/rem.{u64,s64}.
REF_TEST(int64_ops) {
    const int n = 48;
    Test t("int64_ops", "../ptx/sm_80/int64_ops.ptx", "int64_ops", {2}, {32});
    std::vector<uint64_t> av = rand_u64(50, n), bv = rand_u64(51, n);
    for (int i = 0; i < n; ++i) {
        bv[i] >>= (i * 7) % 64;               // divisors of every magnitude
        if (bv[i] == 0 || bv[i] == ~0ull) bv[i] = 3 + i;
        if (i % 5 == 0) av[i] = ~0ull - i;    // near the top of the range
    }
    av[1] = 0x8000000000000000ull; bv[1] = 2;
    av[2] = 0; bv[2] = 0xfffffffffffffffeull;
    auto a = t.buffer_arg<uint64_t>("a", n, values(av));
    auto b = t.buffer_arg<uint64_t>("b", n, values(bv));
    auto out = t.buffer_arg<uint64_t>("out", 12 * n, zero<uint64_t>());
    t.arg(int32_t(n));
    for (int i = 0; i < n; ++i) {
        uint64_t x = a[i], y = b[i];
        int64_t sx = int64_t(x), sy = int64_t(y);
        uint64_t* o = &out[12 * i];
        o[0] = x * y;
        o[1] = uint64_t((unsigned __int128)x * y >> 64);
        o[2] = uint64_t((__int128)sx * sy >> 64);
        o[3] = x / y;
        o[4] = x % y;
        o[5] = uint64_t(sx / sy);
        o[6] = uint64_t(sx % sy);
        o[7] = x << (y & 63);
        o[8] = x >> (y & 63);
        o[9] = uint64_t(sx >> (y & 63));
        uint64_t clz = x ? uint64_t(__builtin_clzll(x)) : 64;
        uint64_t ffs = uint64_t(__builtin_ffsll(sy));
        o[10] = clz | (uint64_t(__builtin_popcountll(x)) << 8) | (ffs << 16);
        o[11] = brev64(x);
    }
    t.expect("out", out);
    return t;
}

// prmt.b32 default mode (PTX ISA 9.7.9.7 prmt): byte n of the result is byte
// (sel >> 4n) & 7 of {b,a}; bit 3 of a nibble (sign replication) is masked
// off by the kernel.
static uint32_t prmt(uint32_t a, uint32_t b, uint32_t sel) {
    uint64_t bytes = (uint64_t(b) << 32) | a;
    uint32_t r = 0;
    for (int k = 0; k < 4; ++k) {
        unsigned s = (sel >> (4 * k)) & 15;
        require(s < 8, "prmt reference: sign mode not modelled");
        r |= uint32_t((bytes >> (8 * s)) & 0xff) << (8 * k);
    }
    return r;
}
static int32_t sext(uint32_t v, int bits) { return int32_t(v << (32 - bits)) >> (32 - bits); }

// int_intrinsics.cu: 16 results per element.
REF_TEST(int_intrinsics) {
    const int n = 64;
    Test t("int_intrinsics", "../ptx/sm_80/int_intrinsics.ptx", "int_intrinsics", {2}, {32});
    auto av = rand_u32(52, n), bv = rand_u32(53, n), cv = rand_u32(54, n);
    av[0] = 0; bv[0] = 0; cv[0] = 32;          // clz/ffs of 0, clamp at 32
    av[1] = 1; bv[1] = 0x80000000u; cv[1] = 63;
    av[2] = 0xffffffffu; bv[2] = 0x7f7f8080u; cv[2] = 31;
    auto a = t.buffer_arg<uint32_t>("a", n, values(av));
    auto b = t.buffer_arg<uint32_t>("b", n, values(bv));
    auto c = t.buffer_arg<uint32_t>("c", n, values(cv));
    auto out = t.buffer_arg<uint32_t>("out", 16 * n, zero<uint32_t>());
    t.arg(int32_t(n));
    for (int i = 0; i < n; ++i) {
        uint32_t x = a[i], y = b[i], z = c[i];
        uint64_t yx = (uint64_t(y) << 32) | x;
        uint32_t* o = &out[16 * i];
        o[0] = popc32(x);
        o[1] = clz32(x);
        o[2] = brev32(x);
        o[3] = uint32_t(__builtin_ffs(int(y)));
        o[4] = prmt(x, y, z & 0x7777u);
        o[5] = prmt(x, y, 0x5140u);
        o[6] = uint32_t((yx << (z & 31)) >> 32);                       // shf.l.wrap
        unsigned nc = std::min(z & 63u, 32u);                          // shf.l.clamp
        o[7] = uint32_t(((unsigned __int128)yx << nc) >> 32);
        o[8] = uint32_t(yx >> (z & 31));                               // shf.r.wrap
        // Accumulate modulo 2^32 (dp4a/dp2a wrap; signed host overflow would be UB).
        uint32_t d4s = z, d2 = z, d4u = z;
        for (int k = 0; k < 4; ++k) {
            d4s += uint32_t(sext((x >> (8 * k)) & 0xff, 8) * sext((y >> (8 * k)) & 0xff, 8));
            d4u += ((x >> (8 * k)) & 0xff) * ((y >> (8 * k)) & 0xff);
        }
        for (int k = 0; k < 2; ++k) d2 += uint32_t(sext((x >> (16 * k)) & 0xffff, 16) * sext((y >> (8 * k)) & 0xff, 8));
        o[9] = d4s;
        o[10] = d4u;
        o[11] = d2;
        o[12] = (x > y ? x - y : y - x) + z;                            // sad.u32
        uint32_t h = uint32_t((uint64_t(x) + y) >> 1), rh = uint32_t((uint64_t(x) + z + 1) >> 1);
        o[13] = h ^ rh;
        uint32_t uh = uint32_t((uint64_t(x) * y) >> 32);
        uint32_t sh = uint32_t(uint64_t(int64_t(int32_t(x)) * int32_t(z)) >> 32);
        o[14] = uh + sh;
        o[15] = uint32_t(sext(x & 0xffffff, 24) * int64_t(sext(y & 0xffffff, 24))) + (y & 0xffffff) * (z & 0xffffff);
    }
    t.expect("out", out);
    return t;
}

// bitfield.cu: extract (unsigned, signed), insert 0x2A, fns(x, 0, 3) (the 3rd
// set bit at or above bit 0, 0xffffffff if none), byte swap within halves.
REF_TEST(bitfield) {
    const int n = 72;
    Test t("bitfield", "../ptx/sm_80/bitfield.ptx", "bitfield", {3}, {32});
    auto xv = rand_u32(55, n);
    xv[0] = 0; xv[1] = 0x80000001u; xv[2] = 0x00010100u;
    auto in = t.buffer_arg<uint32_t>("in", n, values(xv));
    auto out = t.buffer_arg<uint32_t>("out", 5 * n, zero<uint32_t>());
    t.arg(int32_t(n));
    for (int i = 0; i < n; ++i) {
        uint32_t x = in[i], pos = uint32_t(i) % 24, len = uint32_t(i) % 9 + 1;
        uint32_t mask = (1u << len) - 1;
        uint32_t* o = &out[5 * i];
        o[0] = (x >> pos) & mask;
        o[1] = uint32_t(int32_t(x << (32 - pos - len)) >> (32 - len));
        o[2] = (x & ~(mask << pos)) | ((0x2Au & mask) << pos);
        uint32_t fns = 0xffffffffu;
        for (int k = 0, seen = 0; k < 32; ++k)
            if ((x >> k) & 1 && ++seen == 3) { fns = uint32_t(k); break; }
        o[3] = fns;
        o[4] = (x & 0xff00ff00u) >> 8 | (x & 0x00ff00ffu) << 8;
    }
    t.expect("out", out);
    return t;
}

// cvt_f2i.cu cvt_f2i: cvt.{rni,rzi,rmi,rpi}.s32.f32, cvt.rni.s32.f64,
// cvt.rni.u32.f32, cvt.rzi.u32.f64, cvt.rni.s64.f32, cvt.rmi.s64.f64.
// The NaN input exercises the PTX ISA 9.0 rule: 0 for f32 -> 32-bit, else
// 1 << (bits - 1).
REF_TEST(cvt_f2i) {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    std::vector<float> fx = {nan, inf, -inf, 0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 2147483520.0f,
                             2147483648.0f, -2147483648.0f, -3e9f, 4294967296.0f, 1e20f, -1e20f,
                             0.49999997f, -0.0f, 123.456f, -7.75f, 4294967040.0f, 9.2233715e18f, 3.0f, -1e-30f};
    std::vector<double> dx = {double(nan), 1e300, -1e300, 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2147483647.5,
                              2147483646.5, -2147483648.5, -2147483649.5, 4294967295.9, 4294967296.0,
                              9.2233720368547758e18, -9.2233720368547758e18, -9.3e18, -0.0, 1e-300,
                              -1e-300, 123456789.75, -98765.25, 7.0};
    const int n = int(fx.size());
    Test t("cvt_f2i", "../ptx/sm_80/cvt_f2i.ptx", "cvt_f2i", {1}, {32});
    auto in = t.buffer_arg<float>("in", n, values(fx));
    auto ind = t.buffer_arg<double>("ind", n, values(dx));
    auto si = t.buffer_arg<int32_t>("si", 5 * n, zero<int32_t>());
    auto ui = t.buffer_arg<uint32_t>("ui", 2 * n, zero<uint32_t>());
    auto sl = t.buffer_arg<int64_t>("sl", 2 * n, zero<int64_t>());
    t.arg(int32_t(n));
    for (int i = 0; i < n; ++i) {
        double x = in[i], d = ind[i];
        si[5 * i + 0] = cvt_s32(x, Rnd::rn, Src::f32);
        si[5 * i + 1] = cvt_s32(x, Rnd::rz, Src::f32);
        si[5 * i + 2] = cvt_s32(x, Rnd::rm, Src::f32);
        si[5 * i + 3] = cvt_s32(x, Rnd::rp, Src::f32);
        si[5 * i + 4] = cvt_s32(d, Rnd::rn, Src::f64);
        ui[2 * i + 0] = cvt_u32(x, Rnd::rn, Src::f32);
        ui[2 * i + 1] = cvt_u32(d, Rnd::rz, Src::f64);
        sl[2 * i + 0] = cvt_s64(x, Rnd::rn, Src::f32);
        sl[2 * i + 1] = cvt_s64(d, Rnd::rm, Src::f64);
    }
    t.expect("si", si);
    t.expect("ui", ui);
    t.expect("sl", sl);
    return t;
}

// cvt_f2i.cu cvt_i2f: cvt.rn/.rz.f32.s32, cvt.rm/.rp.f32.u32, cvt.rn.f32.s64,
// cvt.rn.f64.s64 followed by cvt.rz.f32.f64 (as nvcc emits __double2float_rz((double)y)).
REF_TEST(cvt_i2f) {
    std::vector<int32_t> iv = {16777217, -16777217, INT32_MAX, INT32_MIN, -1, 0, 33554435, 1, -3, 2147483584};
    for (uint32_t r : rand_u32(56, 22)) iv.push_back(int32_t(r));
    std::vector<int64_t> lv = {(1ll << 53) + 1, INT64_MIN, INT64_MAX, -1, 0, (1ll << 24) + 1, -((1ll << 40) + 3),
                               9007199254740993ll * 3, 123456789012345678ll, -987654321098765ll};
    for (uint64_t r : rand_u64(57, 22)) lv.push_back(int64_t(r) >> (r % 50));
    const int n = int(iv.size());
    Test t("cvt_i2f", "../ptx/sm_80/cvt_f2i.ptx", "cvt_i2f", {1}, {32});
    auto in = t.buffer_arg<int32_t>("in", n, values(iv));
    auto inl = t.buffer_arg<int64_t>("inl", n, values(lv));
    auto out = t.buffer_arg<float>("out", 6 * n, zero<float>());
    auto outd = t.buffer_arg<double>("outd", n, zero<double>());
    t.arg(int32_t(n));
    for (int i = 0; i < n; ++i) {
        volatile int32_t x = in[i];
        volatile uint32_t ux = uint32_t(in[i]);
        volatile int64_t y = inl[i];
        float* o = &out[6 * i];
        o[0] = float(x);
        require(to_f32(double(x), Rnd::rn) == o[0], "rn conversion agrees with host");
        o[1] = to_f32(double(x), Rnd::rz);
        o[2] = to_f32(double(ux), Rnd::rm);
        o[3] = to_f32(double(ux), Rnd::rp);
        o[4] = float(y);
        volatile double d = double(y);
        o[5] = to_f32(d, Rnd::rz);
        outd[i] = d;
        // Cross-check the host conversions against exact integer arithmetic.
        require(std::fabs(double(o[1])) <= std::fabs(double(x)), "rz int->float sanity");
        require(double(o[2]) <= double(ux) && double(o[3]) >= double(ux), "directed u32->float sanity");
    }
    t.expect("out", out);
    t.expect("outd", outd);
    return t;
}

// saturate.cu: cvt.sat.f32.f32 (clamp to [0,1]), fma then clamp, add.sat.s32,
// sub.sat.s32, add.sat.f16 (clamp to [0,1]) of cvt.rn.f16 inputs.
REF_TEST(saturate) {
    const int n = 48;
    Test t("saturate", "../ptx/sm_80/saturate.ptx", "saturate", {2}, {32});
    auto xv = rand_f32(58, n, -3, 1), yv = rand_f32(59, n, -3, 1);
    auto av = rand_i32(60, n, INT32_MIN, INT32_MAX), bv = rand_i32(61, n, INT32_MIN, INT32_MAX);
    av[0] = INT32_MAX; bv[0] = 1; av[1] = INT32_MIN; bv[1] = 1; av[2] = INT32_MIN; bv[2] = -1;
    auto x = t.buffer_arg<float>("x", n, values(xv));
    auto y = t.buffer_arg<float>("y", n, values(yv));
    auto a = t.buffer_arg<int32_t>("a", n, values(av));
    auto b = t.buffer_arg<int32_t>("b", n, values(bv));
    auto outf = t.buffer_arg<float>("outf", 3 * n, zero<float>());
    auto outi = t.buffer_arg<int32_t>("outi", 2 * n, zero<int32_t>());
    auto outh = t.buffer_arg<Half>("outh", n, zero<Half>());
    t.arg(int32_t(n));
    auto sat = [](float v) { return std::isnan(v) ? 0.0f : std::min(std::max(v, 0.0f), 1.0f); };
    for (int i = 0; i < n; ++i) {
        float u = x[i], v = y[i];
        outf[3 * i + 0] = sat(u);
        float p = u * v;
        outf[3 * i + 1] = sat(p);
        float f = std::fma(u, v, 0.25f);
        require(f != 0, "saturate: avoid signed zeros in max.f32");
        outf[3 * i + 2] = f > 1.0f ? 1.0f : std::max(f, 0.0f);
        outi[2 * i + 0] = sat_s32(int64_t(a[i]) + b[i]);
        outi[2 * i + 1] = sat_s32(int64_t(a[i]) - b[i]);
        double hs = val(to_half(u)) + val(to_half(v));   // exact: both are f16 values of similar range
        outh[i] = to_half(std::min(std::max(val(to_half(hs)), 0.0), 1.0));
    }
    t.expect("outf", outf);
    t.expect("outi", outi);
    t.expect("outh", outh);
    return t;
}

// minmax.cu: min/max.s32, min/max.u32, max.s64, min/max.f32 (a NaN operand
// yields the other operand), min.f64 of (double)x and (double)y*0.5.
REF_TEST(minmax) {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    const int n = 40;
    Test t("minmax", "../ptx/sm_80/minmax.ptx", "minmax", {1}, {64});
    auto av = rand_i32(62, n, INT32_MIN, INT32_MAX), bv = rand_i32(63, n, INT32_MIN, INT32_MAX);
    auto xv = rand_f32(64, n, -5, 5), yv = rand_f32(65, n, -5, 5);
    xv[0] = nan; xv[1] = inf; yv[2] = nan; yv[3] = -inf; xv[4] = -inf; yv[5] = inf; xv[6] = yv[6];
    auto a = t.buffer_arg<int32_t>("a", n, values(av));
    auto b = t.buffer_arg<int32_t>("b", n, values(bv));
    auto x = t.buffer_arg<float>("x", n, values(xv));
    auto y = t.buffer_arg<float>("y", n, values(yv));
    auto oi = t.buffer_arg<int32_t>("oi", 2 * n, zero<int32_t>());
    auto ou = t.buffer_arg<uint32_t>("ou", 2 * n, zero<uint32_t>());
    auto ol = t.buffer_arg<int64_t>("ol", n, zero<int64_t>());
    auto of = t.buffer_arg<float>("of", 2 * n, zero<float>());
    auto od = t.buffer_arg<double>("od", n, zero<double>());
    t.arg(int32_t(n));
    for (int i = 0; i < n; ++i) {
        oi[2 * i] = std::min(a[i], b[i]);
        oi[2 * i + 1] = std::max(a[i], b[i]);
        ou[2 * i] = std::min(uint32_t(a[i]), uint32_t(b[i]));
        ou[2 * i + 1] = std::max(uint32_t(a[i]), uint32_t(b[i]));
        ol[i] = std::max(int64_t(a[i]) * 3, int64_t(b[i]) * -5);
        of[2 * i] = std::fmin(x[i], y[i]);
        of[2 * i + 1] = std::fmax(x[i], y[i]);
        od[i] = std::fmin(double(x[i]), double(y[i]) * 0.5);
    }
    t.expect("oi", oi);
    t.expect("ou", ou);
    t.expect("ol", ol);
    t.expect("of", of);
    t.expect("od", od);
    return t;
}
