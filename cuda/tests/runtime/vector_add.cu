// Runtime API: the plain vector add (cudaMalloc, cudaMemcpy, <<<>>>).
#include <cstdio>

__global__ void vadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 1000;
  static float ha[n], hb[n], hc[n];
  for (int i = 0; i < n; ++i) {
    ha[i] = i;
    hb[i] = 2 * i;
  }
  float *a, *b, *c;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&c, n * sizeof(float));
  cudaMemcpy(a, ha, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(b, hb, n * sizeof(float), cudaMemcpyHostToDevice);
  vadd<<<(n + 255) / 256, 256>>>(a, b, c, n);
  cudaError_t e = cudaMemcpy(hc, c, n * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += hc[i] != 3.0f * i;
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  std::printf("vector_add: %s (%s, %d wrong)\n", e == cudaSuccess && bad == 0 ? "PASS" : "FAIL", cudaGetErrorString(e),
              bad);
  return e == cudaSuccess && bad == 0 ? 0 : 1;
}
