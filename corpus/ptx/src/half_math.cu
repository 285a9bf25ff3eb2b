// Theme: packed half arithmetic (add/mul/fma .f16x2) and half conversions.
#include <cuda_fp16.h>

extern "C" __global__ void half2_ops(const __half2* a, const __half2* b, const __half2* c,
                                     __half2* add, __half2* mul, __half2* fma, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    add[i] = __hadd2(a[i], b[i]);
    mul[i] = __hmul2(a[i], b[i]);
    fma[i] = __hfma2(a[i], b[i], c[i]);
}

extern "C" __global__ void half_convert(const float* in, __half* rn, __half* rz, float* back, int* toint, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i];
    __half h = __float2half_rn(x);
    rn[i] = h;
    rz[i] = __float2half_rz(x);
    back[i] = __half2float(h);
    toint[i] = __half2int_rn(h);
}

// Scalar half with sub/neg/abs/compare-select.
extern "C" __global__ void half_scalar(const __half* a, const __half* b, __half* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half x = a[i], y = b[i];
    out[4 * i + 0] = __hsub(x, y);
    out[4 * i + 1] = __hneg(x);
    out[4 * i + 2] = __habs(y);
    out[4 * i + 3] = __hlt(x, y) ? x : y;
}
