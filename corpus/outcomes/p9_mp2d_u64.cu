// Message passing of two 64-bit words between CTAs of a 2D block:
// producer CTA 0 thread (1,1) writes data, __threadfence, volatile flag;
// consumer CTA 1 thread (3,0) spins on the flag, __threadfence, reads data.
extern "C" __global__ void p9_mp2d_u64(unsigned long long* data, volatile int* flag, unsigned long long* out) {
  if (blockIdx.x == 0 && threadIdx.x == 1 && threadIdx.y == 1) {
    data[0] = 0x1122334455667788ull;
    data[1] = 0x99ull;
    __threadfence();
    *flag = 1;
  } else if (blockIdx.x == 1 && threadIdx.x == 3 && threadIdx.y == 0) {
    while (*flag == 0) {}
    __threadfence();
    out[0] = data[0];
    out[1] = data[1];
  }
}
