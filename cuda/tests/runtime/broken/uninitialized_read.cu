// Broken on purpose: thread 0 reads shared memory that thread 1 should have
// written but never does. Expected report: uninitialized_read.expected.json.
#include <cstdio>

__global__ void pass_on(int* out) {
  __shared__ int s[32];
  if (threadIdx.x != 1) s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) *out = s[1];
}

int main() {
  int* out;
  cudaMalloc(&out, sizeof(int));
  pass_on<<<1, 32>>>(out);
  std::printf("uninitialized_read: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
