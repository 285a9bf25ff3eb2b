// A two-stage producer/consumer pipeline between two warps of one CTA of 96
// threads with named barriers (CUTLASS style): warp 2 fills a shared
// buffer, bar.arrive(1, 64) says "full"; warp 0 does bar.sync(1, 64), reads,
// then bar.arrive(2, 64) says "empty"; warp 2 waits with bar.sync(2, 64)
// before refilling. Two rounds; warp 1 takes no part. Lane 5 of warp 0
// writes what it read in each round.
__device__ __forceinline__ void bar_sync(int id, int n) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory");
}
__device__ __forceinline__ void bar_arrive(int id, int n) {
  asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(n) : "memory");
}
extern "C" __global__ void b9_bar_pipeline(int* out) {
  __shared__ int buf[32];
  unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int round = 0; round < 2; ++round) {
    if (warp == 2) {
      if (round > 0) bar_sync(2, 64);
      buf[lane] = 100 * (round + 1) + lane;
      bar_arrive(1, 64);
    } else if (warp == 0) {
      bar_sync(1, 64);
      int v = buf[(lane + 1) % 32];
      if (lane == 5) out[round] = v;
      if (round == 0) bar_arrive(2, 64);
    }
  }
}
