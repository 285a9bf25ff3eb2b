// Message passing through a volatile flag, __threadfence() on both sides.
// Roles: the first thread of the grid produces, the last one consumes; every
// other thread returns at once.
extern "C" __global__ void mp_threadfence(int* data, volatile int* flag, int* out)
{
    bool producer = blockIdx.x == 0 && threadIdx.x == 0;
    bool consumer = blockIdx.x == gridDim.x - 1 && threadIdx.x == blockDim.x - 1;
    if (producer) {
        *data = 42;
        __threadfence();
        *flag = 1;
    } else if (consumer) {
        while (*flag == 0) { }
        __threadfence();
        *out = *data;
    }
}
