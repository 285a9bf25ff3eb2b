// corpus-arch: sm_90
// cluster_handoff with CTA-scope flag accesses (broken twin):
// st.release.cta by rank 0 and ld.acquire.cta by rank 1 do not include each
// other's thread in their scope. Otherwise identical to cluster_handoff.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ __forceinline__ unsigned cluster_addr(void* p, unsigned rank)
{
    unsigned a = (unsigned)__cvta_generic_to_shared(p), r;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(rank));
    return r;
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) cluster_handoff_cta(int* out)
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
        asm volatile("st.release.cta.shared::cluster.u32 [%0], 1;" ::"r"(f) : "memory");
    } else {
        unsigned seen, v;
        do {
            asm volatile("ld.acquire.cta.shared::cluster.u32 %0, [%1];" : "=r"(seen) : "r"(f) : "memory");
        } while (seen == 0);
        asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(d) : "memory");
        out[0] = (int)v;
    }
    cluster.sync();
}
