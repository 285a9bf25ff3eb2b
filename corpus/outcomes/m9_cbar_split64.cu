// corpus-arch: sm_90
// A neighbour exchange through libcu++'s cuda::barrier with arrive and wait
// apart, in a CTA of 64 threads (two warps): every thread writes its slot of
// data, arrives (the token is the mbarrier.arrive state), waits on the token
// (mbarrier.try_wait: a first poll, then a backoff loop) and copies the slot
// of the next thread (thread 63: thread 0's) to its slot of out.
#include <cuda/barrier>
#pragma nv_diag_suppress static_var_with_dynamic_init
extern "C" __global__ void m9_cbar_split64(int* data, int* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  data[threadIdx.x] = 100 + threadIdx.x;
  auto token = bar.arrive();
  bar.wait(std::move(token));
  out[threadIdx.x] = data[(threadIdx.x + 1) % blockDim.x];
}
