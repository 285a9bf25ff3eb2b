// Decoupled look-back with the flag and the inclusive prefix packed in one
// 64-bit status word per CTA: thread 0 of CTA b spins on atomicAdd(&status
// [b-1], 0) (an RMW that writes back what it read) until the flag bit is
// set, then publishes its own inclusive prefix with atomicExch. Four CTAs.
extern "C" __global__ void lookback_rmw(const int* in, unsigned long long* status, int* out) {
  if (threadIdx.x != 0) return;
  int b = blockIdx.x;
  int prefix = 0;
  if (b > 0) {
    unsigned long long s;
    do {
      s = atomicAdd(&status[b - 1], 0ull);
    } while ((s >> 32) == 0);
    prefix = (int)(s & 0xffffffffu);
  }
  int incl = prefix + in[b];
  atomicExch(&status[b], (1ull << 32) | (unsigned)incl);
  out[b] = incl;
}
