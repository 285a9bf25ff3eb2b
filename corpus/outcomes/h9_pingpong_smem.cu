// Ping-pong through ONE shared slot between two warps of a (16,4) block:
// thread (0,0) (warp 0) produces 3 items, thread (0,3) (warp 1) consumes
// them; volatile shared flags, __threadfence_block() on both sides, and the
// producer waits for the consumer's ack before it reuses the slot. nvcc
// unrolls the producer's loop and keeps the consumer's: the consumer's loop
// needs 3 passes, more than the first bound of 1.
extern "C" __global__ void h9_pingpong_smem(int* out) {
  __shared__ int slot;
  __shared__ volatile int full, ack;
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t == 0) {
    full = 0;
    ack = 0;
  }
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    for (int i = 0; i < 3; ++i) {
      slot = 10 * (i + 1);
      __threadfence_block();
      full = i + 1;
      while (ack != i + 1) {}
      __threadfence_block();
    }
  } else if (threadIdx.x == 0 && threadIdx.y == 3) {
    for (int i = 0; i < 3; ++i) {
      while (full != i + 1) {}
      __threadfence_block();
      out[i] = slot;
      __threadfence_block();
      ack = i + 1;
    }
  }
}
