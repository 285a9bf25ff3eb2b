// The "last block" pattern over three CTAs of four threads, written as a
// new user would and checked without --unroll: the last CTA's sum loop runs
// gridDim.x = 3 times; its reads make no choice (the ticket synchronizes),
// so the default bound (1) cuts no path (it deepened to 2 before). Each CTA sums its
// slice of `in` in shared memory, thread 0 publishes the sum, fences, and
// takes a ticket; the CTA with the last ticket fences and adds them up.
#define NT 4
extern "C" __global__ void lastblock_fence_3cta(const int* in, int* partial, unsigned* count, int* out) {
  __shared__ int s[NT];
  __shared__ bool amLast;
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * NT + t];
  __syncthreads();
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
