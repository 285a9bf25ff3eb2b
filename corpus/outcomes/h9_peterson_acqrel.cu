// Peterson's lock between thread 0 of two CTAs, each entering once, through
// release stores and acquire loads (atomic_ref<int, device>); the critical section increments a
// plain counter and records the value it read.
#include <cuda/atomic>
extern "C" __global__ void h9_peterson_acqrel(int* flag, int* turn, int* counter, int* seen) {
  if (threadIdx.x != 0) return;
  int me = blockIdx.x, other = 1 - me;
  cuda::atomic_ref<int, cuda::thread_scope_device> fm(flag[me]), fo(flag[other]), t(*turn);
  fm.store(1, cuda::memory_order_release);
  t.store(other, cuda::memory_order_release);
  while (fo.load(cuda::memory_order_acquire) == 1 && t.load(cuda::memory_order_acquire) == other) {}
  int c = *counter;
  seen[me] = c;
  *counter = c + 1;
  fm.store(0, cuda::memory_order_release);
}
