// Race classes tried as a new user would (issue 15 acceptance; docs/races.md):
// kernels written for this test, not taken from the corpus, compiled with
//   nvcc -ptx -arch=sm_80 -O3 -lineinfo races.cu -o races.ptx
// (regen.sh). check_races.py runs each launch spec and checks the verdict
// and what the race reports name.
#include <cuda_fp16.h>
#include <cstdint>

__device__ __forceinline__ unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

// One warp stages a 16x16 A tile (row-major halves) and a 16x8 B tile
// (k-major) in shared memory, each lane storing 16 bytes of A and 8 of B,
// then loads its mma.sync fragments with ldmatrix and multiplies:
// C (16x8, f32) = A * B. Without __syncwarp() between the stores and
// ldmatrix, other lanes' stores are ordered before the ldmatrix reads only
// by ldmatrix's own .sync: a warp-sync-race.
template <bool kSyncwarp>
__device__ void mma_tile(const __half* a, const __half* b, float* c, __half* sa, __half* sb, unsigned lane,
                         bool store) {
  if (store) {
    reinterpret_cast<uint4*>(sa)[lane] = reinterpret_cast<const uint4*>(a)[lane];  // row lane/2, 8 halves
    reinterpret_cast<uint2*>(sb)[lane] = reinterpret_cast<const uint2*>(b)[lane];  // k-row lane/2, 4 halves
  }
  if (kSyncwarp) __syncwarp();
  unsigned a0, a1, a2, a3, b0, b1;
  const __half* arow = sa + (lane % 16) * 16 + (lane / 16) * 8;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3)
               : "r"(smem(arow))
               : "memory");
  const __half* brow = sb + (lane % 16) * 8;
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
               : "=r"(b0), "=r"(b1)
               : "r"(smem(brow))
               : "memory");
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};"
      : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  unsigned g = lane / 4, q = lane % 4;
  c[g * 8 + q * 2] = d0;
  c[g * 8 + q * 2 + 1] = d1;
  c[(g + 8) * 8 + q * 2] = d2;
  c[(g + 8) * 8 + q * 2 + 1] = d3;
}

extern "C" __global__ void tile_nosync(const __half* a, const __half* b, float* c) {
  __shared__ __align__(16) __half sa[16 * 16];
  __shared__ __align__(16) __half sb[16 * 8];
  mma_tile<false>(a, b, c, sa, sb, threadIdx.x, true);
}

extern "C" __global__ void tile_syncwarp(const __half* a, const __half* b, float* c) {
  __shared__ __align__(16) __half sa[16 * 16];
  __shared__ __align__(16) __half sb[16 * 8];
  mma_tile<true>(a, b, c, sa, sb, threadIdx.x, true);
}

// Two warps: warp 0 stages the tiles, and both warps multiply them after
// only their own __syncwarp(): warp 1 reads warp 0's stores with nothing
// ordering them (no __syncthreads()), a data-race.
extern "C" __global__ void tile_cross_warp(const __half* a, const __half* b, float* c) {
  __shared__ __align__(16) __half sa[16 * 16];
  __shared__ __align__(16) __half sb[16 * 8];
  unsigned warp = threadIdx.x / 32;
  mma_tile<true>(a, b, c + warp * 128, sa, sb, threadIdx.x % 32, warp == 0);
}

// Lanes exchange words through shared memory, ordered only by a shuffle:
// lane l stores its word, the warp shuffles, lane l reads lane l+1's word.
extern "C" __global__ void shfl_exchange(const unsigned* in, unsigned* out) {
  __shared__ unsigned buf[32];
  unsigned l = threadIdx.x;
  buf[l] = in[l];
  unsigned token = __shfl_sync(0xffffffffu, l, 0);
  out[l] = buf[(l + 1) % 32] + token;
}

__device__ __forceinline__ float warp_max(float v) {
  for (int o = 16; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}
__device__ __forceinline__ float warp_sum(float v) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// A softmax normaliser over one row of 4 warps: a max reduction, then a sum
// reduction that reuses the same shared buffer. Without the second
// __syncthreads() a warp's lane 0 can store its partial sum while another
// warp still reads the partial maxima: a data-race.
template <bool kSecondBarrier>
__device__ void softmax_row(const float* x, float* y) {
  __shared__ float buf[32];
  unsigned t = threadIdx.x, lane = t % 32, warp = t / 32, nwarps = blockDim.x / 32;
  float v = x[t];
  float m = warp_max(v);
  if (lane == 0) buf[warp] = m;
  __syncthreads();
  m = lane < nwarps ? buf[lane] : -INFINITY;
  m = warp_max(m);
  if (kSecondBarrier) __syncthreads();
  float e = __expf(v - m);
  float s = warp_sum(e);
  if (lane == 0) buf[warp] = s;
  __syncthreads();
  s = lane < nwarps ? buf[lane] : 0.0f;
  s = warp_sum(s);
  y[t] = e / s;
}

extern "C" __global__ void softmax_racy(const float* x, float* y) { softmax_row<false>(x, y); }
extern "C" __global__ void softmax_fixed(const float* x, float* y) { softmax_row<true>(x, y); }

// Small enough for `ptxcheck outcomes` (two communicating words): lanes 0
// and 1 exchange words ordered only by a shuffle (a warp-sync-race), and
// the same exchange between lane 0 of warp 0 and lane 0 of warp 1, which a
// shuffle cannot order at all (a data-race).
extern "C" __global__ void shfl_pair(const unsigned* in, unsigned* out) {
  __shared__ unsigned buf[2];
  unsigned l = threadIdx.x;
  if (l < 2) buf[l] = in[l];
  unsigned token = __shfl_sync(0xffffffffu, l, 0);
  if (l < 2) out[l] = buf[l ^ 1] + token;
}

extern "C" __global__ void shfl_pair_cross(const unsigned* in, unsigned* out) {
  __shared__ unsigned buf[2];
  unsigned t = threadIdx.x, w = t / 32;
  if (t % 32 == 0) buf[w] = in[w];
  unsigned token = __shfl_sync(0xffffffffu, t, 0);
  if (t % 32 == 0) out[w] = buf[w ^ 1] + token;
}

// The same exchange with __syncwarp() (bar.warp.sync orders memory among its
// lanes): no race for run nor outcomes.
extern "C" __global__ void syncwarp_pair(const unsigned* in, unsigned* out) {
  __shared__ unsigned buf[2];
  unsigned l = threadIdx.x;
  if (l < 2) buf[l] = in[l];
  __syncwarp();
  if (l < 2) out[l] = buf[l ^ 1];
}
