// Message passing through a volatile flag with no fence at all (broken twin
// of mp_threadfence).
extern "C" __global__ void mp_nofence(int* data, volatile int* flag, int* out)
{
    bool producer = blockIdx.x == 0 && threadIdx.x == 0;
    bool consumer = blockIdx.x == gridDim.x - 1 && threadIdx.x == blockDim.x - 1;
    if (producer) {
        *data = 42;
        *flag = 1;
    } else if (consumer) {
        while (*flag == 0) { }
        *out = *data;
    }
}
