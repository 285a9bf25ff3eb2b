// Theme: shfl.sync idx/up/down/bfly: broadcast, rotation, inclusive warp
// scan, butterfly all-reduce, and sub-warp width 8 segments.
extern "C" __global__ void shfl_variants(const int* in, int* out)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    const unsigned full = 0xffffffffu;
    int v = in[gid];
    int bcast = __shfl_sync(full, v, 5);
    int rot = __shfl_sync(full, v, (lane + 3) & 31);
    int scan = v;
    for (int d = 1; d < 32; d <<= 1) {
        int up = __shfl_up_sync(full, scan, d);
        if (lane >= (unsigned)d) scan += up;
    }
    int all = v;
    for (int m = 16; m > 0; m >>= 1) all ^= __shfl_xor_sync(full, all, m) * 3;
    int seg = __shfl_down_sync(full, v, 2, 8);      // within groups of 8 lanes
    int segidx = __shfl_sync(full, v, 7, 8);        // lane 7 of each group of 8
    int* o = out + 6 * gid;
    o[0] = bcast; o[1] = rot; o[2] = scan; o[3] = all; o[4] = seg; o[5] = segidx;
}
