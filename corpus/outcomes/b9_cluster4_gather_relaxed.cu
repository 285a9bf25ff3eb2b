// corpus-arch: sm_90
// A gather into rank 0's shared memory in a cluster of 4 CTAs of 1 thread:
// ranks 1..3 write slot[r] = 10 r in rank 0's shared memory (weak remote
// stores through mapa addresses), then atom.add.release.cluster on rank
// 0's counter; rank 0 spins with ld.acquire.cluster until the counter is
// 3 and sums the slots. cluster.sync() before (rank 0 initialises) and
// after (rank 0's shared memory stays alive). Broken twin: the add is
// relaxed, so it releases nothing.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ __forceinline__ unsigned cluster_addr(void* p, unsigned rank) {
  unsigned a = (unsigned)__cvta_generic_to_shared(p), r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(rank));
  return r;
}

extern "C" __global__ void __cluster_dims__(4, 1, 1) b9_cluster4_gather_relaxed(int* out) {
  __shared__ int slot[4], count;
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  unsigned c = cluster_addr(&count, 0), s = cluster_addr(&slot[rank], 0);
  if (rank == 0) {
    for (int i = 0; i < 4; ++i) slot[i] = 0;
    count = 0;
  }
  cluster.sync();
  if (rank != 0) {
    asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(s), "r"(10 * rank) : "memory");
    asm volatile("red.relaxed.cluster.shared::cluster.add.u32 [%0], 1;" ::"r"(c) : "memory");
  } else {
    unsigned seen;
    do {
      asm volatile("ld.acquire.cluster.shared::cluster.u32 %0, [%1];" : "=r"(seen) : "r"(c) : "memory");
    } while (seen != 3);
    out[0] = slot[1] + slot[2] + slot[3];
  }
  cluster.sync();
}
