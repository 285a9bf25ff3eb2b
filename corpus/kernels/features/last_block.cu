// The last-block pattern (as in CUDA's threadFenceReduction sample;
// nvcc -ptx -arch=sm_80 last_block.cu): each CTA sums its slice, writes the
// sum to partial[blockIdx.x], fences and takes a ticket; the CTA that draws
// the last ticket fences again and adds the partial sums. The CTAs
// communicate through `count` and `partial`, so a parallel run falls back to
// the deterministic schedule (tests/interp/test_parallel.cpp).
// last_block_ref.py writes the expected outputs.
extern "C" __global__ void last_block(const int* in, int* partial, unsigned* count, int* total) {
  __shared__ int s[64];
  __shared__ bool last;
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k /= 2) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) {
    partial[blockIdx.x] = s[0];
    __threadfence();
    unsigned ticket = atomicInc(count, gridDim.x);
    last = ticket == gridDim.x - 1;
    if (last) {
      __threadfence();
      int sum = 0;
      for (unsigned b = 0; b < gridDim.x; ++b) sum += ((volatile int*)partial)[b];
      *total = sum;
      atomicExch(count, 0u);  // a plain store would race with the other CTAs' atomicInc
    }
  }
}
