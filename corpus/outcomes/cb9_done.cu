// cuda::barrier with a completion function (libcu++'s generic barrier: an
// arrival counter, a phase word and the completion run by the last arriver,
// no mbarrier): both threads atomicAdd 1 to a shared sum and arrive_and_wait;
// the completion writes res = sum + 1000; then each thread stores res. The
// wait polls the phase word 16 times in straight-line code (nvcc unrolls
// libcu++'s poll loop) before its backoff loop.
#include <cuda/barrier>
struct Done {
  int* res;
  int* sum;
  __device__ void operator()() noexcept { *res = *sum + 1000; }
};
#pragma nv_diag_suppress static_var_with_dynamic_init
extern "C" __global__ void cb9_done(int* out) {
  __shared__ int sum, res;
  __shared__ cuda::barrier<cuda::thread_scope_block, Done> bar;
  if (threadIdx.x == 0) {
    sum = 0;
    res = -1;
    init(&bar, blockDim.x, Done{&res, &sum});
  }
  __syncthreads();
  atomicAdd(&sum, 1);
  bar.arrive_and_wait();
  out[threadIdx.x] = res;
}
