// Theme: warp votes: vote.sync.ballot/.all/.any/.uni and activemask.
extern "C" __global__ void warp_vote(const int* in, unsigned* out)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[gid];
    const unsigned full = 0xffffffffu;
    unsigned ballot = __ballot_sync(full, v > 0);
    int all = __all_sync(full, v != 0);
    int any = __any_sync(full, v > 100);
    if ((threadIdx.x & 31) < 16)                       // only lanes 0..15 take part
        ballot ^= __ballot_sync(0x0000ffffu, (v & 1) != 0);
    out[4 * gid + 0] = ballot;
    out[4 * gid + 1] = (unsigned)all;
    out[4 * gid + 2] = (unsigned)any;
    out[4 * gid + 3] = __popc(__ballot_sync(full, v < 0)) + (unsigned)__uni_sync(full, v >> 8);
}

// __activemask inside a divergent branch: the mask of lanes executing it.
extern "C" __global__ void warp_activemask(const int* in, unsigned* out)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned m = 0;
    if (in[gid] & 1) m = __activemask();
    out[gid] = m;
}
