// Theme: vector memory accesses (ld/st .v2/.v4 of f32, s32, f64) and
// narrow types (u8/s8/u16/s16 loads with zero/sign extension).
extern "C" __global__ void vector_loads(const float4* a, const int2* b, const double2* c, float4* o4, int2* o2, double* od, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 v = a[i];
    int2 w = b[i];
    double2 d = c[i];
    o4[i] = make_float4(v.w, v.z + 1.0f, v.y, v.x * 2.0f);
    o2[i] = make_int2(w.y - w.x, w.x * w.y);
    od[i] = d.x - d.y;
}

extern "C" __global__ void narrow_types(const unsigned char* u8, const signed char* s8, const unsigned short* u16,
                                        const short* s16, int* out, short* out16, signed char* out8, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = (int)u8[i] + (int)s8[i] * 1000 + (int)u16[i] - (int)s16[i] * 3;
    out16[i] = (short)(s16[i] * 7 + s8[i]);
    out8[i] = (signed char)(u8[i] + s8[i]);
}
