// Fence-only message passing with relaxed atomics: CTAs 0 and 2 (thread 5
// of 8) write data[b] = 10 + b, then cuda::atomic_thread_fence(acq_rel,
// device) (fence.acq_rel.gpu) and a relaxed fetch_add on a counter; CTA 1
// thread 0 spins with a relaxed load until the counter is 2, fences
// (acquire, device) and reads both data words.
#include <cuda/atomic>
extern "C" __global__ void b9_fence_relaxed_count(int* data, unsigned* count, int* out) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> c(*count);
  if (blockIdx.x != 1 && threadIdx.x == 5) {
    data[blockIdx.x] = 10 + blockIdx.x;
    cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_device);
    c.fetch_add(1, cuda::memory_order_relaxed);
  }
  if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (c.load(cuda::memory_order_relaxed) != 2) {}
    cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
    out[0] = data[0];
    out[1] = data[2];
  }
}
