// Spin-waits whose registers change at every poll (spin_clock_*.json;
// docs/interpreter.md "Clocks" and "Spins without progress"): a poll
// counter with an exponential __nanosleep backoff, and timeouts on
// %clock64 and %globaltimer, and a cuda::barrier wait that never completes
// (libcu++ polls with a %globaltimer backoff); a ping-pong between two
// warps, and a lane that polls a flag a lane of its own warp sets. Built
// twice:
// nvcc -ptx -arch=sm_90 -O3 (spin_clock_O3.ptx) and -G (spin_clock_G.ptx).
#include <cstdint>
#include <cuda/barrier>

__device__ __forceinline__ uint64_t globaltimer() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Thread 0 of CTA 0 polls a flag that thread 0 of the last CTA sets (never,
// with one CTA: a livelock; a later CTA of a non-cooperative launch: that
// message; a cooperative launch: it sees 7), counting its polls and backing
// off up to 256 ns. out = {flag seen, polls}.
extern "C" __global__ void backoff(volatile unsigned* flag, unsigned* out) {
  if (blockIdx.x + 1 == gridDim.x && blockIdx.x != 0 && threadIdx.x == 0) *flag = 7;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    unsigned tries = 0, ns = 8;
    while (*flag == 0) {
      ++tries;
      __nanosleep(ns);
      if (ns < 256) ns *= 2;
    }
    out[0] = *flag;
    out[1] = tries;
  }
}

// Thread 0 waits for the flag at most `limit` cycles of %clock64. Warp
// `setter` (none when it is not a warp of the block) first runs `work`
// iterations of arithmetic that stores nothing, then sets the flag.
// out[3 * CTA ...] = {1: the flag was seen, 2: timed out; the flag read; the
// work's result}.
extern "C" __global__ void clock_timeout(volatile unsigned* flag, unsigned* out, long long limit, unsigned setter,
                                         unsigned work) {
  out += 3 * blockIdx.x;
  if (threadIdx.x == 32 * setter) {
    unsigned x = threadIdx.x + 1;
    for (unsigned i = 0; i < work; ++i) x = x * 1664525u + 1013904223u;
    out[2] = x;
    *flag = 7;
  }
  if (threadIdx.x == 0) {
    const long long t0 = clock64();
    unsigned v;
    while ((v = *flag) == 0 && clock64() - t0 < limit) {}
    out[0] = v ? 1 : 2;
    out[1] = v;
  }
}

// Every thread of the block waits `ns` nanoseconds of %globaltimer (no
// flag: the clock alone ends the loop), then counts itself in out[0].
extern "C" __global__ void timer_delay(unsigned* out, unsigned long long ns) {
  const uint64_t t0 = globaltimer();
  while (globaltimer() - t0 < ns) {}
  atomicAdd(out, 1u);
}

// A cuda::barrier that expects one arrival more than the block gives: every
// thread's wait polls forever, and only the elapsed %globaltimer time
// changes what its backoff does. out[0] would count the threads past it.
extern "C" __global__ void barrier_short(unsigned* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x + 1);
  __syncthreads();
  bar.arrive_and_wait();
  atomicAdd(out, 1u);
}

// Warps 0 and 1 hand `n` items back and forth through two volatile shared
// words, each spinning on the other's (a poll between two handoffs).
// out[0] = the sum of the items warp 1 received.
extern "C" __global__ void pingpong(unsigned* out, unsigned n) {
  __shared__ volatile unsigned ping, pong;
  if (threadIdx.x == 0) ping = pong = 0;
  __syncthreads();
  unsigned sum = 0;
  for (unsigned i = 1; i <= n; ++i) {
    if (threadIdx.x == 0) {
      ping = i;
      while (pong != i) {}
    }
    if (threadIdx.x == 32) {
      while (ping != i) {}
      sum += i;
      pong = i;
    }
  }
  if (threadIdx.x == 32) out[0] = sum;
}

// Lane 16 polls a flag that lane 0 of its own warp sets after `work`
// iterations of arithmetic (independent thread scheduling: lane 0 must get
// turns while lane 16 polls). out = {the flag seen, the work's result}.
extern "C" __global__ void lane_wait(unsigned* out, unsigned work) {
  __shared__ volatile unsigned flag;
  if (threadIdx.x == 0) flag = 0;
  __syncwarp();
  if (threadIdx.x == 16) {
    while (flag == 0) {}
    out[0] = flag;
  } else if (threadIdx.x == 0) {
    unsigned x = 1;
    for (unsigned i = 0; i < work; ++i) x = x * 1664525u + 1013904223u;
    out[1] = x;
    flag = 7;
  }
}
