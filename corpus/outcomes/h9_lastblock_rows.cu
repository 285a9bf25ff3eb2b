// One last block per grid row: a (2,2) grid of (4,2) blocks. Each CTA sums
// its thread ids + 10*blockIdx.x + 100*blockIdx.y in shared memory, stores
// the partial, fences and takes a ticket on its row's counter; the row's last
// CTA fences and sums the row's partials.
extern "C" __global__ void h9_lastblock_rows(int* partial, unsigned* count, int* rowsum) {
  __shared__ int s;
  __shared__ bool last;
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t == 0) s = 0;
  __syncthreads();
  atomicAdd(&s, t + 10 * (int)blockIdx.x + 100 * (int)blockIdx.y);
  __syncthreads();
  if (t == 0) {
    partial[blockIdx.y * gridDim.x + blockIdx.x] = s;
    __threadfence();
    unsigned k = atomicInc(&count[blockIdx.y], gridDim.x - 1);
    last = k == gridDim.x - 1;
  }
  __syncthreads();
  if (last && t == 0) {
    __threadfence();
    int sum = 0;
    for (int i = 0; i < (int)gridDim.x; ++i) sum += ((volatile int*)partial)[blockIdx.y * gridDim.x + i];
    rowsum[blockIdx.y] = sum;
  }
}
