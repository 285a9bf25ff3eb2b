// A CAS spinlock written as a struct template over cuda::std::atomic_ref
// (system scope): lock() is a do/while compare_exchange_weak(acquire),
// unlock() a store(release). 3 CTAs of 2x2 threads; thread (1,1) of each CTA
// takes the lock, records the count it saw in seen[blockIdx.x], and updates
// a two-field struct (count + 1, sum + blockIdx.x + 1).
#include <cuda/std/atomic>
struct Acc {
  int count;
  int sum;
};
template <typename T>
struct SpinLock {
  T* word;
  __device__ void lock() {
    cuda::std::atomic_ref<T> a(*word);
    T expected;
    do {
      expected = 0;
    } while (!a.compare_exchange_weak(expected, 1, cuda::std::memory_order_acquire, cuda::std::memory_order_relaxed));
  }
  __device__ void unlock() { cuda::std::atomic_ref<T>(*word).store(0, cuda::std::memory_order_release); }
};
extern "C" __global__ void e9_lock_sys_struct(int* lockw, Acc* acc, int* seen) {
  if (threadIdx.x != 1 || threadIdx.y != 1) return;
  SpinLock<int> l{lockw};
  l.lock();
  seen[blockIdx.x] = acc->count;
  acc->count = acc->count + 1;
  acc->sum = acc->sum + (int)blockIdx.x + 1;
  l.unlock();
}
