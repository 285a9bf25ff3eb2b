// Dynamic shared memory sized at launch, above the 48 KiB default after
// cudaFuncSetAttribute, and a launch that asks for too much.
#include "common.cuh"
static const char* kName = "dynamic_shared";

__global__ void reverse(const int* in, int* out, int n) {
  extern __shared__ int s[];
  for (int i = threadIdx.x; i < n; i += blockDim.x) s[i] = in[i];
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = s[n - 1 - i];
}

int main() {
  const int n = 16384;  // 64 KiB of shared memory
  int* h = new int[n];
  int* r = new int[n];
  for (int i = 0; i < n; ++i) h[i] = i * 3;
  int *in, *out;
  CHECK(cudaMalloc(&in, n * sizeof(int)));
  CHECK(cudaMalloc(&out, n * sizeof(int)));
  CHECK(cudaMemcpy(in, h, n * sizeof(int), cudaMemcpyHostToDevice));
  reverse<<<1, 256, n * sizeof(int)>>>(in, out, n);  // over 48 KiB without the opt-in: refused
  bool refused = cudaGetLastError() != cudaSuccess;
  CHECK(cudaFuncSetAttribute(reverse, cudaFuncAttributeMaxDynamicSharedMemorySize, n * sizeof(int)));
  reverse<<<1, 256, n * sizeof(int)>>>(in, out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(r, out, n * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = refused;
  for (int i = 0; i < n; ++i) ok &= r[i] == h[n - 1 - i];
  return finish(kName, ok);
}
