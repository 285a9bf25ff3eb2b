// Producer/consumer warps on a named barrier with a thread count: warp 0
// writes and arrives (bar.arrive 1, 64), warp 1 waits (bar.sync 1, 64) and
// reads.
extern "C" __global__ void bar_named(int* data, int* out)
{
    unsigned warp = threadIdx.x / 32;
    if (warp == 0) {
        if (threadIdx.x == 0) *data = 42;
        asm volatile("bar.arrive 1, 64;" ::: "memory");
    } else if (warp == 1) {
        asm volatile("bar.sync 1, 64;" ::: "memory");
        if (threadIdx.x == 32) *out = *data;
    }
}
