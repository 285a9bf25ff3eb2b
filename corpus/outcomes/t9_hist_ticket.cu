// Issue 9 (probe9j's j19): a histogram with a last block. 64 threads per CTA
// add into 4 shared bins, threads 0..3 add the bins into a u64 global
// histogram (atom.add.u64), __syncthreads(), thread 0 runs __threadfence() and
// takes a u64 ticket (atomicAdd on unsigned long long); the CTA that draws the
// last ticket fences again and copies the histogram with plain loads.
extern "C" __global__ void t9_hist_ticket(unsigned long long* hist, unsigned long long* ticket,
                                          unsigned long long* out) {
  __shared__ unsigned bins[4];
  unsigned t = threadIdx.x;
  if (t < 4) bins[t] = 0;
  __syncthreads();
  atomicAdd(&bins[(t + blockIdx.x) % 4], 1u + blockIdx.x);
  __syncthreads();
  if (t < 4) atomicAdd(&hist[t], (unsigned long long)bins[t]);
  __syncthreads();
  if (t == 0) {
    __threadfence();
    unsigned long long k = atomicAdd(ticket, 1ull);
    if (k == gridDim.x - 1) {
      __threadfence();
      for (int i = 0; i < 4; ++i) out[i] = hist[i];
    }
  }
}
