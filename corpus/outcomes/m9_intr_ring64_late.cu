// corpus-arch: sm_90
// The broken twin of m9_intr_ring64: thread 1 writes its slot only after
// its arrive, so the write is not released to thread 0, which reads it.
#include <cuda_awbarrier_primitives.h>
extern "C" __global__ void m9_intr_ring64_late(int* data, int* out) {
  __shared__ __mbarrier_t bar;
  if (threadIdx.x == 0) __mbarrier_init(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x != 1) data[threadIdx.x] = 100 + threadIdx.x;
  __mbarrier_token_t token = __mbarrier_arrive(&bar);
  if (threadIdx.x == 1) data[threadIdx.x] = 100 + threadIdx.x;
  while (!__mbarrier_test_wait(&bar, token)) {}
  out[threadIdx.x] = data[(threadIdx.x + 1) % blockDim.x];
}
