// Message passing between two CTAs of 16x2 threads through a volatile flag:
// the producer (CTA 0, thread 3) fences with __threadfence() (fence.sc.gpu),
// the consumer (CTA 1, thread (4,1)) with __threadfence_block()
// (fence.sc.cta), whose scope does not include the producer.
extern "C" __global__ void f9_fence_mixed(int* data, volatile int* flag, int* out) {
  unsigned t = threadIdx.x + 16 * threadIdx.y;
  if (blockIdx.x == 0 && t == 3) {
    data[0] = 1;
    data[1] = 2;
    __threadfence();
    *flag = 1;
  }
  if (blockIdx.x == 1 && t == 20) {
    while (*flag == 0) {}
    __threadfence_block();
    out[0] = data[0];
    out[1] = data[1];
  }
}
