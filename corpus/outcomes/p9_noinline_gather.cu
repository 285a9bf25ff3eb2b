// CTA 0 gathers from CTAs 1..3 (one thread each): each producer calls a
// __noinline__ publish (16-bit value, __threadfence, volatile flag); the
// consumer polls the flags round-robin until it has seen all three, with a
// __threadfence after each flag it sees, and sums what it read.
__device__ __noinline__ void publish(short* slot, volatile int* flag, short v) {
  *slot = v;
  __threadfence();
  *flag = 1;
}

__device__ __noinline__ int take(const short* slot, volatile int* flag) {
  if (*flag == 0) return -1;
  __threadfence();
  return *slot;
}

extern "C" __global__ void p9_noinline_gather(short* data, int* flags, int* out) {
  int b = blockIdx.x;
  if (b > 0) {
    publish(&data[b], &flags[b], (short)(b * 11));
  } else {
    int got = 0, sum = 0;
    for (int i = 1; got != 7; i = i % 3 + 1) {
      if (got & (1 << (i - 1))) continue;
      int v = take(&data[i], &flags[i]);
      if (v >= 0) {
        got |= 1 << (i - 1);
        sum += v;
      }
    }
    out[0] = sum;
  }
}
