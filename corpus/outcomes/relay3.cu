// A handover relayed through three CTAs of one thread each: CTA 0 publishes
// data with a release store on flag[0]; CTA 1 acquires flag[0] and releases
// flag[1]; CTA 2 acquires flag[1] and reads the data (cumulativity).
#include <cuda/atomic>

extern "C" __global__ void relay3(int* data, int* flag, int* out)
{
    cuda::atomic_ref<int, cuda::thread_scope_device> f0(flag[0]), f1(flag[1]);
    if (blockIdx.x == 0) {
        *data = 42;
        f0.store(1, cuda::memory_order_release);
    } else if (blockIdx.x == 1) {
        while (f0.load(cuda::memory_order_acquire) == 0) { }
        f1.store(1, cuda::memory_order_release);
    } else {
        while (f1.load(cuda::memory_order_acquire) == 0) { }
        *out = *data;
    }
}
