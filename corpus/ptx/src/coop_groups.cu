// Theme: cooperative groups: tiled partitions, cg::reduce (redux.sync on
// sm_80) and tile-level shuffles and sync.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

extern "C" __global__ void coop_groups(const int* in, int* out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[gid];
    int sum = cg::reduce(tile, v, cg::plus<int>());
    int mx = cg::reduce(tile, v, cg::greater<int>());
    int nb = tile.shfl(v, (tile.thread_rank() + 1) % tile.size());
    tile.sync();
    out[3 * gid + 0] = sum;
    out[3 * gid + 1] = mx;
    out[3 * gid + 2] = nb + (int)tile.meta_group_rank();
}
