// Theme: warp-synchronous shared memory with __syncwarp (bar.warp.sync)
// between the writes and reads of a rotation.
extern "C" __global__ void syncwarp_rotate(const int* in, int* out)
{
    __shared__ int s[64];
    unsigned t = threadIdx.x, lane = t & 31, base = t & ~31u;
    int v = in[blockIdx.x * 64 + t];
    for (int r = 0; r < 3; ++r) {
        s[t] = v;
        __syncwarp();
        v = s[base + ((lane + 1) & 31)] + r;
        __syncwarp();
    }
    out[blockIdx.x * 64 + t] = v;
}
