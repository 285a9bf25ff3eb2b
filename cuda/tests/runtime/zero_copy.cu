// Mapped pinned host memory (zero copy): a kernel adds vectors that live in
// host memory, reached through cudaHostGetDevicePointer, for memory from
// cudaHostAlloc(cudaHostAllocMapped) (the device pointer is the host
// pointer) and for malloc'ed buffers registered with cudaHostRegisterMapped,
// page-aligned and not. The kernel's writes are seen by the host after
// synchronisation, and host writes between launches by the next launch.
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "common.cuh"
static const char* kName = "zero_copy";

__global__ void add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

static bool run(float* a, float* b, float* c, int n, float* da, float* db, float* dc) {
  for (int i = 0; i < n; ++i) a[i] = i, b[i] = 0.5f * i, c[i] = -1;
  add<<<(n + 127) / 128, 128>>>(da, db, dc, n);
  CHECK(cudaDeviceSynchronize());
  bool ok = true;
  for (int i = 0; i < n; ++i) ok &= c[i] == 1.5f * i;
  a[n - 1] = 100;  // a host write between launches, seen by the next one
  add<<<1, 1>>>(da + n - 1, db + n - 1, dc + n - 1, 1);
  CHECK(cudaDeviceSynchronize());
  ok &= c[n - 1] == 100 + 0.5f * (n - 1);
  return ok;
}

int main() {
  CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));
  int can_map = 0;
  CHECK(cudaDeviceGetAttribute(&can_map, cudaDevAttrCanMapHostMemory, 0));
  bool ok = can_map == 1;
  const int n = 1000;
  const size_t bytes = n * sizeof(float);

  // cudaHostAlloc(cudaHostAllocMapped): the device pointer is the host one.
  float *a, *b, *c, *da, *db, *dc;
  CHECK(cudaHostAlloc(&a, bytes, cudaHostAllocMapped));
  CHECK(cudaHostAlloc(&b, bytes, cudaHostAllocMapped | cudaHostAllocPortable));
  CHECK(cudaHostAlloc(&c, bytes, cudaHostAllocMapped));
  CHECK(cudaHostGetDevicePointer(&da, a, 0));
  CHECK(cudaHostGetDevicePointer(&db, b, 0));
  CHECK(cudaHostGetDevicePointer(&dc, c, 0));
  ok &= da == a && db == b && dc == c;
  unsigned flags = 0;
  CHECK(cudaHostGetFlags(&flags, b));
  ok &= (flags & cudaHostAllocMapped) && (flags & cudaHostAllocPortable);
  cudaPointerAttributes attr;
  CHECK(cudaPointerGetAttributes(&attr, c + 3));
  ok &= attr.type == cudaMemoryTypeHost && attr.devicePointer == c + 3 && attr.hostPointer == c + 3;
  ok &= run(a, b, c, n, da, db, dc);
  CHECK(cudaFreeHost(a));
  CHECK(cudaFreeHost(b));
  CHECK(cudaFreeHost(c));
  if (!ok) return finish(kName, ok, "cudaHostAllocMapped");

  // cudaHostRegister(cudaHostRegisterMapped) of malloc'ed memory: page
  // aligned (a, b) and not (c, 4 bytes into its block).
  a = static_cast<float*>(std::aligned_alloc(4096, 4096));
  b = static_cast<float*>(std::aligned_alloc(4096, 4096));
  char* cb = static_cast<char*>(std::malloc(bytes + 8));
  c = reinterpret_cast<float*>(cb + 4);
  CHECK(cudaHostRegister(a, bytes, cudaHostRegisterMapped));
  CHECK(cudaHostRegister(b, bytes, cudaHostRegisterMapped | cudaHostRegisterPortable));
  CHECK(cudaHostRegister(c, bytes, cudaHostRegisterMapped));
  CHECK(cudaHostGetDevicePointer(&da, a, 0));
  CHECK(cudaHostGetDevicePointer(&db, b, 0));
  CHECK(cudaHostGetDevicePointer(&dc, c, 0));
  float* dc3 = nullptr;
  CHECK(cudaHostGetDevicePointer(&dc3, c + 3, 0));  // inside the range
  ok &= dc3 == dc + 3;
  CHECK(cudaPointerGetAttributes(&attr, c + 3));
  ok &= attr.type == cudaMemoryTypeHost && attr.devicePointer == dc + 3 && attr.hostPointer == c + 3;
  ok &= run(a, b, c, n, da, db, dc);
  // A copy through the device pointer reads the host's bytes.
  float got[4] = {};
  CHECK(cudaMemcpy(got, dc, sizeof got, cudaMemcpyDefault));
  ok &= got[0] == 0 && got[2] == 3;
  CHECK(cudaHostUnregister(a));
  CHECK(cudaHostUnregister(b));
  CHECK(cudaHostUnregister(c));
  std::free(a);
  std::free(b);
  std::free(cb);
  return finish(kName, ok, "cudaHostRegisterMapped");
}
