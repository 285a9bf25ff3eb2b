// Broken twin of p9_mp2d_u64: the consumer has no fence after the flag,
// so no acquire pattern; each data word may be stale.
extern "C" __global__ void p9_mp2d_u64_noacq(unsigned long long* data, volatile int* flag, unsigned long long* out) {
  if (blockIdx.x == 0 && threadIdx.x == 1 && threadIdx.y == 1) {
    data[0] = 0x1122334455667788ull;
    data[1] = 0x99ull;
    __threadfence();
    *flag = 1;
  } else if (blockIdx.x == 1 && threadIdx.x == 3 && threadIdx.y == 0) {
    while (*flag == 0) {}
    out[0] = data[0];
    out[1] = data[1];
  }
}
