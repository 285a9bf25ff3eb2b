// Theme: min/max on signed, unsigned, 64-bit, f32 (NaN-suppressing) and f64.
extern "C" __global__ void minmax(const int* a, const int* b, const float* x, const float* y,
                                  int* oi, unsigned* ou, long long* ol, float* of, double* od, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    oi[2 * i] = min(a[i], b[i]);
    oi[2 * i + 1] = max(a[i], b[i]);
    ou[2 * i] = umin((unsigned)a[i], (unsigned)b[i]);
    ou[2 * i + 1] = umax((unsigned)a[i], (unsigned)b[i]);
    ol[i] = llmax((long long)a[i] * 3, (long long)b[i] * -5);
    of[2 * i] = fminf(x[i], y[i]);
    of[2 * i + 1] = fmaxf(x[i], y[i]);
    od[i] = fmin((double)x[i], (double)y[i] * 0.5);
}
