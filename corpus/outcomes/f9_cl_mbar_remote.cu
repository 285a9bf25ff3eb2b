// corpus-arch: sm_90
// One cluster of 2 CTAs of 32 threads. Rank 0's thread 3 stores data[0..1]
// into rank 1's shared memory through map_shared_rank, then arrives on rank
// 1's mbarrier (count 1) through its mapa address with
// mbarrier.arrive.release.cluster.shared::cluster; rank 1's thread 0 waits on
// its own mbarrier with try_wait.parity.acquire.cluster and reads data.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void __cluster_dims__(2, 1, 1) f9_cl_mbar_remote(int* out) {
  __shared__ unsigned long long bar;
  __shared__ int data[2];
  cg::cluster_group cl = cg::this_cluster();
  unsigned r = cl.block_rank();
  unsigned t = threadIdx.x;
  unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
  if (t == 0) {
    data[0] = data[1] = -1;
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  cl.sync();
  if (r == 0 && t == 3) {
    int* rd = cl.map_shared_rank(data, 1);
    rd[0] = 7;
    rd[1] = 8;
    unsigned rb;
    asm volatile("mapa.shared::cluster.u32 %0, %1, 1;" : "=r"(rb) : "r"(b));
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(rb) : "memory");
  }
  if (r == 1 && t == 0) {
    asm volatile(
        "{ .reg .pred p; W: "
        "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, "
        "[%0], 0; @!p bra W; }" ::"r"(b)
        : "memory");
    out[0] = data[0];
    out[1] = data[1];
  }
  cl.sync();
}
