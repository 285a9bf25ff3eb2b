// A grid-wide barrier (cooperative groups; nvcc -ptx -arch=sm_80
// grid_sync.cu): each CTA sums its slice into partial[blockIdx.x], the grid
// synchronizes (cg::this_grid().sync() spins on the grid workspace that
// %envreg1:%envreg2 name), then thread 0 of each CTA writes the inclusive
// scan of the partial sums, reading the other CTAs' partials. grid_sync.json
// is a cooperative launch ("cooperative": true); without it the workspace
// address is 0 and the kernel traps (tests/interp/faults/grid_sync_plain.json).
// grid_sync_ref.py writes the expected outputs.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void grid_sync(const int* in, int* partial, int* scan) {
  cg::grid_group grid = cg::this_grid();
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k /= 2) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = s[0];
  grid.sync();
  if (t == 0) {
    int sum = 0;
    for (unsigned b = 0; b <= blockIdx.x; ++b) sum += partial[b];
    scan[blockIdx.x] = sum;
  }
}
