// Driver API: occupancy on the emulated device, one SM with sm_90's per-SM
// limits (launch.cpp max_active_blocks), as the CUDA runtime's occupancy
// calculator asks for it (cuda/README.md "Runtime API").
#include <algorithm>

#include "cuda/shim/state.hpp"

using namespace shim;

namespace {
CUresult occupancy(int* numBlocks, CUfunction f, int blockSize, size_t dyn) {
  if (!numBlocks || blockSize <= 0) return CUDA_ERROR_INVALID_VALUE;
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (CUresult r = resolve_function(s, f)) return r;
  *numBlocks = max_active_blocks(f, blockSize, dyn);
  return CUDA_SUCCESS;
}
}  // namespace

SHIM_API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, CUfunction f, int blockSize,
                                                              size_t dynamicSMemSize) {
  return occupancy(numBlocks, f, blockSize, dynamicSMemSize);
}

SHIM_API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, CUfunction f, int blockSize,
                                                                       size_t dynamicSMemSize, unsigned int flags) {
  if (flags & ~1u) return CUDA_ERROR_INVALID_VALUE;
  return occupancy(numBlocks, f, blockSize, dynamicSMemSize);
}

// The block size with the most resident threads per SM (the largest such, trying whole warps from the limit
// down, as cudaOccupancyMaxPotentialBlockSizeVariableSMem in cuda_runtime.h does), and the grid that fills every
// SM with it. The limit: blockSizeLimit, else the function's (.maxntid/.reqntid) or 1024; the dynamic shared
// memory of each size asked from blockSizeToDynamicSMemSize when given, else dynamicSMemSize.
SHIM_API CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int* minGridSize, int* blockSize, CUfunction f,
                                                            CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                            size_t dynamicSMemSize, int blockSizeLimit,
                                                            unsigned int flags) {
  if (!minGridSize || !blockSize || blockSizeLimit < 0 || (flags & ~1u)) return CUDA_ERROR_INVALID_VALUE;
  int func_max = 0, sms = 0;
  if (CUresult r = cuFuncGetAttribute(&func_max, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f)) return r;
  if (CUresult r = cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0)) return r;
  const int limit = blockSizeLimit ? std::min(blockSizeLimit, func_max) : func_max;
  int best_size = 0, best_blocks = 0, best_threads = 0;
  for (int aligned = (limit + 31) / 32 * 32; aligned > 0; aligned -= 32) {
    const int size = std::min(limit, aligned);
    const size_t dyn = blockSizeToDynamicSMemSize ? blockSizeToDynamicSMemSize(size) : dynamicSMemSize;
    int blocks = 0;
    if (CUresult r = occupancy(&blocks, f, size, dyn)) return r;
    if (blocks * size > best_threads) {
      best_size = size, best_blocks = blocks, best_threads = blocks * size;
      if (best_threads == kThreadsPerSm) break;
    }
  }
  *minGridSize = best_blocks * sms;
  *blockSize = best_size;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuOccupancyMaxPotentialBlockSize(int* minGridSize, int* blockSize, CUfunction f,
                                                   CUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                   size_t dynamicSMemSize, int blockSizeLimit) {
  return cuOccupancyMaxPotentialBlockSizeWithFlags(minGridSize, blockSize, f, blockSizeToDynamicSMemSize,
                                                   dynamicSMemSize, blockSizeLimit, 0);
}

SHIM_API CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t* size, CUfunction f, int numBlocks, int blockSize) {
  if (!size || numBlocks <= 0 || blockSize <= 0) return CUDA_ERROR_INVALID_VALUE;
  int stat = 0;
  if (CUresult r = cuFuncGetAttribute(&stat, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f)) return r;
  size_t per_block = kSharedPerSm / static_cast<size_t>(numBlocks);
  per_block = per_block > kReservedPerBlock ? per_block - kReservedPerBlock : 0;
  per_block = std::min(per_block, size_t{kOptinSharedLimit});
  *size = per_block > static_cast<size_t>(stat) ? per_block - stat : 0;
  return CUDA_SUCCESS;
}
