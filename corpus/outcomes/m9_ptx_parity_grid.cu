// corpus-arch: sm_90
// Two CTAs of 2 x 32 threads, each with its own mbarrier (cuda::ptx): every
// thread writes its slot of the CTA's shared array, arrives (the state is
// not used), polls mbarrier.test_wait.parity for phase 0, and copies the
// slot of the thread three places on in its CTA to its slot of out.
#include <cuda/ptx>
extern "C" __global__ void m9_ptx_parity_grid(int* out) {
  __shared__ int s[64];
  __shared__ uint64_t bar;
  const unsigned n = blockDim.x * blockDim.y;
  const unsigned t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t == 0) cuda::ptx::mbarrier_init(&bar, n);
  __syncthreads();
  s[t] = 1000 * blockIdx.x + t;
  (void)cuda::ptx::mbarrier_arrive(&bar);
  while (!cuda::ptx::mbarrier_test_wait_parity(&bar, 0)) {}
  out[blockIdx.x * n + t] = s[(t + 3) % n];
}
