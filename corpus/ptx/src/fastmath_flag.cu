// corpus-flags: -use_fast_math
// Theme: ordinary math compiled with -use_fast_math: sinf/expf/division/sqrtf
// become .approx.ftz instructions and f32 arithmetic gains .ftz.
extern "C" __global__ void fast_flag(const float* x, const float* y, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = x[i], b = y[i];
    float* o = out + 5 * i;
    o[0] = sinf(a);
    o[1] = expf(a);
    o[2] = a / b;
    o[3] = sqrtf(b);
    o[4] = log2f(b);
}
