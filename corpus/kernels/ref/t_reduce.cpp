// References for the reductions and scans: warp shuffles (shfl.sync.down),
// redux.sync, shared-memory trees with bar.sync, Hillis-Steele scan and
// cooperative-groups tiles. Float reductions follow the exact tree order.
#include "common.hpp"
#include "inputs.hpp"
#include <algorithm>

using namespace ref;

// One warp's __shfl_down_sync tree: lane l adds lane l+off's value, or its own
// value when l+off >= 32 (PTX ISA shfl.sync: out-of-range lanes read themselves).
template <class T> static T warp_down_sum(const T* in) {
    T v[32];
    std::copy(in, in + 32, v);
    for (int off = 16; off > 0; off >>= 1) {
        T nv[32];
        for (int l = 0; l < 32; ++l) nv[l] = v[l] + (l + off < 32 ? v[l + off] : v[l]);
        std::copy(nv, nv + 32, v);
    }
    return v[0];
}

// The reduction kernels: in holds in_vals, out one value per group of `size`
// elements (initially out_init); out[g] = reduce(&in[size * g]).
template <class T, class R>
static Test group_reduce(const char* name, const char* ptx, unsigned grid, unsigned block, size_t size,
                         const std::vector<T>& in_vals, const Init<T>& out_init, R reduce) {
    Test t(name, ptx, name, {grid}, {block});
    auto in = t.buffer_arg<T>("in", in_vals.size(), values(in_vals));
    auto out = t.buffer_arg<T>("out", in_vals.size() / size, out_init);
    for (size_t g = 0; g < out.size(); ++g) out[g] = reduce(&in[size * g]);
    t.expect("out", out);
    return t;
}

REF_TEST(warp_sum_i32) {
    return group_reduce("warp_sum_i32", "../ptx/sm_80/warp_shfl_reduce.ptx", 2, 128, 32,
                        rand_i32(20, 256, -1000000, 1000000), fill(int32_t(-7)), warp_down_sum<int32_t>);
}

REF_TEST(warp_sum_f32) {
    return group_reduce("warp_sum_f32", "../ptx/sm_80/warp_shfl_reduce.ptx", 1, 128, 32, rand_f32(21, 128, -10, 10),
                        zero<float>(), warp_down_sum<float>);
}

// warp_reduce_sync.cu: redux.sync add/min/max (u32 and s32)/and/or/xor.
REF_TEST(warp_redux) {
    const int threads = 96;
    Test t("warp_redux", "../ptx/sm_80/warp_reduce_sync.ptx", "warp_redux", {3}, {32});
    auto in = t.buffer_arg<uint32_t>("in", threads, values(rand_u32(22, threads)));
    auto out = t.buffer_arg<uint32_t>("out", 8 * threads / 32, zero<uint32_t>());
    for (int w = 0; w < threads / 32; ++w) {
        const uint32_t* v = &in[32 * w];
        uint32_t add = 0, umin = ~0u, umax = 0, a = ~0u, o = 0, x = 0;
        int32_t smin = INT32_MAX, smax = INT32_MIN;
        for (int l = 0; l < 32; ++l) {
            add += v[l]; umin = std::min(umin, v[l]); umax = std::max(umax, v[l]);
            smin = std::min(smin, int32_t(v[l])); smax = std::max(smax, int32_t(v[l]));
            a &= v[l]; o |= v[l]; x ^= v[l];
        }
        uint32_t* r = &out[8 * w];
        r[0] = add; r[1] = umin; r[2] = umax; r[3] = uint32_t(smin);
        r[4] = uint32_t(smax); r[5] = a; r[6] = o; r[7] = x;
    }
    t.expect("out", out);
    return t;
}

// block_reduce.cu: tree over 128 elements, s[t] = s[t] + s[t + stride].
template <class T> static T block_tree(const T* in) {
    T s[128];
    std::copy(in, in + 128, s);
    for (int stride = 64; stride > 0; stride >>= 1)
        for (int t = 0; t < stride; ++t) s[t] = s[t] + s[t + stride];
    return s[0];
}

REF_TEST(block_sum_i32) {
    return group_reduce("block_sum_i32", "../ptx/sm_80/block_reduce.ptx", 3, 128, 128,
                        rand_i32(23, 384, -50000, 50000), zero<int32_t>(), block_tree<int32_t>);
}

REF_TEST(block_sum_f32) {
    return group_reduce("block_sum_f32", "../ptx/sm_80/block_reduce.ptx", 2, 128, 128, rand_f32(24, 256, -12, 12),
                        zero<float>(), block_tree<float>);
}

// scan_block.cu: inclusive prefix sums per block of 128 (int addition is
// associative, so the Hillis-Steele order does not matter), plus the 64-bit
// exclusive value minus 10^10.
REF_TEST(scan_block) {
    Test t("scan_block", "../ptx/sm_80/scan_block.ptx", "scan_block", {2}, {128});
    auto in = t.buffer_arg<int32_t>("in", 256, values(rand_i32(25, 256, -100000, 100000)));
    auto out = t.buffer_arg<int32_t>("out", 256, zero<int32_t>());
    auto excl = t.buffer_arg<int64_t>("excl", 256, zero<int64_t>());
    for (int b = 0; b < 2; ++b) {
        int32_t acc = 0;
        for (int i = 0; i < 128; ++i) {
            acc += in[128 * b + i];
            out[128 * b + i] = acc;
            excl[128 * b + i] = int64_t(acc) - in[128 * b + i] - 10000000000ll;
        }
    }
    t.expect("out", out);
    t.expect("excl", excl);
    return t;
}

// coop_groups.cu: tiles of 16 lanes: sum, max, next lane's value in the tile
// plus the tile's index within the block.
REF_TEST(coop_groups) {
    const int threads = 128;
    Test t("coop_groups", "../ptx/sm_80/coop_groups.ptx", "coop_groups", {2}, {64});
    auto in = t.buffer_arg<int32_t>("in", threads, values(rand_i32(26, threads, -500, 500)));
    auto out = t.buffer_arg<int32_t>("out", 3 * threads, zero<int32_t>());
    for (int g = 0; g < threads; ++g) {
        int base = g & ~15, r = g & 15;
        int sum = 0, mx = INT32_MIN;
        for (int k = 0; k < 16; ++k) { sum += in[base + k]; mx = std::max(mx, in[base + k]); }
        out[3 * g] = sum;
        out[3 * g + 1] = mx;
        out[3 * g + 2] = in[base + (r + 1) % 16] + (g % 64) / 16;
    }
    t.expect("out", out);
    return t;
}
