// corpus-arch: sm_90
// Two clusters of (2,2,1) on a grid of (4,2) (probe9h h56): in each cluster,
// ranks 1..3 store 10 (c + 1) + r into rank 0's shared val[r] (map_shared_rank)
// and add 1 to rank 0's counter with atom.add.release.cluster; rank 0 polls its
// counter with ld.acquire.cluster until 3 and writes the sum to out[c].
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void __cluster_dims__(2, 2, 1) h9_cl_gather2(int* out) {
  __shared__ int val[4];
  __shared__ unsigned cnt;
  cg::cluster_group cl = cg::this_cluster();
  unsigned r = cl.block_rank();
  if (threadIdx.x == 0) {
    val[0] = 0;
    val[1] = 0;
    val[2] = 0;
    val[3] = 0;
    cnt = 0;
  }
  cl.sync();
  int cid = blockIdx.x / 2;  // clusters along x: CTAs x in {2c, 2c+1}, y in {0,1}
  if (threadIdx.x == 0 && r != 0) {
    int* rv = cl.map_shared_rank(val, 0);
    unsigned* rc = cl.map_shared_rank(&cnt, 0);
    rv[r] = 10 * (cid + 1) + (int)r;
    unsigned old;
    asm volatile("atom.add.release.cluster.u32 %0, [%1], 1;" : "=r"(old) : "l"(rc) : "memory");
  } else if (threadIdx.x == 0) {
    unsigned c;
    do {
      asm volatile("ld.acquire.cluster.u32 %0, [%1];" : "=r"(c) : "l"(&cnt) : "memory");
    } while (c != 3);
    out[cid] = val[1] + val[2] + val[3];
  }
  cl.sync();
}
