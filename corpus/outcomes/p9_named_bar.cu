// Named-barrier handoff in a CTA of 3 warps: warp 0 fills a shared array
// and arrives at barrier 1 (bar.arrive 1, 64); warp 2 waits there
// (bar.sync 1, 64) and copies two elements out; warp 1 takes no part.
// The array is zeroed before a __syncthreads.
extern "C" __global__ void p9_named_bar(unsigned short* out) {
  __shared__ unsigned short buf[32];
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (warp == 0) buf[lane] = 0;
  __syncthreads();
  if (warp == 0) {
    buf[lane] = (unsigned short)(lane * 3 + 1);
    asm volatile("bar.arrive 1, 64;" ::: "memory");
  } else if (warp == 2) {
    asm volatile("bar.sync 1, 64;" ::: "memory");
    if (lane == 5) {
      out[0] = buf[3];
      out[1] = buf[17];
    }
  }
}
