// A 64 x 64 x 192 bf16 GEMM tile for sm_90a in CUDA C++ (no CUTLASS), the
// nvcc-compiled twin of corpus/kernels/features/gemm_tma_wgmma.ptx with other
// choices: bf16 operands, a three-stage pipeline, 32-wide k blocks loaded
// with 64B swizzle, and two wgmma.mma_async m64n64k16 per stage.
//
// Warp specialisation: warpgroup 0 is the producer (its thread 0 issues the
// TMA loads of A and B^T for k block kb into stage kb % 3 after waiting on
// the stage's "empty" mbarrier, and arms the stage's "full" mbarrier with
// mbarrier.arrive.expect_tx); warpgroup 1 is the consumer (it waits on
// "full", runs wgmma on the stage and arrives on "empty"). The accumulators
// go to shared memory (reusing the stages), and one thread stores the tile
// with a TMA store. gemm_tma_wgmma_cu puts fence.proxy.async.shared::cta
// between the generic writes of the tile and the store's async-proxy reads
// (PTX ISA 8.6 proxies); gemm_tma_wgmma_cu_nofence omits it.
//
// PTX ISA 9.x: cp.async.bulk.tensor 9.7.9.25.5.1, mbarrier 9.7.13.15,
// wgmma 9.7.15.5 (descriptors 9.7.15.5.1.2.2), fence.proxy.async 9.7.13.4.
// Compiled by regen.sh (nvcc -ptx -arch=sm_90a); reference gemm_ref.cpp.
// corpus-arch: sm_90a
#include <cuda.h>
#include <cstdint>

namespace gemm_tile_sm90a {

constexpr int kStages = 3;
constexpr int kBlockK = 32;                          // bf16: 64 bytes, one 64B swizzle line
constexpr int kK = 192;                              // 6 k blocks: each stage used twice
constexpr int kStageBytes = 64 * kBlockK * 2;        // one 64 x 32 bf16 tile
constexpr unsigned kTxBytes = 2 * kStageBytes;       // A and B^T per stage

struct alignas(1024) Smem {
  uint8_t a[kStages][kStageBytes];  // later the 64 x 64 f32 C tile (16 KB over a and b)
  uint8_t b[kStages][kStageBytes];
  uint64_t full[kStages];
  uint64_t empty[kStages];
};

__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbar_init(uint64_t* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count) : "memory");
}

__device__ __forceinline__ void mbar_wait(uint64_t* bar, unsigned parity) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "WAIT_%=:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
      "@!p bra WAIT_%=;\n"
      "}\n" ::"r"(smem_addr(bar)),
      "r"(parity)
      : "memory");
}

__device__ __forceinline__ void mbar_arrive(uint64_t* bar) {
  asm volatile(
      "{\n"
      ".reg .b64 state;\n"
      "mbarrier.arrive.shared::cta.b64 state, [%0];\n"
      "}\n" ::"r"(smem_addr(bar))
      : "memory");
}

__device__ __forceinline__ void mbar_arrive_expect_tx(uint64_t* bar, unsigned bytes) {
  asm volatile(
      "{\n"
      ".reg .b64 state;\n"
      "mbarrier.arrive.expect_tx.shared::cta.b64 state, [%0], %1;\n"
      "}\n" ::"r"(smem_addr(bar)),
      "r"(bytes)
      : "memory");
}

__device__ __forceinline__ void tma_load_2d(void* dst, const CUtensorMap* map, int c0, int c1, uint64_t* bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3}], [%4];" ::"r"(smem_addr(dst)),
      "l"(map), "r"(c0), "r"(c1), "r"(smem_addr(bar))
      : "memory");
}

__device__ __forceinline__ void tma_store_2d(const CUtensorMap* map, const void* src, int c0, int c1) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(map),
               "r"(c0), "r"(c1), "r"(smem_addr(src))
               : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

// K-major descriptor, 64B swizzle (mode 2 in bits 62-63): SBO = 8 rows of
// 64 bytes = 512 (32 in 16-byte units), LBO unused (1), base offset 0 (the
// stages are 1024-aligned).
__device__ __forceinline__ uint64_t desc_64b(const void* p) {
  return (uint64_t{2} << 62) | (uint64_t{32} << 32) | (uint64_t{1} << 16) | ((smem_addr(p) & 0x3FFFF) >> 4);
}

