// cuda::barrier arrive_and_drop: a block barrier for 64 threads; warp 1
// (thread 40 stores s[0]) leaves it with arrive_and_drop, warp 0 waits
// with arrive_and_wait and reads s[0]; then warp 0 alone (the expected
// count is 32 now) hands s[1] from thread 5 to thread 1 through a second
// phase.
// corpus-arch: sm_90
#include <cuda/barrier>
#pragma nv_diag_suppress static_var_with_dynamic_init
extern "C" __global__ void i9_cbar_drop(int* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ int s[2];
  if (threadIdx.x == 0) init(&bar, 64);
  __syncthreads();
  if (threadIdx.x >= 32) {
    if (threadIdx.x == 40) s[0] = 17;
    bar.arrive_and_drop();
  } else {
    bar.arrive_and_wait();
    if (threadIdx.x == 0) out[0] = s[0];
    if (threadIdx.x == 5) s[1] = 23;
    bar.arrive_and_wait();
    if (threadIdx.x == 1) out[1] = s[1];
  }
}
