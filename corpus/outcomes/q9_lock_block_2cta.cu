// probe9k's k06: a CAS lock through cuda::atomic_ref<int, thread_scope_block>
// (compare_exchange_strong with acquire, store(0) with release), taken by
// lane 0 of each warp; the critical section appends the locker's id to a log
// through a plain counter. Launched as 2 CTAs of 32: the lock's scope does
// not include the other CTA.
#include <cuda/atomic>
extern "C" __global__ void q9_lock_block_2cta(int* lock, int* counter, int* log) {
  if (threadIdx.x % 32 != 0) return;
  int id = blockIdx.x * 2 + threadIdx.x / 32;
  cuda::atomic_ref<int, cuda::thread_scope_block> l(*lock);
  int exp = 0;
  while (!l.compare_exchange_strong(exp, 1, cuda::std::memory_order_acquire, cuda::std::memory_order_relaxed)) exp = 0;
  int c = *counter;
  *counter = c + 1;
  log[c] = id;
  l.store(0, cuda::std::memory_order_release);
}
