// Theme: bfloat16 conversions and packed arithmetic (sm_80: fma.rn.bf16x2,
// cvt.rn.bf16.f32).
#include <cuda_bf16.h>

extern "C" __global__ void bf16_ops(const float* x, const float* y, __nv_bfloat16* rn, __nv_bfloat16* rz,
                                    __nv_bfloat162* sum2, __nv_bfloat16* fma, float* back, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_bfloat16 a = __float2bfloat16(x[i]);
    __nv_bfloat16 b = __float2bfloat16(y[i]);
    rn[i] = a;
    rz[i] = __float2bfloat16_rz(x[i]);
    __nv_bfloat162 p = __halves2bfloat162(a, b);
    __nv_bfloat162 q = __halves2bfloat162(b, b);
    sum2[i] = __hadd2(p, q);
    fma[i] = __hfma(a, b, b);
    back[i] = __bfloat162float(a) * 2.0f;
}
