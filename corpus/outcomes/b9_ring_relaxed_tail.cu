// A single-producer single-consumer ring buffer of 2 slots carrying 3
// items between two CTAs of 32 threads: the producer is CTA 1 lane 31, the
// consumer CTA 0 lane 0 (cooperative launch). head counts items written,
// tail items consumed; both are cuda::atomic_ref<unsigned, device> with
// head acquire/release, tail relaxed (broken: slot reuse is unordered). The consumer writes each item it takes
// to out[i].
#include <cuda/atomic>
#define ITEMS 3
#define SLOTS 2
extern "C" __global__ void b9_ring_relaxed_tail(int* slot, unsigned* head, unsigned* tail, int* out) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> h(*head), t(*tail);
  if (blockIdx.x == 1 && threadIdx.x == 31) {
    for (unsigned i = 0; i < ITEMS; ++i) {
      while (i - t.load(cuda::memory_order_relaxed) >= SLOTS) {}
      slot[i % SLOTS] = 100 * (i + 1);
      h.store(i + 1, cuda::memory_order_release);
    }
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    for (unsigned i = 0; i < ITEMS; ++i) {
      while (h.load(cuda::memory_order_acquire) <= i) {}
      out[i] = slot[i % SLOTS];
      t.store(i + 1, cuda::memory_order_relaxed);
    }
  }
}
