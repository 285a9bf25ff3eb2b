// Theme: element-wise vector addition for f32, wrapping u32 and f64, with
// read-only (__restrict__, ld.global.nc) inputs.
extern "C" __global__ void vecadd_f32(const float* __restrict__ a, const float* __restrict__ b,
                                      float* __restrict__ c, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

extern "C" __global__ void vecadd_u32(const unsigned* a, const unsigned* b, unsigned* c, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];  // wraps modulo 2^32
}

extern "C" __global__ void vecsub_f64(const double* a, const double* b, double* c, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] - b[i];
}
