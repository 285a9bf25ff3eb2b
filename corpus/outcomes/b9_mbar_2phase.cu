// A two-round handoff through two mbarriers ("full" and "empty", expected
// count 1 each) between lane 0 of warp 1 (producer) and lane 0 of warp 0
// (consumer) of one CTA of 64 threads: round k waits on the phase parity k
// of "full"; the producer refills only after the consumer's arrive on
// "empty".
__device__ __forceinline__ unsigned smem(void* p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void arrive(unsigned b) {
  asm volatile("{ .reg .b64 st; mbarrier.arrive.shared.b64 st, [%0]; }" ::"r"(b) : "memory");
}
__device__ __forceinline__ void wait_parity(unsigned b, unsigned parity) {
  unsigned done;
  do {
    asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done)
                 : "r"(b), "r"(parity)
                 : "memory");
  } while (!done);
}
extern "C" __global__ void b9_mbar_2phase(int* out) {
  __shared__ unsigned long long full, empty;
  __shared__ int buf;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(smem(&full)) : "memory");
    asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(smem(&empty)) : "memory");
  }
  __syncthreads();
  if (threadIdx.x == 32) {
    buf = 11;
    arrive(smem(&full));
    wait_parity(smem(&empty), 0);
    buf = 22;
    arrive(smem(&full));
  }
  if (threadIdx.x == 0) {
    wait_parity(smem(&full), 0);
    out[0] = buf;
    arrive(smem(&empty));
    wait_parity(smem(&full), 1);
    out[1] = buf;
  }
}
