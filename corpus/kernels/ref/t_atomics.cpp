// References for atomics whose final memory does not depend on the order in
// which threads win: counters, bitwise or/and/xor, min/max, inc/dec wrap
// (PTX ISA atom.inc/.dec definitions), CAS loops, exact float sums.
#include "common.hpp"
#include "inputs.hpp"
#include <algorithm>
#include <limits>

using namespace ref;

// atomic_ref.cu atomic_ref_counters: 4 blocks x 64 threads.
REF_TEST(atomic_ref_counters) {
    const unsigned blocks = 4, threads = 64;
    Test t("atomic_ref_counters", "../ptx/sm_80/atomic_ref.ptx", "atomic_ref_counters", {blocks}, {threads});
    auto ctr = t.buffer_arg<uint32_t>("ctr", 8, values<uint32_t>({0, 0, 0, 0, 0, 0, 0, 1000}));
    auto sum = t.buffer_arg<uint64_t>("sum64", 1, zero<uint64_t>());
    for (unsigned b = 0; b < blocks; ++b)
        for (unsigned l = 0; l < threads; ++l) {
            unsigned gid = b * threads + l;
            ctr[0] += 1;
            ctr[1 + b] += 2;
            ctr[5] |= 1u << (gid % 32);
            ctr[6] = std::max(ctr[6], gid * 7u % 101u);
            ctr[7] = std::min(ctr[7], gid * 7u % 101u + 5u);
            sum[0] += (1ull << 33) | gid;
        }
    t.expect("ctr", ctr);
    t.expect("sum64", sum);
    return t;
}

// atomic_ref.cu atomic_ref_publish: slot t = 3t+1 (release store), then after
// the barrier out[t] = slot[t+1]*1000 + slot[t+2] (indices mod 64).
REF_TEST(atomic_ref_publish) {
    const unsigned n = 64;
    Test t("atomic_ref_publish", "../ptx/sm_80/atomic_ref.ptx", "atomic_ref_publish", {1}, {n});
    auto slots = t.buffer_arg<int32_t>("slots", n, zero<int32_t>());
    auto out = t.buffer_arg<int32_t>("out", n, zero<int32_t>());
    for (unsigned i = 0; i < n; ++i) slots[i] = int32_t(i * 3 + 1);
    for (unsigned i = 0; i < n; ++i) out[i] = slots[(i + 1) % n] * 1000 + slots[(i + 2) % n];
    t.expect("slots", slots);
    t.expect("out", out);
    return t;
}

// atomic_ref.cu atomic_ref_claim: one CAS winner per block (-1 -> 1), then
// thread 0 exchanges in 100+block and adds the old value (1) to winners[1].
REF_TEST(atomic_ref_claim) {
    const unsigned blocks = 4;
    Test t("atomic_ref_claim", "../ptx/sm_80/atomic_ref.ptx", "atomic_ref_claim", {blocks}, {32});
    auto owner = t.buffer_arg<int32_t>("owner", blocks, fill(int32_t(-1)));
    auto win = t.buffer_arg<uint32_t>("winners", 2, zero<uint32_t>());
    for (unsigned b = 0; b < blocks; ++b) { owner[b] = int32_t(100 + b); win[0] += 1; win[1] += 1; }
    t.expect("owner", owner);
    t.expect("winners", win);
    return t;
}

// atomics_basic.cu histogram: counts of in[i] % nbins over i < n.
REF_TEST(histogram) {
    const int n = 1000;
    const unsigned nbins = 10;
    Test t("histogram", "../ptx/sm_80/atomics_basic.ptx", "histogram", {4}, {256});
    auto in = t.buffer_arg<uint32_t>("in", n, values(rand_u32(30, n)));
    auto hist = t.buffer_arg<uint32_t>("hist", nbins, zero<uint32_t>());
    t.arg(int32_t(n)); t.arg(nbins);
    for (int i = 0; i < n; ++i) hist[in[i] % nbins] += 1;
    t.expect("hist", hist);
    return t;
}

// atomics_basic.cu atomic_mix: 128 threads; the sequential fold equals any
// interleaving because each operation is commutative, or (inc/dec) because
// every thread applies the same step.
REF_TEST(atomic_mix) {
    const int threads = 128;
    Test t("atomic_mix", "../ptx/sm_80/atomics_basic.ptx", "atomic_mix", {2}, {64});
    auto in = t.buffer_arg<int32_t>("in", threads, values(rand_i32(31, threads, -1000, 1000)));
    auto ri = t.buffer_arg<int32_t>("ri", 4, values<int32_t>({-1000000, 1000000, 0, 0}));
    auto ru = t.buffer_arg<uint32_t>("ru", 6, values<uint32_t>({0, 0xffffffffu, 0, 0, 0, 0}));
    auto rf = t.buffer_arg<float>("rf", 1, zero<float>());
    double fsum = 0;
    for (int i = 0; i < threads; ++i) {
        int32_t v = in[i];
        ri[0] = std::max(ri[0], v);
        ri[1] = std::min(ri[1], v);
        ri[2] += v;
        ri[3] -= v;
        ru[0] |= 1u << (v & 31);
        ru[1] &= ~(1u << (i & 31)) | 0x80000000u;
        ru[2] ^= uint32_t(v);
        ru[3] = ru[3] >= 9u ? 0u : ru[3] + 1u;                 // atom.inc: (old >= b) ? 0 : old+1
        ru[4] = (ru[4] == 0 || ru[4] > 6u) ? 6u : ru[4] - 1u;  // atom.dec: (old==0 || old>b) ? b : old-1
        ru[5] = std::max(ru[5], uint32_t(v));
        fsum += v;
    }
    require(std::fabs(fsum) < 16777216.0, "float sum must stay exact");
    rf[0] = float(fsum);
    t.expect("ri", ri);
    t.expect("ru", ru);
    t.expect("rf", rf);
    return t;
}

// atomic_cas.cu cas_loops: float max by CAS and a u64 product by CAS; 64 threads.
REF_TEST(cas_loops) {
    const int threads = 64;
    Test t("cas_loops", "../ptx/sm_80/atomic_cas.ptx", "cas_loops", {2}, {32});
    auto in = t.buffer_arg<float>("in", threads, values(rand_f32(32, threads, -10, 10)));
    auto fmax = t.buffer_arg<float>("fmax", 1, fill(-std::numeric_limits<float>::infinity()));
    auto prod = t.buffer_arg<uint64_t>("prod", 1, fill<uint64_t>(1));
    for (int i = 0; i < threads; ++i) {
        fmax[0] = std::max(fmax[0], in[i]);
        prod[0] *= uint64_t(i % 3 + 1);
    }
    t.expect("fmax", fmax);
    t.expect("prod", prod);
    return t;
}

// histogram_smem.cu: 32 bins of u8 inputs, privatised in shared memory.
REF_TEST(histogram_smem) {
    const int n = 2000;
    Test t("histogram_smem", "../ptx/sm_80/histogram_smem.ptx", "histogram_smem", {2}, {64});
    std::vector<uint8_t> vals;
    for (uint32_t x : rand_u32(33, 251)) vals.push_back(uint8_t(x >> 8));
    auto in = t.buffer_arg<uint8_t>("in", n, values(vals));
    auto hist = t.buffer_arg<uint32_t>("hist", 32, zero<uint32_t>());
    t.arg(int32_t(n));
    for (int i = 0; i < n; ++i) hist[in[i] % 32] += 1;
    t.expect("hist", hist);
    return t;
}
