// relay3 with a broken middle: CTA 1 passes the flag on with relaxed accesses
// and __threadfence_block() between them, a CTA-scope fence that cannot
// synchronize with the other CTAs.
#include <cuda/atomic>

extern "C" __global__ void relay3_fence_block(int* data, int* flag, int* out)
{
    cuda::atomic_ref<int, cuda::thread_scope_device> f0(flag[0]), f1(flag[1]);
    if (blockIdx.x == 0) {
        *data = 42;
        f0.store(1, cuda::memory_order_release);
    } else if (blockIdx.x == 1) {
        while (f0.load(cuda::memory_order_relaxed) == 0) { }
        __threadfence_block();
        f1.store(1, cuda::memory_order_relaxed);
    } else {
        while (f1.load(cuda::memory_order_acquire) == 0) { }
        *out = *data;
    }
}
