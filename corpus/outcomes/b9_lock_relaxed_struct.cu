// A spinlock taken with cuda::atomic_ref<int, device>::compare_exchange_strong
// (relaxed) and released with store(relaxed) (broken twin), by thread 0 of each
// of 3 CTAs of 2x2 threads; the critical section updates a struct {a, b} with b
// = 2a kept invariant: each holder reads both fields and writes a + 1, b + 2.
#include <cuda/atomic>
struct Acc {
  int a, b;
};
extern "C" __global__ void b9_lock_relaxed_struct(int* lock, Acc* acc) {
  if (threadIdx.x != 0 || threadIdx.y != 0) return;
  cuda::atomic_ref<int, cuda::thread_scope_device> l(*lock);
  int expected = 0;
  while (!l.compare_exchange_strong(expected, 1, cuda::memory_order_acquire, cuda::memory_order_relaxed)) expected = 0;
  int a = acc->a, b = acc->b;
  acc->a = a + 1;
  acc->b = b + 2;
  l.store(0, cuda::memory_order_relaxed);
}
