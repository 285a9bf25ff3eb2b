// A maximum as an atomicCAS retry loop: thread 0 of CTA b takes
// max(*p, v[b]) and stores the value it replaced in out[b].
extern "C" __global__ void cas9_max_cta(int* p, const int* v, int* out) {
  if (threadIdx.x != 0) return;
  const int x = v[blockIdx.x];
  int old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, max(assumed, x));
  } while (assumed != old);
  out[blockIdx.x] = old;
}
