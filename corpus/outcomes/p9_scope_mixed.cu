// Producer releases a flag at gpu scope, consumer acquires it at block
// scope. Launched as one CTA of 64 threads (thread 63 -> thread 0) the
// scopes include both threads; as two CTAs of 32 (CTA 1 thread 31 -> CTA 0
// thread 0) the block-scope acquire does not include the producer.
#include <cuda/atomic>
extern "C" __global__ void p9_scope_mixed(short* data, int* flag, short* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int last = gridDim.x * blockDim.x - 1;
  if (t == last) {
    data[0] = -7;
    cuda::atomic_ref<int, cuda::thread_scope_device>(*flag).store(1, cuda::memory_order_release);
  } else if (t == 0) {
    while (cuda::atomic_ref<int, cuda::thread_scope_block>(*flag).load(cuda::memory_order_acquire) == 0) {}
    out[0] = data[0];
  }
}
