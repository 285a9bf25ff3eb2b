// Message passing through cuda::atomic_ref<int, thread_scope_block>:
// st.release.cta / ld.acquire.cta. Correct inside one CTA, broken across
// two (the scope does not include the other CTA's thread).
#include <cuda/atomic>

extern "C" __global__ void mp_release_acquire_cta(int* data, int* flag, int* out)
{
    bool producer = blockIdx.x == 0 && threadIdx.x == 0;
    bool consumer = blockIdx.x == gridDim.x - 1 && threadIdx.x == blockDim.x - 1;
    cuda::atomic_ref<int, cuda::thread_scope_block> f(*flag);
    if (producer) {
        *data = 42;
        f.store(1, cuda::memory_order_release);
    } else if (consumer) {
        while (f.load(cuda::memory_order_acquire) == 0) { }
        *out = *data;
    }
}
