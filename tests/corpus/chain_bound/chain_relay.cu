// A value chain through two locations (tests/corpus/chain_bound_xcheck.py):
// warp 0 reads x and writes y = x + 1, twice; warp 1 reads y and writes
// x = y + 1, twice (volatile: relaxed.sys). The last read can return 3,
// whose chain has all the writes of y and one of x.
extern "C" __global__ void chain_relay(volatile int* x, volatile int* y, int* out) {
  if (threadIdx.x == 0) {
    int a = *x;
    *y = a + 1;
    int b = *x;
    *y = b + 1;
    out[0] = a;
    out[1] = b;
  }
  if (threadIdx.x == 32) {
    int c = *y;
    *x = c + 1;
    int d = *y;
    *x = d + 1;
    out[2] = c;
    out[3] = d;
  }
}
