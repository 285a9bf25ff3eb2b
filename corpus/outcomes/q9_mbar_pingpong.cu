// corpus-arch: sm_90
// probe9k's k24: a two-phase ping-pong through one mbarrier expecting 2
// arrivals (inline PTX). Thread 0 and thread 64 of a CTA of 96, in each phase
// ph: write slot[ph][me], mbarrier.arrive (.release.cta by default), wait for
// the phase with mbarrier.try_wait.parity (.acquire.cta by default), read
// slot[ph][other]: each thread reads the other's slot after its wait in
// both phases.
__device__ __forceinline__ unsigned sa(void* p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void mb_arrive(unsigned long long* m) {
  asm volatile("{ .reg .b64 st; mbarrier.arrive.shared::cta.b64 st, [%0]; }" ::"r"(sa(m)) : "memory");
}
__device__ __forceinline__ void mb_wait(unsigned long long* m, unsigned par) {
  asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1; @!p bra W; }" ::"r"(sa(m)),
               "r"(par)
               : "memory");
}

extern "C" __global__ void q9_mbar_pingpong(int* out) {
  const bool early = false;
  __shared__ unsigned long long bar;
  __shared__ int slot[2][2];
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 2;" ::"r"(sa(&bar)) : "memory");
    for (int i = 0; i < 4; ++i) slot[i / 2][i % 2] = -1;
  }
  __syncthreads();
  int me = threadIdx.x == 0 ? 0 : threadIdx.x == 64 ? 1 : -1;
  if (me < 0) return;
  for (int ph = 0; ph < 2; ++ph) {
    slot[ph][me] = 10 * (ph + 1) + me;
    mb_arrive(&bar);
    int v = 0;
    if (early && ph == 1) v = slot[ph][1 - me];
    mb_wait(&bar, ph & 1);
    if (!(early && ph == 1)) v = slot[ph][1 - me];
    out[me * 2 + ph] = v;
  }
}
