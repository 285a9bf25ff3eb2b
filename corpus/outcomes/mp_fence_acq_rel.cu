// Message passing through a relaxed cuda::atomic_ref flag with
// cuda::atomic_thread_fence release / acquire at device scope
// (fence.acq_rel.gpu on both sides).
#include <cuda/atomic>

extern "C" __global__ void mp_fence_acq_rel(int* data, int* flag, int* out)
{
    bool producer = blockIdx.x == 0 && threadIdx.x == 0;
    bool consumer = blockIdx.x == gridDim.x - 1 && threadIdx.x == blockDim.x - 1;
    cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
    if (producer) {
        *data = 42;
        cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
        f.store(1, cuda::memory_order_relaxed);
    } else if (consumer) {
        while (f.load(cuda::memory_order_relaxed) == 0) { }
        cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
        *out = *data;
    }
}
