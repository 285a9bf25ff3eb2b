// Device-side new/delete (CUDA C++ Programming Guide, "Dynamic Global Memory
// Allocation and Operations"): one kernel allocates an object per thread
// with new, a later launch reads and updates it, a third deletes it (the
// heap persists across launches); a request larger than the heap (set with
// cudaDeviceSetLimit before the first launch) gives NULL; a device reset frees
// the heap and restores its default size.
#include "common.cuh"
static const char* kName = "device_new";

struct Counter {
  int base;
  int hits;
};

__global__ void make(Counter** slots, size_t too_big, int* null_seen) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  slots[t] = new Counter{static_cast<int>(t) * 3, 0};
  if (t == 0) *null_seen = malloc(too_big) == nullptr;
}

__global__ void use(Counter** slots, int* out) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  Counter* c = slots[t];
  c->hits += 1;
  out[t] = c->base + c->hits;
}

__global__ void destroy(Counter** slots) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  delete slots[t];
  slots[t] = nullptr;
}

int main() {
  const int n = 64;
  size_t heap = 0;
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20));
  CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
  bool ok = heap == (1 << 20);
  Counter** slots;
  int *out, *null_seen;
  CHECK(cudaMalloc(&slots, n * sizeof(Counter*)));
  CHECK(cudaMalloc(&out, n * sizeof(int)));
  CHECK(cudaMalloc(&null_seen, sizeof(int)));
  make<<<2, 32>>>(slots, size_t{2} << 20, null_seen);
  CHECK(cudaGetLastError());
  use<<<2, 32>>>(slots, out);
  use<<<2, 32>>>(slots, out);
  destroy<<<2, 32>>>(slots);
  CHECK(cudaDeviceSynchronize());
  int h[n], ns = 0;
  CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&ns, null_seen, sizeof ns, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) ok = ok && h[i] == 3 * i + 2;
  ok = ok && ns == 1;
  // The heap size is fixed once a kernel used it.
  ok = ok && cudaDeviceSetLimit(cudaLimitMallocHeapSize, 4 << 20) != cudaSuccess;
  cudaGetLastError();
  // A device reset frees the heap and restores its default size (8 MiB),
  // which can be set again: a 2 MiB heap now holds 64 blocks but not 4 MiB.
  CHECK(cudaDeviceReset());
  CHECK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
  ok = ok && heap == (8 << 20);
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 2 << 20));
  CHECK(cudaMalloc(&slots, n * sizeof(Counter*)));
  CHECK(cudaMalloc(&out, n * sizeof(int)));
  CHECK(cudaMalloc(&null_seen, sizeof(int)));
  make<<<2, 32>>>(slots, size_t{4} << 20, null_seen);
  use<<<2, 32>>>(slots, out);
  destroy<<<2, 32>>>(slots);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&ns, null_seen, sizeof ns, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) ok = ok && h[i] == 3 * i + 1;
  ok = ok && ns == 1;
  return finish(kName, ok);
}
