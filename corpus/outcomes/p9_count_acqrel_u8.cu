// Two producers (CTAs 0 and 1, lane 5 of warp 1) each write bytes and then
// fetch_add(release) a gpu-scope counter; the consumer (CTA 2, thread 0)
// spins with load(acquire) until the counter is 2 and copies the bytes.
#include <cuda/atomic>
extern "C" __global__ void p9_count_acqrel_u8(unsigned char* data, int* count, unsigned char* out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> c(*count);
  if (blockIdx.x < 2 && threadIdx.x == 37) {
    data[2 * blockIdx.x] = 10 + blockIdx.x;
    data[2 * blockIdx.x + 1] = 20 + blockIdx.x;
    c.fetch_add(1, cuda::memory_order_release);
  } else if (blockIdx.x == 2 && threadIdx.x == 0) {
    while (c.load(cuda::memory_order_acquire) != 2) {}
    for (int i = 0; i < 4; ++i) out[i] = data[i];
  }
}
