// corpus-flags: -G
// Message passing between two warps of one CTA through shared memory,
// compiled with -G (no optimisation, locals in .local): lane 2 of warp 1
// fills a shared array of 4 ints in a loop, __threadfence_block, sets a
// volatile shared flag; lane 0 of warp 0 spins on the flag,
// __threadfence_block, and sums the array weighted by position.
extern "C" __global__ void b9_mp_debug_G(int* out) {
  __shared__ int buf[4];
  __shared__ volatile int flag;
  if (threadIdx.x == 0) flag = 0;
  __syncthreads();
  if (threadIdx.x == 34) {
    for (int i = 0; i < 4; ++i) buf[i] = i + 1;
    __threadfence_block();
    flag = 1;
  }
  if (threadIdx.x == 0) {
    while (flag == 0) {}
    __threadfence_block();
    int s = 0;
    for (int i = 0; i < 4; ++i) s += (i + 1) * buf[i];
    out[0] = s;
  }
}
