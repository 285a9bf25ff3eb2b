// corpus-arch: sm_90
// Broken twin of c9_cl_flag: cta scope on both sides of the flag.
// probe9's cluster flag kernel (not in the corpus: 28 s), over two clusters:
// in each cluster of 2 CTAs of 64 threads, rank 0's thread 35 writes into
// rank 1's shared array through cluster.map_shared_rank and sets rank 1's
// flag with st.release.cta (generic address); rank 1's thread 0 spins
// on it with ld.acquire.cta and copies the data out. cluster.sync()
// before (initialisation) and after (lifetime).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void __cluster_dims__(2, 1, 1) c9_cl_flag_cta(int* out) {
  __shared__ int data[2];
  __shared__ int flag;
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  if (threadIdx.x == 0) {
    data[0] = data[1] = 0;
    flag = 0;
  }
  cluster.sync();
  int* rdata = cluster.map_shared_rank(data, 1);
  int* rflag = cluster.map_shared_rank(&flag, 1);
  if (rank == 0 && threadIdx.x == 35) {
    rdata[0] = 100 + (int)blockIdx.x;
    rdata[1] = 200;
    asm volatile("st.release.cta.b32 [%0], %1;" ::"l"(rflag), "r"(1) : "memory");
  } else if (rank == 1 && threadIdx.x == 0) {
    int seen;
    do {
      asm volatile("ld.acquire.cta.b32 %0, [%1];" : "=r"(seen) : "l"(rflag) : "memory");
    } while (seen == 0);
    out[2 * (blockIdx.x / 2)] = rdata[0];
    out[2 * (blockIdx.x / 2) + 1] = rdata[1];
  }
  cluster.sync();
}
