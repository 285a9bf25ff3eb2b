// cudaMallocManaged: the host writes and reads the same pointer the kernel
// uses; prefetch and advice are accepted.
#include "common.cuh"
static const char* kName = "managed_memory";

__global__ void square(int* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = a[i] * a[i];
}

int main() {
  const int n = 1000;
  int* a;
  CHECK(cudaMallocManaged(&a, n * sizeof(int)));
  for (int i = 0; i < n; ++i) a[i] = i - 500;
  cudaMemLocation loc = {cudaMemLocationTypeDevice, 0};
  CHECK(cudaMemPrefetchAsync(a, n * sizeof(int), loc, 0, 0));
  square<<<(n + 255) / 256, 256>>>(a, n);
  CHECK(cudaDeviceSynchronize());
  bool ok = true;
  for (int i = 0; i < n; ++i) ok &= a[i] == (i - 500) * (i - 500);
  a[0] = 7;  // host write after the launch, seen by the next one
  square<<<1, 1>>>(a, 1);
  CHECK(cudaDeviceSynchronize());
  ok &= a[0] == 49;
  cudaPointerAttributes attr;
  CHECK(cudaPointerGetAttributes(&attr, a));
  ok &= attr.type == cudaMemoryTypeManaged;
  CHECK(cudaFree(a));
  return finish(kName, ok);
}
