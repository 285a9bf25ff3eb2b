// Message passing through a volatile flag, __threadfence() only on the
// producer's side (broken twin of mp_threadfence: the consumer's fence is
// missing).
extern "C" __global__ void mp_producer_fence(int* data, volatile int* flag, int* out)
{
    bool producer = blockIdx.x == 0 && threadIdx.x == 0;
    bool consumer = blockIdx.x == gridDim.x - 1 && threadIdx.x == blockDim.x - 1;
    if (producer) {
        *data = 42;
        __threadfence();
        *flag = 1;
    } else if (consumer) {
        while (*flag == 0) { }
        *out = *data;
    }
}
