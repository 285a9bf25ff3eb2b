// Theme: device printf (a call to vprintf with a .local argument buffer and
// a .global .b8 format string).
#include <cstdio>
extern "C" __global__ void hello(const float* x, int* out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    printf("thread %d block %d x=%f\n", threadIdx.x, blockIdx.x, x[i]);
    out[i] = i * 2;
}
