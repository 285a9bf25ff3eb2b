// corpus-arch: sm_90
// Clusters of (1,2,1) on a grid of (2,2): a cluster's CTAs are (x,0) and (x,1),
// not consecutive in linear CTA order. Rank 1 stores a value into rank 0's
// shared memory (map_shared_rank) and sets rank 0's flag with st.release.cluster;
// rank 0 polls its own flag with ld.acquire.cluster and writes the value out.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void __cluster_dims__(1, 2, 1) h9_cl_ycluster(int* out) {
  __shared__ int val;
  __shared__ int flag;
  cg::cluster_group cl = cg::this_cluster();
  if (threadIdx.x == 0) {
    val = 0;
    flag = 0;
  }
  cl.sync();
  int cid = blockIdx.x;
  if (cl.block_rank() == 1 && threadIdx.x == 0) {
    int* rv = cl.map_shared_rank(&val, 0);
    int* rf = cl.map_shared_rank(&flag, 0);
    *rv = 100 + cid;
    asm volatile("st.release.cluster.b32 [%0], %1;" ::"l"(rf), "r"(1) : "memory");
  } else if (cl.block_rank() == 0 && threadIdx.x == 0) {
    int f;
    do {
      asm volatile("ld.acquire.cluster.b32 %0, [%1];" : "=r"(f) : "l"(&flag) : "memory");
    } while (f == 0);
    out[cid] = val;
  }
  cl.sync();
}
