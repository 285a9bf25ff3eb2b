// References for launch geometry and memory-layout kernels: 2D/3D grids,
// tiled matmul, dynamic shared memory, vector and narrow accesses, async
// copies (cp.async, cuda::memcpy_async) and split mbarrier phases.
#include "common.hpp"
#include "inputs.hpp"
#include <algorithm>
#include <cmath>

using namespace ref;

// stencil2d.cu: 24 x 20 image on a 3 x 3 grid of 8 x 8 blocks (the last row of
// blocks is partly outside); out = fma.rn(c, -4, ((L + R) + U) + D).
REF_TEST(stencil2d) {
    const int w = 24, h = 20;
    Test t("stencil2d", "../ptx/sm_80/stencil2d.ptx", "stencil2d", {3, 3}, {8, 8});
    auto in = t.buffer_arg<float>("in", w * h, values(rand_f32(90, w * h, -4, 4)));
    auto out = t.buffer_arg<float>("out", w * h, zero<float>());
    t.arg(int32_t(w)); t.arg(int32_t(h));
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            int xl = std::max(x - 1, 0), xr = std::min(x + 1, w - 1);
            int yu = std::max(y - 1, 0), yd = std::min(y + 1, h - 1);
            float s = in[y * w + xl] + in[y * w + xr];
            s = s + in[yu * w + x];
            s = s + in[yd * w + x];
            out[y * w + x] = std::fma(in[y * w + x], -4.0f, s);
        }
    t.expect("out", out);
    return t;
}

// grid3d.cu: grid (2,2,2) x block (4,2,2); each thread writes its coordinates.
REF_TEST(grid3d) {
    const unsigned gx = 2, gy = 2, gz = 2, bx_ = 4, by_ = 2, bz_ = 2;
    Test t("grid3d", "../ptx/sm_80/grid3d.ptx", "grid3d", {gx, gy, gz}, {bx_, by_, bz_});
    const unsigned total = gx * gy * gz * bx_ * by_ * bz_;
    auto out = t.buffer_arg<uint32_t>("out", 2 * total, fill(0xdeadbeefu));
    for (unsigned bz = 0; bz < gz; ++bz) for (unsigned by = 0; by < gy; ++by) for (unsigned bx = 0; bx < gx; ++bx)
    for (unsigned tz = 0; tz < bz_; ++tz) for (unsigned ty = 0; ty < by_; ++ty) for (unsigned tx = 0; tx < bx_; ++tx) {
        unsigned block = (bz * gy + by) * gx + bx;
        unsigned local = (tz * by_ + ty) * bx_ + tx;
        unsigned g = block * (bx_ * by_ * bz_) + local;
        out[2 * g] = (bx << 24) | (by << 20) | (bz << 16) | (tx << 8) | (ty << 4) | tz;
        out[2 * g + 1] = (gx << 24) | (gy << 16) | (gz << 8) | (local & 31);
    }
    t.expect("out", out);
    return t;
}

// matmul_tiled.cu: 16 x 16, tiles of 8; acc = fma.rn(a[row][k], b[k][col], acc)
// for k = 0..15 in order.
REF_TEST(matmul_tiled) {
    const int n = 16;
    Test t("matmul_tiled", "../ptx/sm_80/matmul_tiled.ptx", "matmul_tiled", {2, 2}, {8, 8});
    auto a = t.buffer_arg<float>("a", n * n, values(rand_f32(91, n * n, -3, 3)));
    auto b = t.buffer_arg<float>("b", n * n, values(rand_f32(92, n * n, -3, 3)));
    auto c = t.buffer_arg<float>("c", n * n, zero<float>());
    t.arg(int32_t(n));
    for (int r = 0; r < n; ++r)
        for (int col = 0; col < n; ++col) {
            float acc = 0.0f;
            for (int k = 0; k < n; ++k) acc = std::fma(a[r * n + k], b[k * n + col], acc);
            c[r * n + col] = acc;
        }
    t.expect("c", c);
    return t;
}

// dyn_smem.cu reverse_block: each block of 64 reverses its slice through
// 256 bytes of dynamic shared memory.
REF_TEST(reverse_block) {
    Test t("reverse_block", "../ptx/sm_80/dyn_smem.ptx", "reverse_block", {3}, {64}, 256);
    auto data = t.buffer_arg<int32_t>("data", 192, iota<int32_t>(-50, 3));
    t.expect("data", reversed_blocks(data, 64, [](int32_t x) { return x; }));
    return t;
}

