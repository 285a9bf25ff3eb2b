// corpus-arch: sm_90
// Four rounds through one mbarrier (__mbarrier_* intrinsics) in a CTA of 64
// threads, two buffers in turn: every thread writes its slot of the round's
// buffer, arrives, polls test_wait on the token and copies the next
// thread's slot to out; in the last round thread 1 writes its slot after
// its arrive instead of before.
#include <cuda_awbarrier_primitives.h>
extern "C" __global__ void mp9_intr_late64(int* data, int* out) {
  __shared__ __mbarrier_t bar;
  if (threadIdx.x == 0) __mbarrier_init(&bar, blockDim.x);
  __syncthreads();
  const unsigned n = blockDim.x, t = threadIdx.x;
  for (unsigned r = 0; r < 4; ++r) {
    int* buf = data + (r & 1) * n;
    const bool late = t == 1 && r == 3;
    if (!late) buf[t] = 100 * r + t;
    __mbarrier_token_t tok = __mbarrier_arrive(&bar);
    if (late) buf[t] = 100 * r + t;
    while (!__mbarrier_test_wait(&bar, tok)) {}
    out[r * n + t] = buf[(t + 1) % n];
  }
}
