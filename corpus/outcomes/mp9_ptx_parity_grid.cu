// corpus-arch: sm_90
// Three rounds through one mbarrier per CTA (cuda::ptx), two CTAs of 32
// threads: every thread writes its slot of the round's buffer (two buffers
// in turn), arrives (mbarrier_arrive), polls try_wait.parity on a parity
// that flips every round, and copies the slot 3 further on to out.
#include <cuda/ptx>
extern "C" __global__ void mp9_ptx_parity_grid(int* data, int* out) {
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) cuda::ptx::mbarrier_init(&bar, blockDim.x);
  __syncthreads();
  const unsigned n = blockDim.x, t = threadIdx.x, base = blockIdx.x * 2 * n;
  uint32_t phase = 0;
  for (unsigned r = 0; r < 3; ++r) {
    int* buf = data + base + (r & 1) * n;
    buf[t] = 1000 * blockIdx.x + 100 * r + t;
    (void)cuda::ptx::mbarrier_arrive(&bar);
    while (!cuda::ptx::mbarrier_try_wait_parity(&bar, phase)) {}
    phase ^= 1;
    out[(blockIdx.x * 3 + r) * n + t] = buf[(t + 3) % n];
  }
}
