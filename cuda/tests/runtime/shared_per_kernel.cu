// Six kernels of one module, each with 40 KiB of static shared memory: as
// ptxas does, each kernel gets only the shared variables it uses, so each
// reports 40 KiB (not the module's 240 KiB), launches, and may add 8 KiB of
// dynamic shared memory within the 48 KiB default limit.
#include "common.cuh"
static const char* kName = "shared_per_kernel";

#define KERNEL(n)                                       \
  __global__ void k##n(int* o) {                        \
    __shared__ int s[10240];                            \
    s[threadIdx.x] = threadIdx.x + n;                   \
    __syncthreads();                                    \
    o[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x]; \
  }
KERNEL(0)
KERNEL(1)
KERNEL(2)
KERNEL(3)
KERNEL(4)
KERNEL(5)

int main() {
  int* d = nullptr;
  CHECK(cudaMalloc(&d, 32 * sizeof(int)));
  cudaFuncAttributes fa{};
  CHECK(cudaFuncGetAttributes(&fa, k3));
  int blocks = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k3, 32, 0));
  k5<<<1, 32>>>(d);
  CHECK(cudaGetLastError());
  k0<<<1, 32, 8192>>>(d);  // 40 KiB static + 8 KiB dynamic = the 48 KiB default
  CHECK(cudaGetLastError());
  int h[32];
  CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  bool ok = fa.sharedSizeBytes == 40960 && blocks == 5;  // 228 KiB / (40 + 1 reserved) KiB
  for (int i = 0; i < 32; ++i) ok &= h[i] == (i + 1) % 32;
  std::printf("sharedSizeBytes %zu, blocks per SM %d\n", fa.sharedSizeBytes, blocks);
  return finish(kName, ok);
}
