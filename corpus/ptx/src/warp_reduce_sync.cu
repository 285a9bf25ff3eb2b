// Theme: sm_80 warp-wide reductions (redux.sync) via __reduce_*_sync.
extern "C" __global__ void warp_redux(const unsigned* in, unsigned* out)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = in[gid];
    const unsigned full = 0xffffffffu;
    unsigned add = __reduce_add_sync(full, v);
    unsigned umin = __reduce_min_sync(full, v);
    unsigned umax = __reduce_max_sync(full, v);
    int smin = __reduce_min_sync(full, (int)v);
    int smax = __reduce_max_sync(full, (int)v);
    unsigned a = __reduce_and_sync(full, v);
    unsigned o = __reduce_or_sync(full, v);
    unsigned x = __reduce_xor_sync(full, v);
    if ((threadIdx.x & 31) == 0) {
        unsigned* r = out + 8 * (gid / 32);
        r[0] = add; r[1] = umin; r[2] = umax; r[3] = (unsigned)smin;
        r[4] = (unsigned)smax; r[5] = a; r[6] = o; r[7] = x;
    }
}
