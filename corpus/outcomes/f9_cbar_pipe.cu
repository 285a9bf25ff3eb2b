// corpus-arch: sm_90
// A two-stage pipeline through libcu++'s cuda::barrier in one CTA of 64
// threads: each stage has a "full" and an "empty" barrier of 2 arrivals.
// Thread 0 (the producer) writes buf[s] and arrives on full[s]; thread 32
// (the consumer) arrive_and_wait()s on full[s], copies buf[s] to out[s]
// and arrives on empty[s]. Two items, one per stage. nvcc places the wait
// loop's poll-counter increment before the poll it falls into, and enters
// the loop at the poll (docs/outcomes.md "Spin loops").
#include <cuda/barrier>
#pragma nv_diag_suppress static_var_with_dynamic_init
using Bar = cuda::barrier<cuda::thread_scope_block>;
extern "C" __global__ void f9_cbar_pipe(int* out) {
  __shared__ Bar full[2], empty[2];
  __shared__ int buf[2];
  unsigned t = threadIdx.x;
  if (t == 0) {
    for (int s = 0; s < 2; ++s) {
      init(&full[s], 2);
      init(&empty[s], 2);
    }
  }
  __syncthreads();
  if (t == 0) {
    for (int i = 0; i < 2; ++i) {
      buf[i] = 10 * (i + 1);
      (void)full[i].arrive();
    }
  } else if (t == 32) {
    for (int i = 0; i < 2; ++i) {
      full[i].arrive_and_wait();
      out[i] = buf[i];
      (void)empty[i].arrive();
    }
  }
}
