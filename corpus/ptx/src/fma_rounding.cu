// Theme: fused vs separately rounded multiply-add and the explicit
// rounding-mode intrinsics (fma/add/mul/div with .rn .rz .rm .rp).
extern "C" __global__ void fma_rounding(const float* a, const float* b, const float* c, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i], y = b[i], z = c[i];
    float* o = out + 8 * i;
    o[0] = fmaf(x, y, z);                      // fma.rn.f32
    o[1] = __fadd_rn(__fmul_rn(x, y), z);      // mul.rn then add.rn: never contracted
    o[2] = __fmaf_rz(x, y, z);
    o[3] = __fmaf_rd(x, y, z);
    o[4] = __fmaf_ru(x, y, z);
    o[5] = __fadd_ru(x, z);
    o[6] = __fmul_rd(x, y);
    o[7] = __fdiv_rz(x, y);
}
