// Store buffering with acquire-release fences (fence.acq_rel.gpu) instead of
// fence.sc: the twin of sb_fence_sc that lets both threads miss each other.
#include <cuda/atomic>

extern "C" __global__ void sb_fence_acq_rel(volatile int* x, volatile int* y, int* out)
{
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        *x = 1;
        cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_device);
        out[0] = *y;
    } else {
        *y = 1;
        cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_device);
        out[1] = *x;
    }
}
