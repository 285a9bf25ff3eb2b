// corpus-flags: -Xcicc -O0
// A last block chosen with __syncthreads_count: thread 0 stores the CTA's
// partial (itself a __syncthreads_count), runs __threadfence() and takes
// an atomicAdd ticket; in the last CTA every thread tid < gridDim.x runs
// __threadfence(), reads partial[tid] and adds it into a shared total.
// Built with -Xcicc -O0: each atomicAdd is a call whose result passes up
// through the .param return values of atomicAdd's wrappers.
extern "C" __global__ void g9_lastblock_count_O0(int* partial, int* count, int* out) {
  __shared__ int total;
  unsigned tid = threadIdx.x;
  int p = __syncthreads_count(tid < blockIdx.x + 2) * 10;
  int ticket = 0;
  if (tid == 0) {
    total = 0;
    partial[blockIdx.x] = p;
    __threadfence();
    ticket = atomicAdd(count, 1);
  }
  if (__syncthreads_count(tid == 0 && ticket == (int)gridDim.x - 1)) {
    if (tid < gridDim.x) {
      __threadfence();
      atomicAdd(&total, partial[tid]);
    }
    __syncthreads();
    if (tid == 0) *out = total;
  }
}
