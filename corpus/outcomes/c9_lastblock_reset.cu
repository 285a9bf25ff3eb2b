// threadFenceReduction's last block as the CUDA sample writes it, with the
// ticket counter reset by a plain store: thread 0 of each of 3 CTAs stores
// its partial, fences and takes a ticket with atomicInc; the last block
// fences, adds the partials and sets the counter back to 0.
extern "C" __global__ void c9_lastblock_reset(int* partial, unsigned* count, int* out) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = 10 * ((int)blockIdx.x + 1);
    __threadfence();
    unsigned ticket = atomicInc(count, gridDim.x);
    last = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    __threadfence();
    int total = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) total += partial[b];
    out[0] = total;
    *count = 0;
  }
}
