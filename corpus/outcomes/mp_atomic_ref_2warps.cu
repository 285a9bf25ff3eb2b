// Message passing between two warps of one CTA of 64 threads with
// cuda::atomic_ref at block scope: thread 0 (warp 0) writes data and
// publishes a flag with a release store; thread 32 (warp 1) spins on the
// flag with acquire loads and copies data to out.
#include <cuda/atomic>

extern "C" __global__ void mp_atomic_ref_2warps(int* data, int* flag, int* out)
{
    cuda::atomic_ref<int, cuda::thread_scope_block> f(*flag);
    if (threadIdx.x == 0) {
        *data = 7;
        f.store(1, cuda::memory_order_release);
    } else if (threadIdx.x == 32) {
        while (f.load(cuda::memory_order_acquire) == 0) { }
        *out = *data;
    }
}
