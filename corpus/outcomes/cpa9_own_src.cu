// A thread overwrites its own cp.async source before waiting (broken):
// thread 0 copies src[0] into stage[0] with __pipeline_memcpy_async,
// commits, stores 9 to src[0], waits, and reads stage[0] into out[0].
#include <cuda_pipeline_primitives.h>

extern "C" __global__ void cpa9_own_src(int* src, int* out) {
  __shared__ int stage[1];
  if (threadIdx.x == 0) {
    __pipeline_memcpy_async(&stage[0], &src[0], sizeof(int));
    __pipeline_commit();
    ((volatile int*)src)[0] = 9;
    __pipeline_wait_prior(0);
    out[0] = ((volatile int*)stage)[0];
  }
}
