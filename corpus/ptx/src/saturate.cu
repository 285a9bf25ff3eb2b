// Theme: saturation: cvt.sat / add.sat / fma.sat forms, clamping to [0,1]
// for floats and to the integer range for .sat integer adds.
#include <cuda_fp16.h>
extern "C" __global__ void saturate(const float* x, const float* y, const int* a, const int* b,
                                    float* outf, int* outi, __half* outh, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float u = x[i], v = y[i];
    outf[3 * i + 0] = __saturatef(u);
    outf[3 * i + 1] = __saturatef(u * v);
    outf[3 * i + 2] = __fmaf_rn(u, v, 0.25f) > 1.0f ? 1.0f : fmaxf(__fmaf_rn(u, v, 0.25f), 0.0f);
    int s;
    asm("add.sat.s32 %0, %1, %2;" : "=r"(s) : "r"(a[i]), "r"(b[i]));
    outi[2 * i + 0] = s;
    asm("sub.sat.s32 %0, %1, %2;" : "=r"(s) : "r"(a[i]), "r"(b[i]));
    outi[2 * i + 1] = s;
    outh[i] = __hadd_sat(__float2half(u), __float2half(v));
}
