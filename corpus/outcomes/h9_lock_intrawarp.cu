// An intra-warp spinlock, legal with independent thread scheduling: lanes
// 0..2 of one warp take an atomicCAS lock in turn (__threadfence() after
// taking it and before the atomicExch release), increment a counter and
// record the value they read.
extern "C" __global__ void h9_lock_intrawarp(int* lock, int* counter, int* seen) {
  if (threadIdx.x >= 3) return;
  while (atomicCAS(lock, 0, 1) != 0) {}
  __threadfence();
  int c = *counter;
  seen[threadIdx.x] = c;
  *counter = c + 1;
  __threadfence();
  atomicExch(lock, 0);
}
