// corpus-arch: sm_90
// A cluster barrier relays an order that only other threads carry: thread
// 0 of rank 0 writes data and leaves after __syncthreads(), before the
// cluster barrier; the rest of its CTA meets it at __syncthreads() and then
// at cluster.sync() with rank 1, whose thread 0 reads data before it
// (a race) and after it.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void __cluster_dims__(2, 1, 1) c9_cl_relay(int* data, int* out) {
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  if (rank == 0 && threadIdx.x == 0) data[0] = 42;
  if (rank == 0) __syncthreads();
  if (rank == 0 && threadIdx.x == 0) return;
  if (rank == 1 && threadIdx.x == 0) out[1] = data[0];  // unordered: 0 or 42
  cluster.sync();
  if (rank == 1 && threadIdx.x == 0) out[0] = data[0];
}
