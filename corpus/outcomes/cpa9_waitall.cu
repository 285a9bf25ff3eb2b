// cp.async waited for (correct twin of cpa9_nowait): threads 0 and 1 stage
// src[t] into shared memory, then cp.async.wait_all completes their copies
// before __syncthreads(); threads 32 and 33 read the staged words.
#include <cuda_pipeline_primitives.h>

extern "C" __global__ void cpa9_waitall(const int* src, int* out) {
  __shared__ int stage[2];
  const int t = threadIdx.x;
  if (t < 2) {
    stage[t] = -2;
    __pipeline_memcpy_async(&stage[t], &src[t], sizeof(int));
    asm volatile("cp.async.wait_all;" ::: "memory");
  }
  __syncthreads();
  if (t == 32 || t == 33) out[t - 32] = stage[t - 32];
}
