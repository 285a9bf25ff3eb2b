// Spin loops of lanes that work together (semantics/outcomes/hook_warp.cpp
// (W)) and registers written first in a failed iteration (hook_loop.cpp
// (R)); tests/corpus/outcomes_warp.py. CTA 0 writes, CTA 1 reads. Built with
//   nvcc -arch=sm_90 -ptx warp.cu -o warp.ptx

// Warp-cooperative seqlock (probe9h h51): lane 0 reads the sequence,
// lanes 0..3 one element each, lane 0 the sequence again; __shfl_sync
// passes the verdict on and the warp retries together. The writer writes
// one version (seq 1, data, seq 2) with fences. out: [0,0,0,0] (before
// the writer) or [1,2,3,4]. A failed try comes back to the head with the
// same state but for the data in lanes 0..3's `v` (live at the head for
// the lanes >= 4, which keep 0) and two bar.warp.sync: dropped by (R) and
// (W) together.
extern "C" __global__ void warp_seqlock(volatile unsigned* seq, volatile int* data, int* out) {
  int lane = threadIdx.x;
  if (blockIdx.x == 0) {
    if (lane == 0) {
      *seq = 1;
      __threadfence();
      for (int k = 0; k < 4; ++k) data[k] = k + 1;
      __threadfence();
      *seq = 2;
    }
    return;
  }
  int ok, v = 0;
  do {
    unsigned s0 = 0;
    if (lane == 0) s0 = *seq;
    __threadfence();
    __syncwarp();
    if (lane < 4) v = data[lane];
    __threadfence();
    __syncwarp();
    if (lane == 0) {
      unsigned s1 = *seq;
      ok = s0 == s1 && !(s0 & 1);
    }
    ok = __shfl_sync(0xffffffffu, ok, 0);
  } while (!ok);
  if (lane < 4) out[lane] = v;
}

// Lane 0 polls a flag and counts its tries up to 2; __shfl_sync passes
// the verdict on. Lanes 1..31 come back to the head with the same state
// after a failed try, but lane 0 does not: out = 1 (the flag read 1 at
// once) or 2 (read 0 first). Dropping lane 1's failed try on its own
// loses out = 2: no path has lane 1 try once less than lane 0.
extern "C" __global__ void warp_count(volatile int* flag, int* out) {
  int lane = threadIdx.x;
  if (blockIdx.x == 0) {
    if (lane == 0) *flag = 1;
    return;
  }
  int cnt = 0, ok;
  do {
    ok = 0;
    if (lane == 0) {
      ok = *flag != 0;
      cnt = cnt < 2 ? cnt + 1 : 2;
    }
    ok = __shfl_sync(0xffffffffu, ok, 0);
  } while (!ok);
  if (lane == 0) *out = cnt;
}

// Two threads' seqlock in which only thread 0 copies the data: `v` is
// live at the loop head (thread 1 keeps 0 there and stores nothing), and
// thread 0's failed try comes back with the data it read in it; (R) drops
// it (written before any read, under a branch on %tid only). out: 0
// (before the writer) or 7.
extern "C" __global__ void reg_seqlock(volatile unsigned* seq, volatile int* data, int* out) {
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {
      *seq = 1;
      __threadfence();
      *data = 7;
      __threadfence();
      *seq = 2;
    }
    return;
  }
  int v = 0;
  unsigned s0, s1;
  do {
    s0 = *seq;
    __threadfence();
    if (threadIdx.x == 0) v = *data;
    __threadfence();
    s1 = *seq;
  } while (s0 != s1 || (s0 & 1));
  if (threadIdx.x == 0) *out = v;
}
