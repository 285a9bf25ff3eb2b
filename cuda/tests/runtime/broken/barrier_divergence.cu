// Broken on purpose: __syncthreads() in a branch half the block takes (so the read of
// s[63 - i] also races with warp 1's writes). Expected: barrier_divergence.expected.json.
#include <cstdio>

__global__ void half_sync(int* out) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  if (threadIdx.x < 32) {
    __syncthreads();
    out[threadIdx.x] = s[63 - threadIdx.x];
  }
}

int main() {
  int* out;
  cudaMalloc(&out, 64 * sizeof(int));
  half_sync<<<1, 64>>>(out);
  std::printf("barrier_divergence: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
