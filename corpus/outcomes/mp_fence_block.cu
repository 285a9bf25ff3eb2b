// Message passing through a volatile flag with __threadfence_block() on both
// sides: enough between two warps of one CTA, not between two CTAs.
extern "C" __global__ void mp_fence_block(int* data, volatile int* flag, int* out)
{
    bool producer = blockIdx.x == 0 && threadIdx.x == 0;
    bool consumer = blockIdx.x == gridDim.x - 1 && threadIdx.x == blockDim.x - 1;
    if (producer) {
        *data = 42;
        __threadfence_block();
        *flag = 1;
    } else if (consumer) {
        while (*flag == 0) { }
        __threadfence_block();
        *out = *data;
    }
}
