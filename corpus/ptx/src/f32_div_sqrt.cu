// Theme: IEEE-correct f32 division and square root (div.rn.f32,
// sqrt.rn.f32, rcp.rn.f32) and their directed-rounding forms.
extern "C" __global__ void f32_div_sqrt(const float* a, const float* b, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i], y = b[i];
    float* o = out + 6 * i;
    o[0] = x / y;
    o[1] = sqrtf(y);
    o[2] = __frcp_rn(x);
    o[3] = __fsqrt_rd(y);
    o[4] = __fdiv_ru(x, y);
    o[5] = __frcp_rz(y);
}