// dyn_smem.cu dyn_two_arrays: n floats then n ints in one dynamic allocation.
REF_TEST(dyn_two_arrays) {
    const int n = 32, blocks = 2;
    Test t("dyn_two_arrays", "../ptx/sm_80/dyn_smem.ptx", "dyn_two_arrays", {blocks}, {n}, 2 * n * 4);
    auto in = t.buffer_arg<float>("in", n * blocks, values(rand_f32(93, n * blocks, -6, 6)));
    auto of = t.buffer_arg<float>("out_f", n * blocks, zero<float>());
    auto oi = t.buffer_arg<int32_t>("out_i", n * blocks, zero<int32_t>());
    for (int b = 0; b < blocks; ++b)
        for (int i = 0; i < n; ++i) {
            of[b * n + i] = in[b * n + (i + 1) % n] - in[b * n + i];
            int j = (i + 3) % n;
            oi[b * n + i] = j * j;
        }
    t.expect("out_f", of);
    t.expect("out_i", oi);
    return t;
}

// vector_loads.cu vector_loads: ld/st .v4.f32, .v2.s32, .v2.f64.
REF_TEST(vector_loads) {
    const int n = 40;
    Test t("vector_loads", "../ptx/sm_80/vector_loads.ptx", "vector_loads", {2}, {32});
    auto a = t.buffer_arg<float>("a", 4 * n, values(rand_f32(94, 4 * n, -10, 10)));
    auto b = t.buffer_arg<int32_t>("b", 2 * n, values(rand_i32(95, 2 * n, -30000, 30000)));
    auto c = t.buffer_arg<double>("c", 2 * n, values(rand_f64(96, 2 * n, -10, 10)));
    auto o4 = t.buffer_arg<float>("o4", 4 * n, zero<float>());
    auto o2 = t.buffer_arg<int32_t>("o2", 2 * n, zero<int32_t>());
    auto od = t.buffer_arg<double>("od", n, zero<double>());
    t.arg(int32_t(n));
    for (int i = 0; i < n; ++i) {
        o4[4 * i] = a[4 * i + 3];
        o4[4 * i + 1] = a[4 * i + 2] + 1.0f;
        o4[4 * i + 2] = a[4 * i + 1];
        o4[4 * i + 3] = a[4 * i] * 2.0f;
        o2[2 * i] = b[2 * i + 1] - b[2 * i];
        o2[2 * i + 1] = b[2 * i] * b[2 * i + 1];
        od[i] = c[2 * i] - c[2 * i + 1];
    }
    t.expect("o4", o4);
    t.expect("o2", o2);
    t.expect("od", od);
    return t;
}

// vector_loads.cu narrow_types: u8/s8/u16/s16 loads with zero/sign extension
// and truncating 16- and 8-bit stores.
REF_TEST(narrow_types) {
    const int n = 64;
    Test t("narrow_types", "../ptx/sm_80/vector_loads.ptx", "narrow_types", {2}, {32});
    auto r = rand_u32(97, n);
    std::vector<uint8_t> u8v; std::vector<int8_t> s8v; std::vector<uint16_t> u16v; std::vector<int16_t> s16v;
    for (uint32_t x : r) { u8v.push_back(uint8_t(x)); s8v.push_back(int8_t(x >> 8)); u16v.push_back(uint16_t(x >> 3)); s16v.push_back(int16_t(x >> 16)); }
    auto u8 = t.buffer_arg<uint8_t>("u8", n, values(u8v));
    auto s8 = t.buffer_arg<int8_t>("s8", n, values(s8v));
    auto u16 = t.buffer_arg<uint16_t>("u16", n, values(u16v));
    auto s16 = t.buffer_arg<int16_t>("s16", n, values(s16v));
    auto out = t.buffer_arg<int32_t>("out", n, zero<int32_t>());
    auto out16 = t.buffer_arg<int16_t>("out16", n, zero<int16_t>());
    auto out8 = t.buffer_arg<int8_t>("out8", n, zero<int8_t>());
    t.arg(int32_t(n));
    for (int i = 0; i < n; ++i) {
        out[i] = int(u8[i]) + int(s8[i]) * 1000 + int(u16[i]) - int(s16[i]) * 3;
        out16[i] = int16_t(s16[i] * 7 + s8[i]);
        out8[i] = int8_t(u8[i] + s8[i]);
    }
    t.expect("out", out);
    t.expect("out16", out16);
    t.expect("out8", out8);
    return t;
}

