// A CAS spinlock through cuda::atomic_ref<int, cuda::thread_scope_block>
// (compare_exchange_strong(acquire), store(release)) taken by thread 0 of
// two CTAs: atom.cas.acquire.cta and st.release.cta of different CTAs are
// not morally strong, so the lock neither excludes (no RMW atomicity) nor
// synchronizes. Each holder records the counter it saw and increments it.
#include <cuda/atomic>
extern "C" __global__ void g9_lock_cta_scope(int* lock, int* counter, int* seen) {
  if (threadIdx.x != 0) return;
  cuda::atomic_ref<int, cuda::thread_scope_block> l(*lock);
  int e = 0;
  while (!l.compare_exchange_strong(e, 1, cuda::memory_order_acquire, cuda::memory_order_relaxed)) e = 0;
  int c = *counter;
  seen[blockIdx.x] = c;
  *counter = c + 1;
  l.store(0, cuda::memory_order_release);
}
