// A seqlock written with cuda::atomic_ref<..., thread_scope_block> and
// block-scope fences, used across two CTAs: the writer (CTA 0) publishes
// two versions (1, 10) and (2, 20), the reader (CTA 1) retries until it
// sees an even, unchanged sequence. .cta operations of different CTAs are
// not morally strong: nothing synchronizes and the data reads race.
#include <cuda/atomic>
using A = cuda::atomic_ref<unsigned, cuda::thread_scope_block>;
using D = cuda::atomic_ref<int, cuda::thread_scope_block>;
extern "C" __global__ void g9_seqlock_cta_2cta(unsigned* seq, int* x, int* y, int* out) {
  if (threadIdx.x != 0) return;
  A s(*seq);
  D dx(*x), dy(*y);
  if (blockIdx.x == 0) {
    for (int v = 1; v <= 2; ++v) {
      unsigned q = s.load(cuda::memory_order_relaxed);
      s.store(q + 1, cuda::memory_order_relaxed);
      cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_block);
      dx.store(v, cuda::memory_order_relaxed);
      dy.store(10 * v, cuda::memory_order_relaxed);
      s.store(q + 2, cuda::memory_order_release);
    }
  } else {
    unsigned s0, s1;
    int a, b;
    do {
      s0 = s.load(cuda::memory_order_acquire);
      a = dx.load(cuda::memory_order_relaxed);
      b = dy.load(cuda::memory_order_relaxed);
      cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_block);
      s1 = s.load(cuda::memory_order_relaxed);
    } while ((s0 & 1u) != 0u || s0 != s1);
    out[0] = a;
    out[1] = b;
  }
}