// cp_async.cu cp_async_stage: 16-byte cp.async into shared memory, then the
// reversed tile's components summed ((x + y) + z) + w.
REF_TEST(cp_async_stage) {
    const int blocks = 2;
    Test t("cp_async_stage", "../ptx/sm_80/cp_async.ptx", "cp_async_stage", {blocks}, {64});
    auto in = t.buffer_arg<float>("in", blocks * 64 * 4, values(rand_f32(98, blocks * 256, -8, 8)));
    auto out = t.buffer_arg<float>("out", blocks * 64, zero<float>());
    for (int b = 0; b < blocks; ++b)
        for (int i = 0; i < 64; ++i) {
            const float* v = &in[(b * 64 + 63 - i) * 4];
            float s = v[0] + v[1];
            s = s + v[2];
            s = s + v[3];
            out[b * 64 + i] = s;
        }
    t.expect("out", out);
    return t;
}

// cp_async.cu memcpy_async_barrier: cooperative cuda::memcpy_async of 128 ints
// completed through a cuda::barrier; out = reversed * 2.
REF_TEST(memcpy_async_barrier) {
    const int blocks = 2;
    Test t("memcpy_async_barrier", "../ptx/sm_80/cp_async.ptx", "memcpy_async_barrier", {blocks}, {128});
    auto in = t.buffer_arg<int32_t>("in", blocks * 128, values(rand_i32(99, blocks * 128, -100000, 100000)));
    t.buffer_arg<int32_t>("out", blocks * 128, zero<int32_t>());
    t.expect("out", reversed_blocks(in, 128, [](int32_t x) { return x * 2; }));
    return t;
}

// mbarrier_split.cu: three phases of arrive / wait(token) / arrive_and_wait.
REF_TEST(mbarrier_split) {
    const int blocks = 2;
    Test t("mbarrier_split", "../ptx/sm_80/mbarrier_split.ptx", "mbarrier_split", {blocks}, {64});
    auto in = t.buffer_arg<int32_t>("in", blocks * 64, values(rand_i32(100, blocks * 64, -1000, 1000)));
    auto out = t.buffer_arg<int32_t>("out", 3 * blocks * 64, zero<int32_t>());
    for (int phase = 0; phase < 3; ++phase)
        for (int b = 0; b < blocks; ++b)
            for (int i = 0; i < 64; ++i)
                out[(phase * blocks + b) * 64 + i] = in[b * 64 + (i + 5) % 64] * (phase + 1) + (i * i - phase);
    t.expect("out", out);
    return t;
}

// wmma_f16.cu: D = A*B + C on one warp, 16x16x16, A row-major, B column-major
// (element (k, n) at b[n*16 + k]), C and D row-major. Small integers keep every
// product and partial sum exact, so the accumulation order cannot matter.
REF_TEST(wmma_16x16x16) {
    Test t("wmma_16x16x16", "../ptx/sm_80/wmma_f16.ptx", "wmma_16x16x16", {1}, {32});
    std::vector<Half> av, bv;
    for (int32_t v : rand_i32(101, 256, -4, 4)) av.push_back(to_half(v));
    for (int32_t v : rand_i32(102, 256, -4, 4)) bv.push_back(to_half(v));
    auto a = t.buffer_arg<Half>("a", 256, values(av));
    auto b = t.buffer_arg<Half>("b", 256, values(bv));
    auto c = t.buffer_arg<float>("c", 256, fiota<float>(-100, 1));
    auto d = t.buffer_arg<float>("d", 256, zero<float>());
    for (int m = 0; m < 16; ++m)
        for (int nn = 0; nn < 16; ++nn) {
            float s = c[m * 16 + nn];
            for (int k = 0; k < 16; ++k) s += fval(a[m * 16 + k]) * fval(b[nn * 16 + k]);
            d[m * 16 + nn] = s;
        }
    t.expect("d", d);
    return t;
}
