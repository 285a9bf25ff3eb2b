// TMA-style bulk copy: thread 0 arms an mbarrier (count 1) with expect_tx 16
// bytes and issues cp.async.bulk global -> shared completing on it; warp 1's
// lane 0 waits for phase 0, then reads the 4 words. outcomes lists its one
// outcome (outcomes_limits.py async; once refused, as bulk_reduce_mbar is).
#include <cstdint>
extern "C" __global__ void bulk_mbar(const int4* src, int* out) {
  __shared__ alignas(16) int buf[4];
  __shared__ uint64_t bar;
  unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
  unsigned d = (unsigned)__cvta_generic_to_shared(buf);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 16;" ::"r"(b) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 16, [%2];" ::"r"(d),
                 "l"(src), "r"(b)
                 : "memory");
  } else if (threadIdx.x == 32) {
    unsigned ok = 0;
    while (!ok)
      asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                   : "=r"(ok)
                   : "r"(b)
                   : "memory");

    for (int k = 0; k < 4; ++k) out[k] = ((volatile int*)buf)[k];
  }
  __syncthreads();
}
