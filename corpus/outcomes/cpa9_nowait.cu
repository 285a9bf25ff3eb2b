// cp.async without a wait (broken): threads 0 and 1 (warp 0) stage src[t]
// into shared memory with __pipeline_memcpy_async and commit the group,
// but nobody waits (__pipeline_wait_prior) before __syncthreads(); threads
// 32 and 33 (warp 1) read the staged words after the barrier. The copy's
// write is asynchronous (PTX ISA 8.9.1.1): the barrier does not order it
// before the reads, which may see the value each thread wrote before.
#include <cuda_pipeline_primitives.h>

extern "C" __global__ void cpa9_nowait(const int* src, int* out) {
  __shared__ int stage[2];
  const int t = threadIdx.x;
  if (t < 2) {
    stage[t] = -2;
    __pipeline_memcpy_async(&stage[t], &src[t], sizeof(int));
    __pipeline_commit();
  }
  __syncthreads();
  if (t == 32 || t == 33) out[t - 32] = stage[t - 32];
}
