// __constant__ and __device__ variables written and read with
// cudaMemcpyToSymbol / cudaMemcpyFromSymbol, and a symbol's address.
#include "common.cuh"
static const char* kName = "constant_memory";

__constant__ float coeff[4];
__device__ int counter;

__global__ void poly(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = coeff[0] + x[i] * (coeff[1] + x[i] * (coeff[2] + x[i] * coeff[3]));
  if (i == 0) counter += 5;
}

int main() {
  const int n = 64;
  float c[4] = {1, 2, 3, 4}, hx[n], hy[n];
  for (int i = 0; i < n; ++i) hx[i] = i * 0.25f;
  float *x, *y;
  CHECK(cudaMalloc(&x, sizeof hx));
  CHECK(cudaMalloc(&y, sizeof hy));
  CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpyToSymbol(coeff, c, sizeof c));
  int start = 37;
  CHECK(cudaMemcpyToSymbol(counter, &start, sizeof start));
  poly<<<1, n>>>(x, y, n);
  poly<<<1, n>>>(x, y, n);
  CHECK(cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost));
  int cnt = 0;
  CHECK(cudaMemcpyFromSymbol(&cnt, counter, sizeof cnt));
  float back[4];
  CHECK(cudaMemcpyFromSymbol(back, coeff, sizeof back));
  int* counter_addr = nullptr;
  CHECK(cudaGetSymbolAddress((void**)&counter_addr, counter));
  int via_addr = 0;
  CHECK(cudaMemcpy(&via_addr, counter_addr, sizeof via_addr, cudaMemcpyDeviceToHost));
  bool ok = cnt == 47 && via_addr == 47 && back[3] == 4;
  for (int i = 0; i < n; ++i) {
    float v = hx[i];
    float want = c[0] + v * (c[1] + v * (c[2] + v * c[3]));
    ok &= hy[i] - want <= 1e-4f * want && want - hy[i] <= 1e-4f * want;  // nvcc contracts to fma
  }
  return finish(kName, ok);
}
