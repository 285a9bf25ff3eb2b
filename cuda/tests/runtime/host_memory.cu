// Host memory under unified addressing: kernels use the host pointers of
// cudaMallocHost, cudaHostAlloc (default and write-combined) and
// cudaHostRegister'ed memory directly, without cudaHostGetDevicePointer
// (CUDA runtime API, "Unified Addressing": such memory is accessible from the
// device at the host pointer's value; a registered range when
// canUseHostPointerForRegisteredMem is 1). Kernel writes are seen by the host
// after synchronisation, host writes between launches by the next launch,
// and none of this memory is taken from the device's (cudaMemGetInfo).
#include <cstdlib>
#include <cstring>

#include "common.cuh"
static const char* kName = "host_memory";

__global__ void scale_add(const int* a, int* b, int k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] += k * a[i];
}

// b[i] = 100 + i + 3 * i after one launch on host pointers a and b.
static bool run(int* a, int* b, int n) {
  for (int i = 0; i < n; ++i) a[i] = i, b[i] = 100 + i;
  scale_add<<<(n + 63) / 64, 64>>>(a, b, 3, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  bool ok = true;
  for (int i = 0; i < n; ++i) ok &= b[i] == 100 + 4 * i;
  a[n - 1] = -1000;  // a host write between launches
  scale_add<<<1, 1>>>(a + n - 1, b + n - 1, 1, 1);
  CHECK(cudaDeviceSynchronize());
  return ok && b[n - 1] == 100 + 4 * (n - 1) - 1000;
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int host_ptr = 0;
  CHECK(cudaDeviceGetAttribute(&host_ptr, cudaDevAttrCanUseHostPointerForRegisteredMem, 0));
  if (prop.unifiedAddressing != 1 || host_ptr != 1) return finish(kName, false, "device attributes");
  size_t free0 = 0, free1 = 0, total = 0;
  CHECK(cudaMemGetInfo(&free0, &total));
  const int n = 300;
  const size_t bytes = n * sizeof(int);
  bool ok = true;

  // cudaMallocHost (no flags) and cudaHostAlloc with the default and
  // write-combined flags: the host pointers go to the kernel.
  int *a, *b, *c;
  CHECK(cudaMallocHost(&a, bytes));
  CHECK(cudaHostAlloc(&b, bytes, cudaHostAllocDefault));
  CHECK(cudaHostAlloc(&c, bytes, cudaHostAllocWriteCombined));
  CHECK(cudaMemGetInfo(&free1, &total));
  ok &= free1 == free0;
  if (!run(a, b, n)) return finish(kName, false, "cudaMallocHost + cudaHostAllocDefault");
  if (!run(c, a, n)) return finish(kName, false, "cudaHostAllocWriteCombined");
  cudaPointerAttributes attr;
  CHECK(cudaPointerGetAttributes(&attr, a + 5));
  ok &= attr.type == cudaMemoryTypeHost && attr.devicePointer == a + 5 && attr.hostPointer == a + 5;
  // A device-to-pinned copy and a memset through the host pointer.
  int* d = nullptr;
  CHECK(cudaMalloc(&d, bytes));
  CHECK(cudaMemset(d, 0, bytes));
  scale_add<<<(n + 63) / 64, 64>>>(b, d, 2, n);  // d = 2 * b
  CHECK(cudaMemcpy(c, d, bytes, cudaMemcpyDefault));
  for (int i = 0; i < n - 1; ++i) ok &= c[i] == 2 * (100 + 4 * i);
  CHECK(cudaMemset(c, 0, bytes));
  ok &= c[0] == 0 && c[n - 1] == 0;
  CHECK(cudaFree(d));
  CHECK(cudaFreeHost(a));
  CHECK(cudaFreeHost(b));
  CHECK(cudaFreeHost(c));
  if (!ok) return finish(kName, false, "pinned memory: attributes, copies or cudaMemGetInfo");

  // cudaHostRegister'ed malloc memory, not page-aligned, with the default
  // flags: the host pointer itself goes to the kernel. With
  // cudaHostRegisterMapped the device pointer equals the host pointer.
  char* ab = static_cast<char*>(std::malloc(bytes + 8));
  char* bb = static_cast<char*>(std::malloc(bytes + 8));
  a = reinterpret_cast<int*>(ab + 4);
  b = reinterpret_cast<int*>(bb + 4);
  CHECK(cudaHostRegister(a, bytes, cudaHostRegisterDefault));
  CHECK(cudaHostRegister(b, bytes, cudaHostRegisterMapped));
  int* db = nullptr;
  CHECK(cudaHostGetDevicePointer(&db, b + 7, 0));
  ok &= db == b + 7;
  CHECK(cudaMemGetInfo(&free1, &total));
  ok &= free1 == free0;
  if (!run(a, b, n)) return finish(kName, false, "cudaHostRegister");
  CHECK(cudaHostUnregister(a));
  CHECK(cudaHostUnregister(b));
  std::free(ab);
  std::free(bb);
  return finish(kName, ok, "registered memory: device pointer or cudaMemGetInfo");
}
