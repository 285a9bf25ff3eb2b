// Theme: the other wmma shapes and types (PTX ISA 9.7.14.4): m32n8k16 with an
// f16 accumulator and padded column-major tiles, m8n32k16 signed char from
// shared memory with saturation, m16n16k16 unsigned char. Accumulator
// elements are scaled uniformly, which does not depend on the fragment layout.
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

// D (32x8, col-major, ld 40) = A (32x16, col-major, ld 40) * B (16x8, row-major) + 2 * C (32x8, row-major)
extern "C" __global__ void wmma_m32n8k16_f16(const __half* a, const __half* b, const __half* c, __half* d)
{
    wmma::fragment<wmma::matrix_a, 32, 8, 16, __half, wmma::col_major> fa;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, __half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 32, 8, 16, __half> fc;
    wmma::load_matrix_sync(fa, a, 40);
    wmma::load_matrix_sync(fb, b, 8);
    wmma::load_matrix_sync(fc, c, 8, wmma::mem_row_major);
    for (int i = 0; i < fc.num_elements; ++i) fc.x[i] = __hmul(fc.x[i], __float2half(2.0f));
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 40, wmma::mem_col_major);
}

// D (8x32) = A (8x16, row-major) * B (16x32, col-major) + C, clamped to the int range.
extern "C" __global__ void wmma_m8n32k16_s8(const signed char* a, const signed char* b, const int* c, int* d)
{
    __shared__ __align__(32) signed char sa[8 * 16];
    __shared__ __align__(32) signed char sb[32 * 16];
    unsigned lane = threadIdx.x % 32;
#pragma unroll
    for (int i = 0; i < 4; ++i) sa[lane + 32 * i] = a[lane + 32 * i];
#pragma unroll
    for (int i = 0; i < 16; ++i) sb[lane + 32 * i] = b[lane + 32 * i];
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 8, 32, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 32, 16, signed char, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 32, 16, int> fc;
    wmma::load_matrix_sync(fa, sa, 16);
    wmma::load_matrix_sync(fb, sb, 16);
    wmma::load_matrix_sync(fc, c, 32, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc, true);
    wmma::store_matrix_sync(d, fc, 32, wmma::mem_row_major);
}

// D (16x16, col-major) = A (row-major) * B (row-major) - 5, unsigned char inputs.
extern "C" __global__ void wmma_u8(const unsigned char* a, const unsigned char* b, int* d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
    wmma::fill_fragment(fc, -5);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 16, wmma::mem_col_major);
}
