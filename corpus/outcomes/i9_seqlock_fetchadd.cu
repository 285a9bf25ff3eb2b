// Seqlock with a fetch_add writer (Boehm's pattern): seq.fetch_add(1,
// relaxed); atomic_thread_fence(release); relaxed stores of x and y;
// seq.fetch_add(1, release). The reader (another CTA) makes one attempt:
// s0 = seq.load(acquire); relaxed loads of x and y;
// atomic_thread_fence(acquire); s1 = seq.load(relaxed); and reports all four.
#include <cuda/atomic>
using A = cuda::atomic_ref<int, cuda::thread_scope_device>;
extern "C" __global__ void i9_seqlock_fetchadd(int* seq, int* x, int* y, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 1) {
    A(*seq).fetch_add(1, cuda::memory_order_relaxed);
    cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
    A(*x).store(1, cuda::memory_order_relaxed);
    A(*y).store(10, cuda::memory_order_relaxed);
    A(*seq).fetch_add(1, cuda::memory_order_release);
  } else {
    int s0 = A(*seq).load(cuda::memory_order_acquire);
    int a = A(*x).load(cuda::memory_order_relaxed);
    int b = A(*y).load(cuda::memory_order_relaxed);
    cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
    int s1 = A(*seq).load(cuda::memory_order_relaxed);
    out[0] = s0;
    out[1] = a;
    out[2] = b;
    out[3] = s1;
  }
}
