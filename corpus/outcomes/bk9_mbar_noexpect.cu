// corpus-arch: sm_90
// Broken twin of bk9_mbar: thread 0 arrives without expect_tx, so the
// phase completes at its arrive, before the copy lands. Otherwise the same:
// a 1D bulk copy completing on an mbarrier: thread 0 stages -2 in buf
// (made visible to the async proxy by fence.proxy.async), arrives on the
// mbarrier (count 1) with a plain mbarrier.arrive and issues cp.async.bulk
// global -> shared with .mbarrier::complete_tx::bytes;
// thread 32 (warp 1) waits for phase 0 with try_wait.parity, then reads
// two of the four copied words.
#include <cstdint>

__device__ __forceinline__ void wait_phase0(unsigned b) {
  unsigned ok = 0;
  while (!ok)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(ok)
                 : "r"(b)
                 : "memory");
}

extern "C" __global__ void bk9_mbar_noexpect(const int4* src, int* out) {
  __shared__ alignas(16) int buf[4];
  __shared__ uint64_t bar;
  const unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
  const unsigned d = (unsigned)__cvta_generic_to_shared(buf);
  if (threadIdx.x == 0) {
    for (int k = 0; k < 4; ++k) buf[k] = -2;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(b) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 16, [%2];" ::"r"(d),
                 "l"(src), "r"(b)
                 : "memory");
  } else if (threadIdx.x == 32) {
    wait_phase0(b);
    out[0] = ((volatile int*)buf)[0];
    out[1] = ((volatile int*)buf)[3];
  }
}
