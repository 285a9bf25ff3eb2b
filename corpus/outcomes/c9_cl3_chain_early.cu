// corpus-arch: sm_90
// Broken twin of c9_cl3_chain: in a cluster of 3 CTAs of 32 threads, rank
// 0's thread 3 writes into rank 1's shared word and rank 1's thread 9
// copies it (+1) into rank 2's with no cluster.sync() between them; after
// a cluster.sync() rank 2's thread 0 reads it.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void __cluster_dims__(3, 1, 1) c9_cl3_chain_early(int* out) {
  __shared__ int box;
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  if (threadIdx.x == 0) box = 0;
  cluster.sync();
  if (rank == 0 && threadIdx.x == 3) *cluster.map_shared_rank(&box, 1) = 7;
  if (rank == 1 && threadIdx.x == 9) *cluster.map_shared_rank(&box, 2) = box + 1;
  cluster.sync();
  if (rank == 2 && threadIdx.x == 0) out[0] = box;
  cluster.sync();
}
