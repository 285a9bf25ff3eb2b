// Message passing between two lanes of one warp through __syncwarp()
// (bar.warp.sync, PTX ISA 9.2 9.7.13.3: it "guarantees memory ordering
// among threads participating in barrier"), as litmus/ptx/warpsync-mp:
// lane 0 writes data, lane 31 reads it after the warp barrier. Thread 32
// (warp 1, not in the barrier) reads it too, unordered with the write, so
// the location communicates. Relaxed atomics: no data race.
#include <cuda/atomic>

extern "C" __global__ void warpsync_mp(int* data, int* out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> D(*data);
  if (threadIdx.x == 0) D.store(42, cuda::memory_order_relaxed);
  __syncwarp();
  if (threadIdx.x == 31) out[0] = D.load(cuda::memory_order_relaxed);
  if (threadIdx.x == 32) out[1] = D.load(cuda::memory_order_relaxed);
}
