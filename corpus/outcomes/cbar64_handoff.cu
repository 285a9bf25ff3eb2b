// corpus-arch: sm_90
// A handoff through libcu++'s cuda::barrier in a CTA of 64 threads (two
// warps): every thread writes its slot of data and calls arrive_and_wait()
// (mbarrier.arrive, whose state goes to mbarrier.try_wait: a first poll,
// then a backoff loop); thread 0 then reads the slots of threads 63 and 32,
// thread 63 the slot of thread 0.
#include <cuda/barrier>
#pragma nv_diag_suppress static_var_with_dynamic_init
extern "C" __global__ void cbar64_handoff(int* data, int* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  data[threadIdx.x] = 100 + threadIdx.x;
  bar.arrive_and_wait();
  if (threadIdx.x == 0) {
    out[0] = data[63];
    out[1] = data[32];
  } else if (threadIdx.x == 63) {
    out[2] = data[0];
  }
}
