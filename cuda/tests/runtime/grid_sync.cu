// Grid-wide synchronization with cooperative groups: a cooperative launch
// (cudaLaunchCooperativeKernel) sized by the occupancy calculator reduces an
// array in two phases separated by cg::this_grid().sync(), then every block
// reads the total after a second grid barrier. A grid larger than the device
// can hold at once must be refused with cudaErrorCooperativeLaunchTooLarge.
#include <cooperative_groups.h>
#include "common.cuh"
namespace cg = cooperative_groups;
static const char* kName = "grid_sync";

__global__ void grid_sum(const int* in, int n, int* partial, int* total, int* seen) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  extern __shared__ int s[];
  int v = 0;
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) v += in[i];
  s[block.thread_rank()] = v;
  block.sync();
  for (unsigned k = block.size() / 2; k > 0; k /= 2) {
    if (block.thread_rank() < k) s[block.thread_rank()] += s[block.thread_rank() + k];
    block.sync();
  }
  if (block.thread_rank() == 0) partial[blockIdx.x] = s[0];
  grid.sync();  // every block's partial sum is written
  if (grid.thread_rank() == 0) {
    int t = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
    *total = t;
  }
  grid.sync();  // the total is written
  if (block.thread_rank() == 0) seen[blockIdx.x] = *total;
}

int main() {
  int coop = 0, sms = 0, per_sm = 0;
  CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  if (!coop) return finish(kName, false, "cudaDevAttrCooperativeLaunch is 0");
  const int threads = 128;
  const size_t shmem = threads * sizeof(int);
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_sum, threads, shmem));
  const int blocks = per_sm * sms;
  if (blocks < 2) return finish(kName, false, "fewer than 2 co-resident blocks");
  const int n = 5000;
  int* h = new int[n];
  long long expect = 0;
  for (int i = 0; i < n; ++i) h[i] = (i * 7919) % 1000 - 300, expect += h[i];
  int *in, *partial, *total, *seen;
  CHECK(cudaMalloc(&in, n * sizeof(int)));
  CHECK(cudaMalloc(&partial, (blocks + 1) * sizeof(int)));
  CHECK(cudaMalloc(&total, sizeof(int)));
  CHECK(cudaMalloc(&seen, (blocks + 1) * sizeof(int)));
  CHECK(cudaMemcpy(in, h, n * sizeof(int), cudaMemcpyHostToDevice));
  int nn = n;
  void* args[] = {&in, &nn, &partial, &total, &seen};
  CHECK(cudaLaunchCooperativeKernel((void*)grid_sum, blocks, threads, args, shmem, 0));
  CHECK(cudaDeviceSynchronize());
  int got = 0;
  int* rseen = new int[blocks];
  CHECK(cudaMemcpy(&got, total, sizeof got, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rseen, seen, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = got == expect;
  for (int b = 0; b < blocks; ++b) ok &= rseen[b] == expect;
  // One block more than fits at once.
  cudaError_t e = cudaLaunchCooperativeKernel((void*)grid_sum, blocks + 1, threads, args, shmem, 0);
  ok &= e == cudaErrorCooperativeLaunchTooLarge;
  (void)cudaGetLastError();
  std::printf("%s: %d blocks of %d threads, sum %d (expected %lld)\n", kName, blocks, threads, got, expect);
  delete[] h;
  delete[] rseen;
  return finish(kName, ok);
}
