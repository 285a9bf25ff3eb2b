// A hand-written grid barrier over 3 CTAs of 2 threads without fences:
// every thread writes its part, __syncthreads(), thread 0 adds 1 to a
// counter (atomicAdd, relaxed) and spins on a volatile read until every CTA
// has added, __syncthreads(); the last CTA's thread 0 reads all parts
// (broken twin of gs9_grid_fenced).
extern "C" __global__ void gs9_grid_relaxed(int* part, unsigned* count, int* out) {
  unsigned t = threadIdx.x, n = blockDim.x;
  part[blockIdx.x * n + t] = blockIdx.x * 10 + t + 1;
  __syncthreads();
  if (t == 0) {
    atomicAdd(count, 1u);
    while (*(volatile unsigned*)count < gridDim.x) {}
  }
  __syncthreads();
  if (blockIdx.x == gridDim.x - 1 && t == 0) {
    int s = 0;
    for (unsigned i = 0; i < gridDim.x * n; ++i) s = s * 100 + part[i];
    out[0] = s;
  }
}
