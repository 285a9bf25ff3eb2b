// The last-block reduction over four CTAs of one thread: each CTA publishes
// its partial sum, __threadfence(), takes a ticket with atomicInc; the CTA
// with the last ticket fences again and adds up all four partial sums.
extern "C" __global__ void lastblock_4cta(unsigned* count, int* partial, int* out)
{
    partial[blockIdx.x] = (int)(blockIdx.x + 1) * 10;
    __threadfence();
    unsigned ticket = atomicInc(count, gridDim.x);
    if (ticket == gridDim.x - 1) {
        __threadfence();
        int sum = 0;
        for (unsigned b = 0; b < gridDim.x; ++b) sum += partial[b];
        *out = sum;
    }
}
