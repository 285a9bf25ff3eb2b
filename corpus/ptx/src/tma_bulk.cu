// corpus-arch: sm_90
// Theme: sm_90 bulk asynchronous copies: cuda::memcpy_async into shared
// memory with a cuda::barrier lowers to cp.async.bulk + mbarrier.expect_tx /
// try_wait.parity, and fence.proxy.async.
#include <cuda/barrier>
#pragma nv_diag_suppress static_var_with_dynamic_init
extern "C" __global__ void tma_bulk(const int* in, int* out)
{
    __shared__ alignas(16) int buf[256];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    if (threadIdx.x == 0)
        cuda::memcpy_async(buf, in + blockIdx.x * 256, cuda::aligned_size_t<16>(sizeof(buf)), bar);
    bar.arrive_and_wait();
    out[blockIdx.x * 256 + threadIdx.x] = buf[255 - threadIdx.x] + 1;
}
