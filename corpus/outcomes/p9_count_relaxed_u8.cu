// Broken twin of p9_count_acqrel_u8: relaxed counter operations.
#include <cuda/atomic>
extern "C" __global__ void p9_count_relaxed_u8(unsigned char* data, int* count, unsigned char* out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> c(*count);
  if (blockIdx.x < 2 && threadIdx.x == 37) {
    data[2 * blockIdx.x] = 10 + blockIdx.x;
    data[2 * blockIdx.x + 1] = 20 + blockIdx.x;
    c.fetch_add(1, cuda::memory_order_relaxed);
  } else if (blockIdx.x == 2 && threadIdx.x == 0) {
    while (c.load(cuda::memory_order_relaxed) != 2) {}
    for (int i = 0; i < 4; ++i) out[i] = data[i];
  }
}
