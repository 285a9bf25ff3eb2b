// A bulk reduction that completes on an mbarrier: thread 0 arms an mbarrier
// (count 1) with expect_tx 16 bytes and adds 4 words of its shared memory
// into buf with cp.reduce.async.bulk .shared::cluster.shared::cta
// completing on it; warp 1's lane 0 waits for phase 0, then reads the 4
// words. outcomes refuses it (outcomes_limits.py async): the reduction's
// complete_tx is not reported to it (1D cp.async.bulk copies are).
#include <cstdint>
extern "C" __global__ void bulk_reduce_mbar(int* out) {
  __shared__ alignas(16) int buf[4];
  __shared__ alignas(16) int add[4];
  __shared__ uint64_t bar;
  unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
  unsigned d = (unsigned)__cvta_generic_to_shared(buf);
  unsigned s = (unsigned)__cvta_generic_to_shared(add);
  if (threadIdx.x == 0) {
    for (int k = 0; k < 4; ++k) buf[k] = k, add[k] = 10;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b) : "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 16;" ::"r"(b) : "memory");
    asm volatile(
        "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%0], [%1], 16, [%2];" ::
            "r"(d),
        "r"(s), "r"(b)
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
