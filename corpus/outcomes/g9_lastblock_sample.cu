// threadFenceReduction's last block as the CUDA sample writes it: each CTA
// of 8x2 threads sums into shared memory with atomicAdd, thread 0 stores
// the partial, runs __threadfence() and takes a ticket with atomicInc
// (wrapping at gridDim.x - 1, so the counter ends at 0); the last CTA reads
// the partials with no fence after its atomicInc.
extern "C" __global__ void g9_lastblock_sample(int* partial, unsigned* count, int* out) {
  __shared__ int s;
  __shared__ bool amLast;
  int tid = threadIdx.y * blockDim.x + threadIdx.x;
  if (tid == 0) s = 0;
  __syncthreads();
  atomicAdd(&s, tid + 1 + (int)blockIdx.x * 16);
  __syncthreads();
  if (tid == 0) {
    partial[blockIdx.x] = s;
    __threadfence();
    unsigned t = atomicInc(count, gridDim.x - 1);
    amLast = (t == gridDim.x - 1);
  }
  __syncthreads();
  if (amLast && tid == 0) {
    int sum = 0;
    for (unsigned i = 0; i < gridDim.x; ++i) sum += partial[i];
    *out = sum;
  }
}
