// cooperative_groups grid.sync() twice in a (1,2,2) grid of 32-thread CTAs
// (probe9i's i19): CTA b's thread 0 writes a[b] = b + 1, grid.sync(), then
// c[b] = 10 * a[(b + 1) % 4], grid.sync(), and CTA 0's thread 0 sums c.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void i9_grid_sync_twice(int* a, int* c, int* out) {
  auto g = cg::this_grid();
  int b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  int n = gridDim.x * gridDim.y * gridDim.z;
  if (threadIdx.x == 0) a[b] = b + 1;
  g.sync();
  if (threadIdx.x == 0) c[b] = 10 * a[(b + 1) % n];
  g.sync();
  if (b == 0 && threadIdx.x == 0) {
    int s = 0;
    for (int i = 0; i < n; ++i) s += c[i];
    *out = s;
  }
}
