// Broken twin of c9_lastblock_cg: the last block has no fence after its
// ticket. threadFenceReduction's last block with cooperative_groups: each of 4 CTAs
// of 128 threads sums its values with cg::reduce over warp tiles and shared
// memory, thread 0 stores the partial, fences and takes a ticket with
// atomicInc; the block that draws the last ticket adds the partials.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

extern "C" __global__ void c9_lastblock_cg_noacq(const int* in, int* partial, unsigned* count, int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  __shared__ int wsum[4];
  __shared__ bool last;
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  int s = cg::reduce(warp, v, cg::plus<int>());
  if (warp.thread_rank() == 0) wsum[warp.meta_group_rank()] = s;
  block.sync();
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = wsum[0] + wsum[1] + wsum[2] + wsum[3];
    __threadfence();
    unsigned ticket = atomicInc(count, gridDim.x);
    last = (ticket == gridDim.x - 1);
  }
  block.sync();
  if (last && threadIdx.x == 0) {
    int total = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) total += partial[b];
    out[0] = total;
    atomicExch(count, 0u);  // reset for the next launch
  }
}
