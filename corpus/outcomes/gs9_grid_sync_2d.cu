// cooperative_groups grid.sync() over 3 CTAs of 4x2 threads: every thread
// writes part[b*8+t] = b*100+t, grid.sync(), then CTA 2's thread (3,1) sums
// all 24 parts into out[0] and CTA 0's thread (0,0) copies part[23] into
// out[1].
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void gs9_grid_sync_2d(int* part, int* out) {
  cg::grid_group g = cg::this_grid();
  unsigned t = threadIdx.x + 4 * threadIdx.y;
  part[blockIdx.x * 8 + t] = blockIdx.x * 100 + t;
  g.sync();
  if (blockIdx.x == 2 && t == 7) {
    int s = 0;
    for (int i = 0; i < 24; ++i) s += part[i];
    out[0] = s;
  }
  if (blockIdx.x == 0 && t == 0) out[1] = part[23];
}
