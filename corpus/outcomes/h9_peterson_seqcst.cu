// Peterson's lock between thread 0 of two CTAs, each entering once, through
// seq_cst cuda::atomic_ref<int, device>; the critical section increments a
// plain counter and records the value it read.
#include <cuda/atomic>
extern "C" __global__ void h9_peterson_seqcst(int* flag, int* turn, int* counter, int* seen) {
  if (threadIdx.x != 0) return;
  int me = blockIdx.x, other = 1 - me;
  cuda::atomic_ref<int, cuda::thread_scope_device> fm(flag[me]), fo(flag[other]), t(*turn);
  fm.store(1);
  t.store(other);
  while (fo.load() == 1 && t.load() == other) {}
  int c = *counter;
  seen[me] = c;
  *counter = c + 1;
  fm.store(0, cuda::memory_order_release);
}
