// bar_named with the producer arriving before it writes (broken twin): the
// arrival orders nothing that follows it.
extern "C" __global__ void bar_named_early(int* data, int* out)
{
    unsigned warp = threadIdx.x / 32;
    if (warp == 0) {
        asm volatile("bar.arrive 1, 64;" ::: "memory");
        if (threadIdx.x == 0) *data = 42;
    } else if (warp == 1) {
        asm volatile("bar.sync 1, 64;" ::: "memory");
        if (threadIdx.x == 32) *out = *data;
    }
}
