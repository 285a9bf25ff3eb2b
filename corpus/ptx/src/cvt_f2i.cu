// Theme: float->integer conversions with every rounding mode; out-of-range
// values saturate and NaN becomes 0 (cvt.{rni,rzi,rmi,rpi}.{s32,u32,s64}.f32/.f64).
extern "C" __global__ void cvt_f2i(const float* in, const double* ind, int* si, unsigned* ui,
                                   long long* sl, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i];
    double d = ind[i];
    si[5 * i + 0] = __float2int_rn(x);
    si[5 * i + 1] = __float2int_rz(x);
    si[5 * i + 2] = __float2int_rd(x);
    si[5 * i + 3] = __float2int_ru(x);
    si[5 * i + 4] = __double2int_rn(d);
    ui[2 * i + 0] = __float2uint_rn(x);
    ui[2 * i + 1] = __double2uint_rz(d);
    sl[2 * i + 0] = __float2ll_rn(x);
    sl[2 * i + 1] = __double2ll_rd(d);
}

// integer->float conversions with rounding (cvt.{rn,rz,rm,rp}.f32.{s32,u32,s64}).
extern "C" __global__ void cvt_i2f(const int* in, const long long* inl, float* out, double* outd, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = in[i];
    long long y = inl[i];
    out[6 * i + 0] = __int2float_rn(x);
    out[6 * i + 1] = __int2float_rz(x);
    out[6 * i + 2] = __uint2float_rd((unsigned)x);
    out[6 * i + 3] = __uint2float_ru((unsigned)x);
    out[6 * i + 4] = __ll2float_rn(y);
    out[6 * i + 5] = __double2float_rz((double)y);
    outd[i] = __ll2double_rn(y);
}
