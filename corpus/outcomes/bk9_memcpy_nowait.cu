// corpus-arch: sm_90
// Broken twin of bk9_memcpy: the threads leave with __syncthreads() instead
// of the barrier's arrive_and_wait, so nothing waits for the copy that
// cuda::memcpy_async issued (a 1D cp.async.bulk completing on the barrier's
// mbarrier) before the last thread reads two of the copied words.
// Launched with one thread, as bk9_memcpy.
#include <cuda/barrier>

extern "C" __global__ void bk9_memcpy_nowait(const int4* src, int* out) {
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
  __syncthreads();
  if (t == blockDim.x - 1) {
    out[0] = ((volatile int*)buf)[0];
    out[1] = ((volatile int*)buf)[3];
  }
}
