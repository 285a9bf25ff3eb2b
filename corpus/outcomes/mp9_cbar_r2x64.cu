// corpus-arch: sm_90
// Two rounds through one cuda::barrier in a CTA of 64 threads (two warps):
// every thread writes its slot of data, arrive_and_wait(), copies the next
// thread's slot to out, arrive_and_wait() (the slot is written again in the
// next round): one mbarrier over four phases.
#include <cuda/barrier>
#pragma nv_diag_suppress static_var_with_dynamic_init
extern "C" __global__ void mp9_cbar_r2x64(int* data, int* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  const unsigned n = blockDim.x, t = threadIdx.x;
  for (unsigned r = 0; r < 2; ++r) {
    data[t] = 100 * r + t;
    bar.arrive_and_wait();
    out[r * n + t] = data[(t + 1) % n];
    bar.arrive_and_wait();
  }
}
