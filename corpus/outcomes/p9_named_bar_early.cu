// Broken twin of p9_named_bar: warp 0 arrives at barrier 1 before it
// fills the array, so warp 2's reads are not ordered after the writes.
extern "C" __global__ void p9_named_bar_early(unsigned short* out) {
  __shared__ unsigned short buf[32];
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (warp == 0) buf[lane] = 0;
  __syncthreads();
  if (warp == 0) {
    asm volatile("bar.arrive 1, 64;" ::: "memory");
    buf[lane] = (unsigned short)(lane * 3 + 1);
  } else if (warp == 2) {
    asm volatile("bar.sync 1, 64;" ::: "memory");
    if (lane == 5) {
      out[0] = buf[3];
      out[1] = buf[17];
    }
  }
}
