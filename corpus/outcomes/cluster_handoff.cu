// corpus-arch: sm_90
// A handoff between the two CTAs of a cluster through distributed shared
// memory: CTA rank 0 writes into rank 1's shared memory and sets rank 1's
// flag with st.release.cluster; rank 1 spins on the flag with
// ld.acquire.cluster and reads. Both sides use the .shared::cluster
// addresses that mapa gives for rank 1's variables, so all accesses to a
// location use the same address. Rank 1 initialises both variables before
// the first cluster.sync(); the second keeps its shared memory alive until
// rank 0 is done.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ __forceinline__ unsigned cluster_addr(void* p, unsigned rank)
{
    unsigned a = (unsigned)__cvta_generic_to_shared(p), r;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(rank));
    return r;
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_handoff(int* out)
{
    __shared__ int data, flag;
    cg::cluster_group cluster = cg::this_cluster();
    unsigned d = cluster_addr(&data, 1), f = cluster_addr(&flag, 1);
    if (cluster.block_rank() == 1) {
        asm volatile("st.shared::cluster.u32 [%0], 0;" ::"r"(d) : "memory");
        asm volatile("st.shared::cluster.u32 [%0], 0;" ::"r"(f) : "memory");
    }
    cluster.sync();
    if (cluster.block_rank() == 0) {
        asm volatile("st.shared::cluster.u32 [%0], 42;" ::"r"(d) : "memory");
        asm volatile("st.release.cluster.shared::cluster.u32 [%0], 1;" ::"r"(f) : "memory");
    } else {
        unsigned seen, v;
        do {
            asm volatile("ld.acquire.cluster.shared::cluster.u32 %0, [%1];" : "=r"(seen) : "r"(f) : "memory");
        } while (seen == 0);
        asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(d) : "memory");
        out[0] = (int)v;
    }
    cluster.sync();
}
