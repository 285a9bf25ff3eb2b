// corpus-arch: sm_90
// Two clusters of 2 CTAs of 8x2 threads (grid 4): in each cluster, thread
// (7,1) of rank 0 writes a payload into rank 1's shared memory through
// map_shared_rank, then sets rank 1's flag through the same distributed
// shared memory (a generic address from mapa) with an inline-PTX store;
// thread (0,0) of rank 1 polls its own flag through its shared::cta address
// with ld.acquire.cluster. Here the store is st.release.cluster.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void __cluster_dims__(2, 1, 1) e9_cl_remote_flag(int* out) {
  __shared__ int pay[2];
  __shared__ int flag;
  cg::cluster_group cl = cg::this_cluster();
  unsigned t = threadIdx.x + 8 * threadIdx.y;
  if (t == 0) {
    flag = 0;
    pay[0] = pay[1] = -1;
  }
  cl.sync();
  if (cl.block_rank() == 0 && t == 15) {
    int* rp = cl.map_shared_rank(pay, 1);
    int* rf = cl.map_shared_rank(&flag, 1);
    rp[0] = 100 + (int)blockIdx.x;
    rp[1] = 200 + (int)blockIdx.x;
    asm volatile("st.release.cluster.b32 [%0], 1;" ::"l"(rf) : "memory");
  }
  if (cl.block_rank() == 1 && t == 0) {
    int f;
    do {
      asm volatile("ld.acquire.cluster.shared::cta.b32 %0, [%1];"
                   : "=r"(f)
                   : "r"((unsigned)__cvta_generic_to_shared(&flag))
                   : "memory");
    } while (f == 0);
    unsigned c = blockIdx.x / 2;
    out[2 * c] = pay[0];
    out[2 * c + 1] = pay[1];
  }
  cl.sync();
}
