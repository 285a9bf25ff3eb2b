// lastblock_fence as the CUDA threadFenceReduction sample writes it: the
// fence before atomicInc is there, the one after it (in the last CTA, before
// it reads the other CTAs' partial sums) is missing.
#define NT 32
extern "C" __global__ void lastblock_nofence(int* in, int* partial, unsigned* count, int* out)
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
        int sum = 0;
        for (unsigned b = 0; b < gridDim.x; ++b) sum += partial[b];
        *out = sum;
    }
}
