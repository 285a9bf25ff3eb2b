// Theme: sm_80 asynchronous global->shared copies (cp.async.ca/.cg,
// cp.async.commit_group, cp.async.wait_group) through the pipeline primitives.
#include <cuda_pipeline.h>

extern "C" __global__ void cp_async_stage(const float4* in, float* out)
{
    __shared__ float4 tile[64];
    unsigned t = threadIdx.x;
    __pipeline_memcpy_async(&tile[t], &in[blockIdx.x * 64 + t], sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    float4 v = tile[63 - t];
    out[blockIdx.x * 64 + t] = v.x + v.y + v.z + v.w;
}

// cuda::memcpy_async with a block-scope cuda::barrier (mbarrier based).
#include <cuda/barrier>
#pragma nv_diag_suppress static_var_with_dynamic_init
#include <cooperative_groups.h>
extern "C" __global__ void memcpy_async_barrier(const int* in, int* out)
{
    __shared__ int buf[128];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cooperative_groups::this_thread_block();
    if (block.thread_rank() == 0) init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, buf, in + blockIdx.x * 128, sizeof(int) * 128, bar);
    bar.arrive_and_wait();
    out[blockIdx.x * 128 + threadIdx.x] = buf[127 - threadIdx.x] * 2;
}
