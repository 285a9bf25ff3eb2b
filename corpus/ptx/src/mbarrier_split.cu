// Theme: split arrive/wait barriers (cuda::barrier on sm_80: mbarrier.arrive,
// mbarrier.test_wait/try_wait) used as a producer/consumer phase barrier.
#include <cuda/barrier>
#pragma nv_diag_suppress static_var_with_dynamic_init
extern "C" __global__ void mbarrier_split(const int* in, int* out)
{
    __shared__ int s[64];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    unsigned t = threadIdx.x;
    if (t == 0) init(&bar, blockDim.x);
    __syncthreads();
    for (int phase = 0; phase < 3; ++phase) {
        s[t] = in[blockIdx.x * 64 + t] * (phase + 1);
        auto token = bar.arrive();
        int unrelated = (int)(t * t) - phase;   // work overlapped with the barrier
        bar.wait(std::move(token));
        out[(phase * gridDim.x + blockIdx.x) * 64 + t] = s[(t + 5) % 64] + unrelated;
        bar.arrive_and_wait();                  // nobody overwrites s before all reads
    }
}
