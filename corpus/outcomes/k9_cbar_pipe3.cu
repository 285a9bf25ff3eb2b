// corpus-arch: sm_90
// A two-stage pipeline through libcu++'s cuda::barrier in one CTA of 64
// threads, three items: stage s = i % 2 has a "full" and an "empty"
// barrier of 2 arrivals each. Thread 0 (the producer), for item i: from the
// third item on, empty[s].arrive_and_wait() (the consumer has read the
// stage), then writes buf[s] and arrives on full[s]. Thread 32 (the
// consumer): full[s].arrive_and_wait(), copies buf[s] to out[i], and
// arrives on empty[s] while a later item still needs the stage. The
// producer arrives on full[0] twice without waiting on full[0]: its second
// arrive follows the consumer's wait on full[0] through empty[0]
// (docs/outcomes.md item 4, "Pipelines").
#include <cuda/barrier>
#pragma nv_diag_suppress static_var_with_dynamic_init
using Bar = cuda::barrier<cuda::thread_scope_block>;
extern "C" __global__ void k9_cbar_pipe3(int* out) {
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
    for (int i = 0; i < 3; ++i) {
      int s = i & 1;
      if (i >= 2) empty[s].arrive_and_wait();
      buf[s] = 10 * (i + 1);
      (void)full[s].arrive();
    }
  } else if (t == 32) {
    for (int i = 0; i < 3; ++i) {
      int s = i & 1;
      full[s].arrive_and_wait();
      out[i] = buf[s];
      if (i + 2 < 3) (void)empty[s].arrive();
    }
  }
}
