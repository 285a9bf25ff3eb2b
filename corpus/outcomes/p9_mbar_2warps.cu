// corpus-arch: sm_90
// Every thread of a CTA of two warps arrives on an mbarrier whose phase
// expects 64 arrivals (mbarrier.arrive, .release.cta by default; the state
// it returns is not used), each after writing its slot of data; the last
// thread then also waits for phase 0 to complete (mbarrier.try_wait.parity,
// .acquire.cta by default) and reads the slots of threads 0 and 62.
__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count) {
  asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_arrive(unsigned bar) {
  asm volatile("{\n\t.reg .b64 state;\n\tmbarrier.arrive.shared.b64 state, [%0];\n\t}" ::"r"(bar) : "memory");
}
__device__ __forceinline__ bool mbar_try_wait_parity(unsigned bar, unsigned parity) {
  unsigned done;
  asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(done)
               : "r"(bar), "r"(parity)
               : "memory");
  return done != 0;
}

extern "C" __global__ void p9_mbar_2warps(int* data, int* out) {
  __shared__ unsigned long long mbar;
  unsigned bar = (unsigned)__cvta_generic_to_shared(&mbar);
  if (threadIdx.x == 0) mbar_init(bar, 64);
  __syncthreads();
  data[threadIdx.x] = 100 + threadIdx.x;
  mbar_arrive(bar);
  if (threadIdx.x == blockDim.x - 1) {
    while (!mbar_try_wait_parity(bar, 0)) {}
    out[0] = data[0];
    out[1] = data[62];
  }
}
