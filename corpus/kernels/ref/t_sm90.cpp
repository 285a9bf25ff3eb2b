// References for the sm_90-only kernels (PTX in corpus/ptx/sm_90/): thread
// block clusters with distributed shared memory, programmatic dependent
// launch controls, and bulk asynchronous copies completing on an mbarrier.
#include "common.hpp"
#include "inputs.hpp"

using namespace ref;

// cluster_dsmem.cu: .reqnctapercluster 2,1,1; 4 blocks form 2 clusters. Each
// block reads its peer's shared array (rank ^ 1) through mapa/ld.shared::cluster:
// out[b*64 + t] = ((b % 2) ^ 1) * 1000 + t + 2 (2 = blocks per cluster).
REF_TEST(cluster_exchange) {
    const unsigned blocks = 4;
    Test t("cluster_exchange", "../ptx/sm_90/cluster_dsmem.ptx", "cluster_exchange", {blocks}, {64});
    auto out = t.buffer_arg<int32_t>("out", blocks * 64, zero<int32_t>());
    for (unsigned b = 0; b < blocks; ++b)
        for (unsigned i = 0; i < 64; ++i) out[b * 64 + i] = int32_t(((b % 2) ^ 1) * 1000 + i + 2);
    t.expect("out", out);
    return t;
}

// griddep.cu: griddepcontrol.wait / launch_dependents are no-ops for a lone
// launch; out[i] = in[i] * 3 (mul.f32), and thread 0 stores the cluster
// width, which is 1 without a cluster launch.
REF_TEST(griddep) {
    const int n = 100;
    Test t("griddep", "../ptx/sm_90/griddep.ptx", "griddep", {2}, {64});
    auto in = t.buffer_arg<float>("in", n, values(rand_f32(120, n, -10, 10)));
    auto out = t.buffer_arg<float>("out", n + 1, zero<float>());
    t.arg(int32_t(n));
    for (int i = 0; i < n; ++i) out[i] = in[i] * 3.0f;
    out[n] = 1.0f;
    t.expect("out", out);
    return t;
}

// tma_bulk.cu: thread 0 copies 1 KiB into shared memory with cp.async.bulk,
// completion tracked by the barrier's transaction count; out = reversed + 1.
REF_TEST(tma_bulk) {
    const unsigned blocks = 2;
    Test t("tma_bulk", "../ptx/sm_90/tma_bulk.ptx", "tma_bulk", {blocks}, {256});
    auto in = t.buffer_arg<int32_t>("in", blocks * 256, values(rand_i32(121, blocks * 256, -1000000, 1000000)));
    t.buffer_arg<int32_t>("out", blocks * 256, zero<int32_t>());
    t.expect("out", reversed_blocks(in, 256, [](int32_t x) { return x + 1; }));
    return t;
}
