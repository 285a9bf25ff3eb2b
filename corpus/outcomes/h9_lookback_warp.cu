// Warp-parallel decoupled look-back (CUB style) over 3 CTAs of one warp:
// lane k reads the packed 64-bit status (flag << 32 | value) of tile b-1-k
// (volatile), the warp polls with __any_sync until no status is empty,
// finds the nearest inclusive one with __ballot_sync and sums with
// __reduce_add_sync. No fences: the values travel in the status words.
extern "C" __global__ void h9_lookback_warp(volatile unsigned long long* status, int* out) {
  const unsigned long long A = 1ull << 32, P = 2ull << 32;
  const unsigned FULL = 0xffffffffu;
  int b = blockIdx.x, lane = threadIdx.x;
  unsigned agg = 10u * (b + 1);
  if (b == 0) {
    if (lane == 0) {
      status[0] = P | agg;
      out[0] = 0;
    }
    return;
  }
  if (lane == 0) status[b] = A | agg;
  unsigned long long s;
  int idx = b - 1 - lane;
  do {
    s = idx >= 0 ? status[idx] : P;
  } while (__any_sync(FULL, (s >> 32) == 0));
  unsigned pm = __ballot_sync(FULL, (s >> 32) == 2);
  int first = __ffs(pm) - 1;
  unsigned excl = __reduce_add_sync(FULL, lane <= first ? (unsigned)s : 0u);
  if (lane == 0) {
    status[b] = P | (excl + agg);
    out[b] = (int)excl;
  }
}
