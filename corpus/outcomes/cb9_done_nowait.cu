// cb9_done without the wait in thread 0: it arrives (dropping the token) and
// reads res at once, while thread 1 arrives and waits as before. When thread
// 1 arrives last, it runs the completion, and thread 0's read of res races
// with the completion's write.
#include <cuda/barrier>
struct Done {
  int* res;
  int* sum;
  __device__ void operator()() noexcept { *res = *sum + 1000; }
};
#pragma nv_diag_suppress static_var_with_dynamic_init
extern "C" __global__ void cb9_done_nowait(int* out) {
  __shared__ int sum, res;
  __shared__ cuda::barrier<cuda::thread_scope_block, Done> bar;
  if (threadIdx.x == 0) {
    sum = 0;
    res = -1;
    init(&bar, blockDim.x, Done{&res, &sum});
  }
  __syncthreads();
  atomicAdd(&sum, 1);
  if (threadIdx.x == 0)
    (void)bar.arrive();
  else
    bar.arrive_and_wait();
  out[threadIdx.x] = res;
}
