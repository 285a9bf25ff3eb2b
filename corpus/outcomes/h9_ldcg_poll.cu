// Message passing whose consumer polls with __ldcg (ld.global.cg: a weak load
// with a cache hint). The producer runs __threadfence() before a volatile flag
// store, the consumer __threadfence() after the poll. Consumer CTA 0.
extern "C" __global__ void h9_ldcg_poll(int* data, int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 1) {
    *data = 42;
    __threadfence();
    *(volatile int*)flag = 1;
  } else {
    while (__ldcg(flag) == 0) {}
    __threadfence();
    out[0] = *data;
  }
}
