// corpus-arch: sm_90
// Theme: sm_90 thread-block clusters: __cluster_dims__, cluster.sync()
// (barrier.cluster), and distributed shared memory via map_shared_rank
// (mapa + ld.shared::cluster).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_exchange(int* out)
{
    __shared__ int smem[64];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    smem[threadIdx.x] = (int)(rank * 1000 + threadIdx.x);
    cluster.sync();
    int* peer = cluster.map_shared_rank(smem, rank ^ 1u);
    int v = peer[threadIdx.x];
    cluster.sync();  // keep the peer's shared memory alive until all reads are done
    out[blockIdx.x * 64 + threadIdx.x] = v + (int)cluster.num_blocks();
}
