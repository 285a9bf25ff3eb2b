// Theme: dynamic shared memory (extern __shared__), sized at launch.
extern "C" __global__ void reverse_block(int* data)
{
    extern __shared__ int s[];
    unsigned t = threadIdx.x, n = blockDim.x;
    unsigned base = blockIdx.x * n;
    s[t] = data[base + t];
    __syncthreads();
    data[base + t] = s[n - 1 - t];
}

// Two arrays carved out of one dynamic allocation: n floats, then n ints.
extern "C" __global__ void dyn_two_arrays(const float* in, float* out_f, int* out_i)
{
    extern __shared__ float sf[];
    unsigned t = threadIdx.x, n = blockDim.x;
    int* si = reinterpret_cast<int*>(sf + n);
    sf[t] = in[blockIdx.x * n + t];
    si[t] = (int)(t * t);
    __syncthreads();
    out_f[blockIdx.x * n + t] = sf[(t + 1) % n] - sf[t];
    out_i[blockIdx.x * n + t] = si[(t + 3) % n];
}
