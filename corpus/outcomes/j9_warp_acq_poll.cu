// j9_warp_sc_poll with cuda::atomic_thread_fence(acquire, device)
// (fence.acq_rel.gpu) in the consumer lanes: lane 0's poll and fence form an
// acquire pattern, lane 17's fence acquires nothing.
#include <cuda/atomic>
extern "C" __global__ void j9_warp_acq_poll(int* data, int* flag, int* out) {
  unsigned lane = threadIdx.x % 32, w = threadIdx.x / 32;
  if (blockIdx.x == 1 && w == 0) {
    data[lane] = 100 + lane;
    __syncwarp();
    if (lane == 0) {
      __threadfence();
      *(volatile int*)flag = 1;
    }
  } else if (blockIdx.x == 0 && w == 1) {
    if (lane == 0)
      while (*(volatile int*)flag == 0) {}

    __syncwarp();
    cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
    if (lane == 0) out[0] = data[0];
    if (lane == 17) out[1] = data[17];
  }
}
