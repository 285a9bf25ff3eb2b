// Theme: fast-math intrinsics lowering to .approx instructions
// (sin/cos/ex2/lg2/rsqrt/rcp .approx and div.approx/div.full).
extern "C" __global__ void fast_intrinsics(const float* x, const float* y, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = x[i], b = y[i];
    float* o = out + 6 * i;
    o[0] = __sinf(a);
    o[1] = __cosf(a);
    o[2] = __expf(a);
    o[3] = __logf(b);
    o[4] = __fdividef(a, b);
    o[5] = rsqrtf(b);
}
