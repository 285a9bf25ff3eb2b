// cooperative_groups grid.sync(): thread 0 of each of 3 CTAs (2D blocks
// of 4x4) writes part[b] = b + 1, grid.sync(), then thread 5 of CTA 2 sums
// the parts.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void b9_grid_sync(int* part, int* out) {
  cg::grid_group g = cg::this_grid();
  unsigned t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t == 0) part[blockIdx.x] = blockIdx.x + 1;
  g.sync();
  if (blockIdx.x == 2 && t == 5) out[0] = part[0] + 10 * part[1] + 100 * part[2];
}
