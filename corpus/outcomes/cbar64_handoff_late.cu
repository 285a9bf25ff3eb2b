// corpus-arch: sm_90
// The broken twin of cbar64_handoff: thread 63 writes its slot only after
// its arrive_and_wait(), so the barrier does not order that write before
// thread 0's read of it.
#include <cuda/barrier>
#pragma nv_diag_suppress static_var_with_dynamic_init
extern "C" __global__ void cbar64_handoff_late(int* data, int* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x != 63) data[threadIdx.x] = 100 + threadIdx.x;
  bar.arrive_and_wait();
  if (threadIdx.x == 63) data[63] = 163;
  if (threadIdx.x == 0) {
    out[0] = data[63];
    out[1] = data[32];
  }
}
