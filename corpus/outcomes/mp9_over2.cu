// corpus-arch: sm_90
// Over-arrival (probe9's q10 with count 1): an mbarrier with expected count
// 1 in a CTA of 96 threads; warp 1 lane 0 and warp 2 lane 7 each write one
// half of a shared pair and arrive; warp 0 lane 0 polls try_wait.parity 0
// and copies both halves out.
__device__ __forceinline__ void mbar_arrive(unsigned bar) {
  asm volatile("{\n\t.reg .b64 st;\n\tmbarrier.arrive.shared::cta.b64 st, [%0];\n\t}" ::"r"(bar) : "memory");
}
__device__ __forceinline__ bool mbar_try(unsigned bar, unsigned par) {
  unsigned d;
  asm volatile(
      "{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
      : "=r"(d)
      : "r"(bar), "r"(par)
      : "memory");
  return d;
}
extern "C" __global__ void mp9_over2(int* out) {
  __shared__ unsigned long long mbar;
  __shared__ int pair[2];
  unsigned bar = (unsigned)__cvta_generic_to_shared(&mbar);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
    pair[0] = pair[1] = 0;
  }
  __syncthreads();
  if (threadIdx.x == 32) {
    pair[0] = 11;
    mbar_arrive(bar);
  } else if (threadIdx.x == 71) {
    pair[1] = 22;
    mbar_arrive(bar);
  } else if (threadIdx.x == 0) {
    while (!mbar_try(bar, 0)) {}
    out[0] = pair[0];
    out[1] = pair[1];
  }
}
