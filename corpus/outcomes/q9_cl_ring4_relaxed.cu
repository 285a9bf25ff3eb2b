// corpus-arch: sm_90
// probe9k's k13n: a ring in one cluster of 4 CTAs of 32 threads. Thread 0 of
// each rank r initialises its own shared slot (-7) and flag (0), cluster.sync(),
// then writes 100 + r into rank (r+1)%4's slot through map_shared_rank and
// sets that rank's flag with st.relaxed.cluster (no release); it then polls its own
// flag with ld.acquire.cluster and reports its slot; a final cluster.sync()
// keeps every CTA's shared memory alive until the others are done.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ __forceinline__ void st_flag(int* p, int v) {
  asm volatile("st.relaxed.cluster.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ int ld_acq_cl(int* p) {
  int v;
  asm volatile("ld.acquire.cluster.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

extern "C" __global__ void __cluster_dims__(4, 1, 1) q9_cl_ring4_relaxed(int* out) {
  __shared__ int slot;
  __shared__ int flag;
  cg::cluster_group cl = cg::this_cluster();
  unsigned r = cl.block_rank();
  if (threadIdx.x == 0) {
    slot = -7;
    flag = 0;
  }
  cl.sync();
  if (threadIdx.x == 0) {
    unsigned dst = (r + 1) % cl.num_blocks();
    *cl.map_shared_rank(&slot, dst) = 100 + (int)r;
    st_flag(cl.map_shared_rank(&flag, dst), 1);
    while (ld_acq_cl(&flag) == 0) {}
    out[blockIdx.x] = slot;
  }
  cl.sync();
}
