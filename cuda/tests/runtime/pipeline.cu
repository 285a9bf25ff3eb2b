// A multi-kernel pipeline on one stream: generate, transform, histogram,
// with async copies and memsets between stages.
#include "common.cuh"
static const char* kName = "pipeline";

__global__ void generate(unsigned* a, int n, unsigned seed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = (i * 2654435761u) ^ seed;
}
__global__ void transform(const unsigned* a, unsigned* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = (a[i] >> 7) % 16;
}
__global__ void histogram(const unsigned* b, unsigned* h, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&h[b[i]], 1u);
}

int main() {
  const int n = 2048;
  unsigned *a, *b, *h, hist[16], expect[16] = {0};
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaMalloc(&a, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&b, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&h, sizeof hist));
  CHECK(cudaMemsetAsync(h, 0, sizeof hist, s));
  generate<<<n / 256, 256, 0, s>>>(a, n, 12345u);
  transform<<<n / 256, 256, 0, s>>>(a, b, n);
  histogram<<<n / 256, 256, 0, s>>>(b, h, n);
  CHECK(cudaMemcpyAsync(hist, h, sizeof hist, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  for (int i = 0; i < n; ++i) expect[(((i * 2654435761u) ^ 12345u) >> 7) % 16]++;
  bool ok = true;
  for (int k = 0; k < 16; ++k) ok &= hist[k] == expect[k];
  return finish(kName, ok);
}
