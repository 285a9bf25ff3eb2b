// probe9k's k08: decoupled look-back over 3 CTAs of 64 threads with the
// status of each tile in two separate words, flag (1 = aggregate, 2 =
// inclusive prefix) and value, accessed through volatile pointers, with
// __threadfence() between the value and the flag on both sides. The value
// word of a tile is overwritten by its inclusive prefix after its aggregate
// was published: a reader that saw flag 1 may read the newer prefix and add
// it to the earlier tiles' sums again (a real bug of this kernel; CUB packs
// flag and value into one word).
__device__ int block_sum(const int* in) {
  __shared__ int s[64];
  s[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  for (int o = 32; o > 0; o >>= 1) {
    if (threadIdx.x < o) s[threadIdx.x] += s[threadIdx.x + o];
    __syncthreads();
  }
  return s[0];
}

extern "C" __global__ void q9_lookback_split(const int* in, volatile int* flag, volatile int* value, int* out) {
  int agg = block_sum(in);
  if (threadIdx.x != 0) return;
  int b = blockIdx.x;
  if (b == 0) {
    value[0] = agg;
    __threadfence();
    flag[0] = 2;
    out[0] = agg;
    return;
  }
  value[b] = agg;
  __threadfence();
  flag[b] = 1;
  int excl = 0;
  for (int p = b - 1; p >= 0;) {
    int f;
    while ((f = flag[p]) == 0) {}
    __threadfence();
    excl += value[p];
    if (f == 2) break;
    --p;
  }
  int incl = excl + agg;
  value[b] = incl;
  __threadfence();
  flag[b] = 2;
  out[b] = incl;
}
