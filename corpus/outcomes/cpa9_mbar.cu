// cp.async completed through an mbarrier: threads 0 and 1 stage src[t] into
// shared memory and make the CTA's mbarrier track their copies
// (__pipeline_arrive_on: cp.async.mbarrier.arrive); every thread arrives
// and waits for the phase; threads 32 and 33 then read the staged words.
// No cp.async.wait_group: the phase completion orders the copies.
#include <cuda_awbarrier_primitives.h>
#include <cuda_pipeline_primitives.h>

extern "C" __global__ void cpa9_mbar(const int* src, int* out) {
  __shared__ __mbarrier_t bar;
  __shared__ int stage[2];
  const int t = threadIdx.x;
  if (t == 0) __mbarrier_init(&bar, blockDim.x);
  __syncthreads();
  if (t < 2) {
    stage[t] = -2;
    __pipeline_memcpy_async(&stage[t], &src[t], sizeof(int));
    __pipeline_arrive_on(&bar);
  }
  __mbarrier_token_t tok = __mbarrier_arrive(&bar);
  while (!__mbarrier_test_wait(&bar, tok)) {}
  if (t == 32 || t == 33) out[t - 32] = stage[t - 32];
}
