// Broken on purpose: the buffer is read after cudaFreeAsync, in stream order
// after the free. Expected report: use_after_free_async.expected.json.
#include <cstdio>

__global__ void sum(const int* a, int* out) { atomicAdd(out, a[threadIdx.x]); }

int main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  int *a, *out;
  cudaMalloc(&out, sizeof(int));
  cudaMallocAsync(&a, 32 * sizeof(int), s);
  cudaMemsetAsync(a, 0, 32 * sizeof(int), s);
  cudaMemsetAsync(out, 0, sizeof(int), s);
  sum<<<1, 32, 0, s>>>(a, out);
  cudaFreeAsync(a, s);
  sum<<<1, 32, 0, s>>>(a, out);  // after the free
  std::printf("use_after_free_async: %s\n", cudaGetErrorName(cudaStreamSynchronize(s)));
  return 0;
}
