// Warp-level message passing. Producer: warp 0 of CTA 1, every lane stores
// data[lane], __syncwarp(), lane 0 __threadfence() and a volatile flag.
// Consumer: warp 1 of CTA 0, lane 0 polls the flag, __syncwarp(), every
// lane runs __threadfence(); lanes 0 and 17 read their element. Lane 17
// never read the flag: Fence-SC order orders the producer's fence before
// its fence (its own would come before lane 0's read of the flag otherwise).
// Compare j9_warp_acq_poll.
extern "C" __global__ void j9_warp_sc_poll(int* data, int* flag, int* out) {
  unsigned lane = threadIdx.x % 32, w = threadIdx.x / 32;
  if (blockIdx.x == 1 && w == 0) {
    data[lane] = 100 + lane;
    __syncwarp();
    if (lane == 0) {
      __threadfence();
      *(volatile int*)flag = 1;
    }
  } else if (blockIdx.x == 0 && w == 1) {
    if (lane == 0)
      while (*(volatile int*)flag == 0) {}

    __syncwarp();
    __threadfence();
    if (lane == 0) out[0] = data[0];
    if (lane == 17) out[1] = data[17];
  }
}