// Two wgmma m64n64k16 over one 32-wide k block: the second starts 32 bytes
// further into each 64-byte swizzle line (descriptor + 2). wgmma.fence before
// (the accumulators were last written by the previous wait), commit and wait
// for completion in the same statement, so that no compiler-generated access
// to the accumulators can fall between issue and wait (9.7.15.7).
__device__ __forceinline__ void wgmma_kblock(float (&d)[32], uint64_t da, uint64_t db) {
  asm volatile(
      "{\n"
      "wgmma.fence.sync.aligned;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
      "%32, %33, 1, 1, 1, 0, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
      "%34, %35, 1, 1, 1, 0, 0;\n"
      "wgmma.commit_group.sync.aligned;\n"
      "wgmma.wait_group.sync.aligned 0;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "l"(da), "l"(db), "l"(da + 2), "l"(db + 2)
      : "memory");
}

template <bool kFence>
__device__ __forceinline__ void gemm_tile(const CUtensorMap* tmA, const CUtensorMap* tmB, const CUtensorMap* tmC) {
  __shared__ Smem s;
  const unsigned tid = threadIdx.x;
  if (tid == 0)
    for (int i = 0; i < kStages; ++i) {
      mbar_init(&s.full[i], 1);      // the producer's arrive.expect_tx; the TMA bytes complete it
      mbar_init(&s.empty[i], 128);   // every consumer thread
    }
  __syncthreads();

  if (tid < 128) {
    // Producer warpgroup: one thread issues the loads.
    if (tid != 0) return;
    for (int kb = 0; kb < kK / kBlockK; ++kb) {
      const int st = kb % kStages, use = kb / kStages;
      if (use > 0) mbar_wait(&s.empty[st], (use - 1) & 1);  // the consumers released this stage
      mbar_arrive_expect_tx(&s.full[st], kTxBytes);
      tma_load_2d(s.a[st], tmA, kb * kBlockK, 0, &s.full[st]);
      tma_load_2d(s.b[st], tmB, kb * kBlockK, 0, &s.full[st]);
    }
    return;
  }

  // Consumer warpgroup.
  float d[32];
  for (float& x : d) x = 0.0f;
  for (int kb = 0; kb < kK / kBlockK; ++kb) {
    const int st = kb % kStages, use = kb / kStages;
    mbar_wait(&s.full[st], use & 1);
    wgmma_kblock(d, desc_64b(s.a[st]), desc_64b(s.b[st]));
    mbar_arrive(&s.empty[st]);
  }
  // Every consumer's wgmma reads of the stages are complete before any of
  // them overwrites the stages with C (named barrier 1 of the 128 consumers).
  asm volatile("bar.sync 1, 128;" ::: "memory");

  // Accumulator fragment (9.7.15.5.1.1, Figure "WGMMA .m64nNk16 D"): warp w
  // of the warpgroup holds rows 16w..16w+15; lane l (g = l / 4, t = l % 4)
  // holds d[i] at row g + 8 * ((i >> 1) & 1), column 2t + (i & 1) + 8 * (i >> 2).
  const unsigned t = tid - 128, w = t / 32, g = (t % 32) / 4, q = t % 4;
  float* c = reinterpret_cast<float*>(&s.a[0][0]);
  for (int i = 0; i < 32; ++i) {
    const unsigned row = 16 * w + g + 8 * ((i >> 1) & 1), col = 2 * q + (i & 1) + 8 * (i >> 2);
    c[row * 64 + col] = d[i];
  }
  if (kFence) asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  asm volatile("bar.sync 1, 128;" ::: "memory");
  if (t == 0) tma_store_2d(tmC, c, 0, 0);
}

}  // namespace gemm_tile_sm90a

extern "C" __global__ void __launch_bounds__(256)
    gemm_tma_wgmma_cu(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB,
                      const __grid_constant__ CUtensorMap tmC) {
  gemm_tile_sm90a::gemm_tile<true>(&tmA, &tmB, &tmC);
}

// The missing-fence twin: a data race between the st.shared of the tile and
// the TMA store's async-proxy reads of it.
extern "C" __global__ void __launch_bounds__(256)
    gemm_tma_wgmma_cu_nofence(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB,
                              const __grid_constant__ CUtensorMap tmC) {
  gemm_tile_sm90a::gemm_tile<false>(&tmA, &tmB, &tmC);
}
