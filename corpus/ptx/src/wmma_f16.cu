// Theme: warp matrix multiply-accumulate (wmma.load/mma/store, 16x16x16,
// f16 inputs, f32 accumulator). One warp computes D = A*B + C.
#include <mma.h>
using namespace nvcuda;

extern "C" __global__ void wmma_16x16x16(const __half* a, const __half* b, const float* c, float* d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}
