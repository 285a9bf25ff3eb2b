#include <mma.h>
#include <cuda_pipeline.h>
#include <cuda_bf16.h>
using namespace nvcuda;
__global__ void wm(const half* a, const half* b, float* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16); wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
__global__ void cp(float* g) {
  __shared__ float s[128];
  __pipeline_memcpy_async(&s[threadIdx.x], &g[threadIdx.x], 4);
  __pipeline_commit(); __pipeline_wait_prior(0);
  __nv_bfloat16 x = __float2bfloat16(s[threadIdx.x]);
  g[threadIdx.x] = __bfloat162float(__hmul(x, x)) + __reduce_add_sync(0xffffffff, (unsigned)threadIdx.x);
  unsigned m = __match_any_sync(0xffffffff, threadIdx.x);
  g[1] = m + __activemask();
  __nanosleep(100);
  asm volatile("{ .reg .pred p; setp.ne.u32 p, %0, 0; @p bra.uni L1; L1: }" :: "r"(m));
}
