// A bounded poll: lane 0 of CTA 0 reads a volatile flag at most twice and
// reports what it saw last; lane 0 of CTA 1 sets the flag.
extern "C" __global__ void b9_bounded_poll(int* flag, int* out) {
  volatile int* f = flag;
  if (blockIdx.x == 1 && threadIdx.x == 0) *f = 1;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    int v = 0;
#pragma unroll 1
    for (int tries = 0; tries < 2; ++tries) {
      v = *f;
      if (v) break;
    }
    out[0] = v;
  }
}
