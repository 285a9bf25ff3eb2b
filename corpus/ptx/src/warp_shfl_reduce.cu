// Theme: warp reductions with __shfl_down_sync (shfl.sync.down.b32).
extern "C" __global__ void warp_sum_i32(const int* in, int* out)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[gid];
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0) out[gid / 32] = v;
}

extern "C" __global__ void warp_sum_f32(const float* in, float* out)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[gid];
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0) out[gid / 32] = v;
}
