// Broken on purpose: neighbours exchange values through shared memory
// without a barrier between the write and the read. Expected report:
// data_race.expected.json.
#include <cstdio>

__global__ void rotate(int* out) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x * 10;
  // missing __syncthreads()
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}

int main() {
  int* out;
  cudaMalloc(&out, 64 * sizeof(int));
  rotate<<<1, 64>>>(out);
  std::printf("data_race: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
