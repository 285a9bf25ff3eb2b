// References for warp-collective kernels, simulated lane by lane: votes
// (vote.sync), match.sync, shfl.sync in all four modes (with the PTX rule
// that a source lane outside the segment yields the caller's own value) and
// __syncwarp-separated shared-memory exchange.
#include "common.hpp"
#include "inputs.hpp"

using namespace ref;

REF_TEST(warp_vote) {
    const int n = 64;
    Test t("warp_vote", "../ptx/sm_80/warp_vote.ptx", "warp_vote", {1}, {64});
    auto w0 = rand_i32(80, 32, 1, 200), w1 = rand_i32(81, 32, -300, 50);
    w1[9] = 0;
    std::vector<int32_t> iv(w0);
    iv.insert(iv.end(), w1.begin(), w1.end());
    auto in = t.buffer_arg<int32_t>("in", n, values(iv));
    auto out = t.buffer_arg<uint32_t>("out", 4 * n, zero<uint32_t>());
    for (int w = 0; w < 2; ++w) {
        const int32_t* v = &in[32 * w];
        uint32_t ballot = 0, odd16 = 0, neg = 0;
        bool all = true, any = false, allhi = true, nonehi = true;
        for (int l = 0; l < 32; ++l) {
            ballot |= uint32_t(v[l] > 0) << l;
            if (l < 16) odd16 |= uint32_t((v[l] & 1) != 0) << l;
            neg |= uint32_t(v[l] < 0) << l;
            all &= v[l] != 0;
            any |= v[l] > 100;
            bool hi = (v[l] >> 8) != 0;
            allhi &= hi;
            nonehi &= !hi;
        }
        for (int l = 0; l < 32; ++l) {
            uint32_t* o = &out[4 * (32 * w + l)];
            o[0] = l < 16 ? ballot ^ odd16 : ballot;
            o[1] = all;
            o[2] = any;
            o[3] = popc32(neg) + uint32_t(allhi || nonehi);
        }
    }
    t.expect("out", out);
    return t;
}

REF_TEST(warp_match) {
    const int n = 64;
    Test t("warp_match", "../ptx/sm_80/warp_match.ptx", "warp_match", {1}, {64});
    auto iv = rand_i32(82, n, 0, 5);
    iv[40] = 64;  // the second warp is not uniform in v / 64
    auto in = t.buffer_arg<int32_t>("in", n, values(iv));
    auto out = t.buffer_arg<uint32_t>("out", 3 * n, zero<uint32_t>());
    for (int w = 0; w < 2; ++w) {
        const int32_t* v = &in[32 * w];
        bool uniform = true;
        for (int l = 0; l < 32; ++l) uniform &= v[l] / 64 == v[0] / 64;
        for (int l = 0; l < 32; ++l) {
            uint32_t any = 0, any64 = 0;
            uint64_t wl = uint64_t(int64_t(v[l])) << 20;
            for (int k = 0; k < 32; ++k) {
                any |= uint32_t(v[k] == v[l]) << k;
                any64 |= uint32_t((uint64_t(int64_t(v[k])) << 20) % 3 == wl % 3) << k;
            }
            uint32_t* o = &out[3 * (32 * w + l)];
            o[0] = any;
            o[1] = uniform ? 0xffffffffu : 0u;   // mask | pred, both all-or-nothing
            o[2] = any64;
        }
    }
    t.expect("out", out);
    return t;
}

REF_TEST(shfl_variants) {
    const int n = 64;
    Test t("shfl_variants", "../ptx/sm_80/shfl_variants.ptx", "shfl_variants", {1}, {64});
    auto in = t.buffer_arg<int32_t>("in", n, values(rand_i32(83, n, -1000, 1000)));
    auto out = t.buffer_arg<int32_t>("out", 6 * n, zero<int32_t>());
    for (int w = 0; w < 2; ++w) {
        const int32_t* v = &in[32 * w];
        int32_t scan[32];
        uint32_t all[32];
        for (int l = 0; l < 32; ++l) { scan[l] = v[l]; all[l] = uint32_t(v[l]); }
        for (int d = 1; d < 32; d <<= 1) {
            int32_t ns[32];
            for (int l = 0; l < 32; ++l) ns[l] = l >= d ? scan[l] + scan[l - d] : scan[l];
            std::copy(ns, ns + 32, scan);
        }
        for (int m = 16; m > 0; m >>= 1) {
            uint32_t na[32];
            for (int l = 0; l < 32; ++l) na[l] = all[l] ^ (all[l ^ m] * 3u);
            std::copy(na, na + 32, all);
        }
        for (int l = 0; l < 32; ++l) {
            int32_t* o = &out[6 * (32 * w + l)];
            o[0] = v[5];
            o[1] = v[(l + 3) & 31];
            o[2] = scan[l];
            o[3] = int32_t(all[l]);
            o[4] = (l % 8) + 2 < 8 ? v[l + 2] : v[l];   // down by 2 within 8-lane segments
            o[5] = v[(l & ~7) + 7];
        }
    }
    t.expect("out", out);
    return t;
}

REF_TEST(syncwarp_rotate) {
    const int n = 128;
    Test t("syncwarp_rotate", "../ptx/sm_80/syncwarp.ptx", "syncwarp_rotate", {2}, {64});
    auto in = t.buffer_arg<int32_t>("in", n, values(rand_i32(84, n, -100000, 100000)));
    auto out = t.buffer_arg<int32_t>("out", n, zero<int32_t>());
    for (int w = 0; w < n / 32; ++w) {
        int32_t v[32];
        for (int l = 0; l < 32; ++l) v[l] = in[32 * w + l];
        for (int r = 0; r < 3; ++r) {
            int32_t nv[32];
            for (int l = 0; l < 32; ++l) nv[l] = v[(l + 1) & 31] + r;
            std::copy(nv, nv + 32, v);
        }
        for (int l = 0; l < 32; ++l) out[32 * w + l] = v[l];
    }
    t.expect("out", out);
    return t;
}

// warp_stage.cu: lane l stores in[l] to tile word (l + 1) % 32; ldmatrix
// m8n8.x1 .b16 gives lane l row l/4, columns 2(l%4), 2(l%4)+1 of the tile,
// i.e. word l, which lane (l + 31) % 32 stored (with or without __syncwarp;
// docs/races.md: warp-sync-race).
static Test warp_stage(const char* name, const char* kernel) {
    Test t(name, "../ptx/sm_80/warp_stage.ptx", kernel, {1}, {32});
    auto in = t.buffer_arg<uint32_t>("in", 32, values(rand_u32(243, 32)));
    auto out = t.buffer_arg<uint32_t>("out", 32, zero<uint32_t>());
    for (int l = 0; l < 32; ++l) out[l] = in[(l + 31) % 32];
    t.expect("out", out);
    return t;
}
REF_TEST(warp_stage_nosync) { return warp_stage("warp_stage_nosync", "stage_nosync"); }
REF_TEST(warp_stage_syncwarp) { return warp_stage("warp_stage_syncwarp", "stage_syncwarp"); }
