// corpus-arch: sm_90
// cuda::memcpy_async with a cuda::barrier on sm_90: libcu++ issues a 1D
// cp.async.bulk ... .mbarrier::complete_tx::bytes on the barrier's
// mbarrier and an mbarrier.expect_tx of its size. Thread 0 stages -2 in
// buf (fenced for the async proxy) and copies 16 bytes; every thread then
// arrive_and_wait; the last one reads two of the copied words. Launched
// with one thread (the copy is asynchronous to its own thread too).
#include <cuda/barrier>

extern "C" __global__ void bk9_memcpy(const int4* src, int* out) {
  __shared__ alignas(16) int buf[4];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  const int t = threadIdx.x;
  if (t == 0) {
    init(&bar, blockDim.x);
    for (int k = 0; k < 4; ++k) buf[k] = -2;
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  __syncthreads();
  if (t == 0) cuda::memcpy_async(buf, src, cuda::aligned_size_t<16>(16), bar);
  bar.arrive_and_wait();
  if (t == blockDim.x - 1) {
    out[0] = ((volatile int*)buf)[0];
    out[1] = ((volatile int*)buf)[3];
  }
}
