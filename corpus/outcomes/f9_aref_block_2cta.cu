// Two CTAs of 64 threads. CTA 0's thread 0 writes x = 42 and stores flag = 1
// with cuda::atomic_ref<int, thread_scope_block> release; thread 32 of CTA 0
// and thread 0 of CTA 1 spin on flag with block-scope acquire loads, then
// copy x to out[blockIdx.x]. Block scope covers CTA 0's consumer only.
#include <cuda/atomic>
extern "C" __global__ void f9_aref_block_2cta(int* x, int* flag, int* out) {
  cuda::atomic_ref<int, cuda::thread_scope_block> f(*flag);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    *x = 42;
    f.store(1, cuda::memory_order_release);
  }
  if ((blockIdx.x == 0 && threadIdx.x == 32) || (blockIdx.x == 1 && threadIdx.x == 0)) {
    while (f.load(cuda::memory_order_acquire) == 0) {}
    out[blockIdx.x] = *x;
  }
}
