// Decoupled look-back over 4 CTAs of one warp: each CTA's aggregate is a
// warp reduction (32 * (blockIdx.x + 1)); lane 0 publishes agg[i] with
// status 1 (__threadfence between value and volatile flag), looks back
// over the predecessors (spins while a status is 0, adds the aggregate
// on 1, the inclusive prefix on 2 and stops), then publishes inc[i] with
// status 2 and stores its exclusive prefix.
__device__ __noinline__ unsigned look_back(int i, volatile int* status, const unsigned* agg, const unsigned* inc) {
  unsigned prefix = 0;
  for (int j = i - 1; j >= 0; --j) {
    int s;
    while ((s = status[j]) == 0) {}
    __threadfence();
    if (s == 2) return prefix + inc[j];
    prefix += agg[j];
  }
  return prefix;
}

extern "C" __global__ void p9_lookback4(volatile int* status, unsigned* agg, unsigned* inc, unsigned* out) {
  unsigned a = __reduce_add_sync(0xffffffffu, blockIdx.x + 1);
  if (threadIdx.x == 0) {
    int i = blockIdx.x;
    if (i > 0) {
      agg[i] = a;
      __threadfence();
      status[i] = 1;
    }
    unsigned p = look_back(i, status, agg, inc);
    inc[i] = p + a;
    __threadfence();
    status[i] = 2;
    out[i] = p;
  }
}
