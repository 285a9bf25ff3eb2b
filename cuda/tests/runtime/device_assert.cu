// A failed device assert: the launch halts, the GPU's assertion line goes to
// stderr ("FILE:LINE: FUNCTION: block: [..], thread: [..] Assertion `E`
// failed."), and synchronising returns cudaErrorAssert, which stays sticky.
#include <cassert>
#include "common.cuh"
static const char* kName = "device_assert";

__global__ void check_below(const int* v, int limit) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(v[i] < limit);
}

int main() {
  int host[64];
  for (int i = 0; i < 64; ++i) host[i] = i == 37 ? 1000 : i;  // one element breaks the bound
  int* v = nullptr;
  CHECK(cudaMalloc(&v, sizeof host));
  CHECK(cudaMemcpy(v, host, sizeof host, cudaMemcpyHostToDevice));
  check_below<<<2, 32>>>(v, 1001);  // every element is below 1001: no assert
  cudaError_t fine = cudaDeviceSynchronize();
  check_below<<<2, 32>>>(v, 100);  // element 37 (block 1, thread 5) fails
  cudaError_t failed = cudaDeviceSynchronize();
  void* p = nullptr;
  cudaError_t after = cudaMalloc(&p, 16);  // the context stays broken
  std::printf("fine: %s; failed: %s; after: %s\n", cudaGetErrorName(fine), cudaGetErrorName(failed),
              cudaGetErrorName(after));
  return finish(kName, fine == cudaSuccess && failed == cudaErrorAssert && after == cudaErrorAssert);
}
