// threadFenceReduction's last-block pattern on 3 CTAs of 8x4 threads: each
// CTA sums (linear tid + blockIdx.x) in shared memory, thread 0 stores the
// 64-bit partial, __threadfence, atomicInc ticket, __threadfence (acquire
// side); __syncthreads_or tells every thread whether its CTA is last; the
// last CTA's threads 0..2 read the partials and thread 0 stores the total.
extern "C" __global__ void p9_lastblock_2d(unsigned long long* partial, unsigned* count, unsigned long long* out) {
  __shared__ unsigned long long s[32];
  unsigned t = threadIdx.y * blockDim.x + threadIdx.x;
  s[t] = t + blockIdx.x;
  __syncthreads();
  for (unsigned k = 16; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  bool last = false;
  if (t == 0) {
    partial[blockIdx.x] = s[0];
    __threadfence();
    unsigned ticket = atomicInc(count, gridDim.x);
    __threadfence();
    last = ticket == gridDim.x - 1;
  }
  if (__syncthreads_or(last)) {
    if (t < gridDim.x) s[t] = partial[t];
    __syncthreads();
    if (t == 0) *out = s[0] + s[1] + s[2];
  }
}
