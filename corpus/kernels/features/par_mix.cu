// CTAs that do not communicate but report (nvcc -ptx -arch=sm_80 par_mix.cu):
// each CTA reverses its 64-element slice of `in` into `out` through shared
// memory, reads one shared word nobody wrote (an uninitialized-read warning
// in every CTA, folded into one report with a count) and prints a line.
// Parallel CTAs must print, report and count as the deterministic schedule
// (tests/interp/test_parallel.cpp). par_mix_ref.py writes the expected outputs.
#include <cstdio>
extern "C" __global__ void par_mix(const int* in, int* out) {
  __shared__ int s[128];
  volatile int* vs = s;
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = in[i];
  __syncthreads();
  int x = s[blockDim.x - 1 - t];
  if (t == 0) {
    int junk = vs[blockDim.x];  // never written
    asm volatile("" ::"r"(junk));
    printf("cta %d: out[%d] = %d\n", blockIdx.x, i, x);
  }
  out[i] = x;
}
