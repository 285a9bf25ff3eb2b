// Theme: double precision: add/mul/fma (fma.rn.f64), correctly rounded
// div.rn.f64 / sqrt.rn.f64 / rcp.rn.f64, and directed-rounding intrinsics.
extern "C" __global__ void fp64_math(const double* a, const double* b, double* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = a[i], y = b[i];
    double* o = out + 8 * i;
    o[0] = x + y;
    o[1] = x * y;
    o[2] = fma(x, y, -1.0);
    o[3] = x / y;
    o[4] = sqrt(fabs(y));
    o[5] = __drcp_rn(y);
    o[6] = __dadd_rz(x, y);
    o[7] = __dmul_ru(x, y) - __dmul_rd(x, y);
}
