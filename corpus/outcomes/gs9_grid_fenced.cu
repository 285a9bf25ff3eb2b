// A hand-written grid barrier over 3 CTAs of 2 threads: every thread writes
// its part, __syncthreads(), thread 0 runs __threadfence(), adds 1 to a
// counter (atomicAdd, relaxed), spins on a volatile read until every CTA
// has added and runs __threadfence() again, __syncthreads(); the last
// CTA's thread 0 reads all parts (fixed twin of gs9_grid_relaxed).
extern "C" __global__ void gs9_grid_fenced(int* part, unsigned* count, int* out) {
  unsigned t = threadIdx.x, n = blockDim.x;
  part[blockIdx.x * n + t] = blockIdx.x * 10 + t + 1;
  __syncthreads();
  if (t == 0) {
    __threadfence();
    atomicAdd(count, 1u);
    while (*(volatile unsigned*)count < gridDim.x) {}
    __threadfence();
  }
  __syncthreads();
  if (blockIdx.x == gridDim.x - 1 && t == 0) {
    int s = 0;
    for (unsigned i = 0; i < gridDim.x * n; ++i) s = s * 100 + part[i];
    out[0] = s;
  }
}
