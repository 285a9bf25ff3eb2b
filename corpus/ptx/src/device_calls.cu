// Theme: real device-function calls (__noinline__): .func with .param
// arguments and return values, call.uni, a struct returned by value.
struct DivMod { int q, r; };

__device__ __noinline__ int gcd(int a, int b)
{
    while (b != 0) { int t = a % b; a = b; b = t; }
    return a;
}

__device__ __noinline__ DivMod divmod(int a, int b)
{
    DivMod d; d.q = a / b; d.r = a % b;
    return d;
}

__device__ __noinline__ float horner(float x, const float* c, int deg)
{
    float r = c[deg];
    for (int k = deg - 1; k >= 0; --k) r = r * x + c[k];
    return r;
}

extern "C" __global__ void device_calls(const int* a, const int* b, const float* coef, int* out_i, float* out_f, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    DivMod d = divmod(a[i], b[i]);
    out_i[3 * i + 0] = gcd(a[i], b[i]);
    out_i[3 * i + 1] = d.q;
    out_i[3 * i + 2] = d.r;
    out_f[i] = horner((float)i * 0.125f, coef, 4);
}
