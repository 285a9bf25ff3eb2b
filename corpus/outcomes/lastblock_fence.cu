// The threadFenceReduction "last block" pattern, with the fence the PTX
// memory model needs on both sides of the ticket. Each CTA of 32 threads
// sums its slice of `in` with a shared-memory tree, thread 0 publishes the
// CTA's sum in partial[], fences, and takes a ticket with atomicInc; the CTA
// that draws the last ticket fences again and adds up all partial sums.
#define NT 32
extern "C" __global__ void lastblock_fence(int* in, int* partial, unsigned* count, int* out)
{
    __shared__ int s[NT];
    __shared__ bool amLast;
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * NT + t];
    __syncthreads();
#pragma unroll
    for (unsigned k = NT / 2; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();
        unsigned ticket = atomicInc(count, gridDim.x);
        amLast = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (amLast && t == 0) {
        __threadfence();
        int sum = 0;
        for (unsigned b = 0; b < gridDim.x; ++b) sum += partial[b];
        *out = sum;
    }
}
