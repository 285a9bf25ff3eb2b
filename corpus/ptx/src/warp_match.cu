// Theme: match.sync.any / match.sync.all (lanes holding equal values).
extern "C" __global__ void warp_match(const int* in, unsigned* out)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[gid];
    unsigned any = __match_any_sync(0xffffffffu, v);
    int pred = 0;
    unsigned all = __match_all_sync(0xffffffffu, v / 64, &pred);
    unsigned long long w = (unsigned long long)v << 20;
    unsigned any64 = __match_any_sync(0xffffffffu, w % 3ull);
    out[3 * gid + 0] = any;
    out[3 * gid + 1] = all | (unsigned)pred;
    out[3 * gid + 2] = any64;
}
