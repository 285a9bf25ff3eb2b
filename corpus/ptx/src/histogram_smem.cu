// Theme: privatised histogram: atomics on shared memory (atom.shared.add),
// then merged into global memory with red.global.add.
#define BINS 32
extern "C" __global__ void histogram_smem(const unsigned char* in, unsigned* hist, int n)
{
    __shared__ unsigned local[BINS];
    for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[in[i] % BINS], 1u);
    __syncthreads();
    for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b]) atomicAdd(&hist[b], local[b]);
}
