// What a program asks the runtime about the device and its kernels:
// properties, function attributes, occupancy.
#include "common.cuh"
static const char* kName = "device_query";

__global__ void k(float* a) {
  __shared__ float s[512];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  a[threadIdx.x] = s[511 - threadIdx.x];
}

int main() {
  int count = 0, dev = -1;
  CHECK(cudaGetDeviceCount(&count));
  CHECK(cudaGetDevice(&dev));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  cudaFuncAttributes fa;
  CHECK(cudaFuncGetAttributes(&fa, k));
  int blocks = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, 512, 0));
  int min_grid = 0, best_block = 0;
  CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &best_block, k, 0, 0));
  int drv = 0, rt = 0;
  CHECK(cudaDriverGetVersion(&drv));
  CHECK(cudaRuntimeGetVersion(&rt));
  std::printf("%s on sm_%d%d: %d SM, warp %d, %zu KiB shared/block; kernel: %zu B static shared, "
              "%d blocks of 512/SM, best block %d\n",
              prop.name, prop.major, prop.minor, prop.multiProcessorCount, prop.warpSize, prop.sharedMemPerBlock / 1024,
              fa.sharedSizeBytes, blocks, best_block);
  bool ok = count == 1 && dev == 0 && prop.warpSize == 32 && prop.maxThreadsPerBlock == 1024 &&
            fa.sharedSizeBytes == 2048 && fa.maxThreadsPerBlock == 1024 && blocks == 4 && best_block > 0 &&
            prop.unifiedAddressing == 1 && drv >= rt;
  return finish(kName, ok);
}
