// Theme: classic atomic* intrinsics whose final values do not depend on order.
extern "C" __global__ void histogram(const unsigned* in, unsigned* hist, int n, unsigned nbins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&hist[in[i] % nbins], 1u);
}

extern "C" __global__ void atomic_mix(const int* in, int* ri, unsigned* ru, float* rf)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    atomicMax(&ri[0], v);
    atomicMin(&ri[1], v);
    atomicAdd(&ri[2], v);
    atomicSub(&ri[3], v);
    atomicOr(&ru[0], 1u << (v & 31));
    atomicAnd(&ru[1], ~(1u << (i & 31)) | 0x80000000u);
    atomicXor(&ru[2], (unsigned)v);
    atomicInc(&ru[3], 9u);        // wraps to 0 after 9
    atomicDec(&ru[4], 6u);        // 0 and >6 reload 6
    atomicMax(&ru[5], (unsigned)v);
    atomicAdd(&rf[0], (float)v);  // integer-valued: exact in any order
}
