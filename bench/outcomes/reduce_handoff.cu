// Bench kernel for `ptxcheck outcomes` (bench/outcomes): two CTAs of 32
// threads each reduce their 32 inputs in shared memory (a tree with
// __syncthreads between levels); then CTA 0's thread 0 publishes its sum
// with __threadfence() and a volatile flag, and CTA 1's thread 0 waits for
// the flag, fences, and adds the sum of CTA 0 to its own.
extern "C" __global__ void reduce_handoff(const int* in, int* partial, volatile int* flag, int* out)
{
    __shared__ int s[32];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 32 + t];
    __syncthreads();
    for (unsigned k = 16; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t != 0) return;
    if (blockIdx.x == 0) {
        *partial = s[0];
        __threadfence();
        *flag = 1;
    } else {
        while (*flag == 0) { }
        __threadfence();
        *out = s[0] + *partial;
    }
}
