// corpus-arch: sm_90
// A neighbour exchange through the __mbarrier_* intrinsics in a CTA of 64
// threads (two warps): every thread writes its slot of data, arrives
// (__mbarrier_arrive: mbarrier.arrive, its state the token), polls
// __mbarrier_test_wait on the token (mbarrier.test_wait) until the phase
// completes, and copies the slot of the next thread to its slot of out.
#include <cuda_awbarrier_primitives.h>
extern "C" __global__ void m9_intr_ring64(int* data, int* out) {
  __shared__ __mbarrier_t bar;
  if (threadIdx.x == 0) __mbarrier_init(&bar, blockDim.x);
  __syncthreads();
  data[threadIdx.x] = 100 + threadIdx.x;
  __mbarrier_token_t token = __mbarrier_arrive(&bar);
  while (!__mbarrier_test_wait(&bar, token)) {}
  out[threadIdx.x] = data[(threadIdx.x + 1) % blockDim.x];
}
