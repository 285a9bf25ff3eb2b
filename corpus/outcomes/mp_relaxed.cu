// Message passing through cuda::atomic_ref<int, thread_scope_device> with
// relaxed accesses only (broken twin of mp_release_acquire).
#include <cuda/atomic>

extern "C" __global__ void mp_relaxed(int* data, int* flag, int* out)
{
    bool producer = blockIdx.x == 0 && threadIdx.x == 0;
    bool consumer = blockIdx.x == gridDim.x - 1 && threadIdx.x == blockDim.x - 1;
    cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
    if (producer) {
        *data = 42;
        f.store(1, cuda::memory_order_relaxed);
    } else if (consumer) {
        while (f.load(cuda::memory_order_relaxed) == 0) { }
        *out = *data;
    }
}
