// corpus-arch: sm_90
// A handoff through libcu++'s cuda::barrier (an mbarrier in shared memory):
// warp 0 writes shared memory and arrives; warp 1 arrives and waits, then
// reads it. The wait loop of arrive_and_wait counts its first 16 polls in
// a register and then backs off with %globaltimer and nanosleep.
#include <cuda/barrier>
#pragma nv_diag_suppress static_var_with_dynamic_init
extern "C" __global__ void cuda_barrier(int* out) {
  __shared__ int s;
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, 2);
  __syncthreads();
  if (threadIdx.x == 0) {
    s = 77;
    (void)bar.arrive();
  } else if (threadIdx.x == 32) {
    bar.arrive_and_wait();
    *out = s;
  }
}
