// j9_sync_or_poll with cuda::atomic_thread_fence(acquire, device) after the
// loop (fence.acq_rel.gpu, no fence.sc) instead of __threadfence(): when
// thread 32 read 0 in the last round, nothing orders the producer's data
// before its read.
#include <cuda/atomic>
extern "C" __global__ void j9_sync_or_poll_acq(int* data, int* flag, int* out) {
  if (blockIdx.x == 1) {
    if (threadIdx.x == 0) {
      *data = 42;
      __threadfence();
      *(volatile int*)flag = 1;
    }
    return;
  }
  int seen;
  do {
    seen = (threadIdx.x % 32 == 0) ? *(volatile int*)flag : 0;
  } while (!__syncthreads_or(seen));
  cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
  if (threadIdx.x == 32) out[0] = *data;
}
