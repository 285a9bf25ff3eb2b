// Two cp.async-groups, one waited for: thread 0 stages src[0] (group 1) and
// src[1] (group 2), then __pipeline_wait_prior(1) (cp.async.wait_group 1)
// waits until at most one group is pending, so only group 1 is complete,
// before __syncthreads(); thread 32 (warp 1) reads both staged words.
#include <cuda_pipeline_primitives.h>

extern "C" __global__ void cpa9_group1(const int* src, int* out) {
  __shared__ int stage[2];
  const int t = threadIdx.x;
  if (t == 0) {
    stage[0] = -2;
    stage[1] = -2;
    __pipeline_memcpy_async(&stage[0], &src[0], sizeof(int));
    __pipeline_commit();
    __pipeline_memcpy_async(&stage[1], &src[1], sizeof(int));
    __pipeline_commit();
    __pipeline_wait_prior(1);
  }
  __syncthreads();
  if (t == 32) {
    out[0] = stage[0];
    out[1] = stage[1];
  }
}
