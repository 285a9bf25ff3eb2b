// corpus-arch: sm_90
// A handoff from a full warp through an mbarrier whose phase expects 32
// arrivals: every lane of warp 0 writes its slot of data, then arrives
// (mbarrier.arrive.relaxed.cta: broken, a relaxed arrive releases nothing;
// the state it returns is not used); the CTA's last thread (warp 1) waits for phase 0 to complete
// (mbarrier.try_wait.parity, .acquire.cta by default) and reads the slots of
// lanes 0 and 31.
__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count) {
  asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_arrive(unsigned bar) {
  asm volatile("{\n\t.reg .b64 state;\n\tmbarrier.arrive.relaxed.cta.shared::cta.b64 state, [%0];\n\t}" ::"r"(bar)
               : "memory");
}
__device__ __forceinline__ bool mbar_try_wait_parity(unsigned bar, unsigned parity) {
  unsigned done;
  asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(done)
               : "r"(bar), "r"(parity)
               : "memory");
  return done != 0;
}

extern "C" __global__ void p9_mbar_warp_relaxed(int* data, int* out) {
  __shared__ unsigned long long mbar;
  unsigned bar = (unsigned)__cvta_generic_to_shared(&mbar);
  if (threadIdx.x == 0) mbar_init(bar, 32);
  __syncthreads();
  if (threadIdx.x < 32) {
    data[threadIdx.x] = 10 + threadIdx.x;
    mbar_arrive(bar);
  } else if (threadIdx.x == blockDim.x - 1) {
    while (!mbar_try_wait_parity(bar, 0)) {}
    out[0] = data[0];
    out[1] = data[31];
  }
}
