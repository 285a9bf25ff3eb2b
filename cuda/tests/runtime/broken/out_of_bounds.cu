// Broken on purpose: the last block writes past the end of the buffer
// (no bounds check). Expected report: out_of_bounds.expected.json.
#include <cstdio>

__global__ void scale(float* a, float f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] *= f;
}

int main() {
  float* a;
  cudaMalloc(&a, 100 * sizeof(float));
  cudaMemset(a, 0, 100 * sizeof(float));
  scale<<<4, 32>>>(a, 2.0f);  // 128 threads, 100 elements
  std::printf("out_of_bounds: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
