// corpus-arch: sm_80
// Warp-synchronous staging through shared memory for ldmatrix (issue 15,
// docs/races.md "Race classes"): each lane stores one 32-bit word of an 8x8
// .b16 tile, lane l the word (l + 1) % 32; then the warp loads the tile with
// ldmatrix, which gives lane l row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1,
// that is word l: the word lane (l + 31) % 32 stored. out[t] = in[(t + 31) % 32]
// for every thread t that loads.
#include <cstdint>

__device__ __forceinline__ unsigned ldmatrix_x1(const unsigned* row) {
  unsigned r;
  unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r) : "r"(a) : "memory");
  return r;
}

// No __syncwarp() between the stores and ldmatrix: the lanes' stores and the
// other lanes' ldmatrix reads are ordered only by ldmatrix's .sync.
extern "C" __global__ void stage_nosync(const unsigned* in, unsigned* out) {
  __shared__ __align__(16) unsigned tile[32];
  unsigned l = threadIdx.x;
  tile[(l + 1) % 32] = in[l];
  out[l] = ldmatrix_x1(&tile[(l % 8) * 4]);  // lanes 0-7 give the row addresses
}

// The same with __syncwarp() (bar.warp.sync, which orders memory among its lanes).
extern "C" __global__ void stage_syncwarp(const unsigned* in, unsigned* out) {
  __shared__ __align__(16) unsigned tile[32];
  unsigned l = threadIdx.x;
  tile[(l + 1) % 32] = in[l];
  __syncwarp();
  out[l] = ldmatrix_x1(&tile[(l % 8) * 4]);
}

// Two warps: warp 0 stages the tile and loads it after __syncwarp(); warp 1
// loads the same tile after only its own __syncwarp(), with no
// __syncthreads(): a cross-warp data race.
extern "C" __global__ void stage_cross_warp(const unsigned* in, unsigned* out) {
  __shared__ __align__(16) unsigned tile[32];
  unsigned l = threadIdx.x % 32;
  if (threadIdx.x < 32) tile[(l + 1) % 32] = in[l];
  __syncwarp();
  out[threadIdx.x] = ldmatrix_x1(&tile[(l % 8) * 4]);
}
