// A seqlock between two warps of one CTA: lane 4 of warp 0 updates a pair
// of 64-bit words twice (sequence odd while writing; volatile data,
// __threadfence around the data); lane 9 of warp 1 retries until it reads
// an even, unchanged sequence and stores the pair it read.
extern "C" __global__ void p9_seqlock_warps(volatile unsigned* seq, volatile long long* d, long long* out) {
  if (threadIdx.x == 4) {
    for (long long k = 1; k <= 2; ++k) {
      *seq = 2 * k - 1;
      __threadfence();
      d[0] = k;
      d[1] = -10 * k;
      __threadfence();
      *seq = 2 * k;
    }
  } else if (threadIdx.x == 41) {
    unsigned s1, s2;
    long long a, b;
    do {
      s1 = *seq;
      __threadfence();
      a = d[0];
      b = d[1];
      __threadfence();
      s2 = *seq;
    } while (s1 != s2 || (s1 & 1));
    out[0] = a;
    out[1] = b;
  }
}
