// A thread reads its own cp.async destination before waiting (broken):
// thread 0 stages -2, copies src[0] over it with __pipeline_memcpy_async,
// commits, reads stage[0] into out[0], and only then waits.
#include <cuda_pipeline_primitives.h>

extern "C" __global__ void cpa9_own_read(const int* src, int* out) {
  __shared__ int stage[1];
  if (threadIdx.x == 0) {
    stage[0] = -2;
    __pipeline_memcpy_async(&stage[0], &src[0], sizeof(int));
    __pipeline_commit();
    out[0] = ((volatile int*)stage)[0];
    __pipeline_wait_prior(0);
  }
}
