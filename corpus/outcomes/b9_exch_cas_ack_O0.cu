// corpus-flags: -Xcicc -O0
// b9_exch_cas_ack (same handshake) built with -Xcicc -O0: atomicExch, atomicOr
// and atomicCAS are called functions (__iAtomicCAS ...) whose arguments and
// results pass through .param variables of call sequences, inside both spins.
// A two-way handshake through one flag word driven by atomicExch, atomicOr
// and atomicCAS, between lane 3 of CTA 0 (P) and lane 0 of CTA 1 (C), two
// CTAs of 64 threads: P writes data, __threadfence, atomicExch(flag, 1);
// C polls with atomicOr(flag, 0) until 1, __threadfence, reads data and
// writes reply = 3 * data, __threadfence, atomicExch(flag, 2); P spins on
// atomicCAS(flag, 2, 3) until it returns 2, __threadfence, copies reply.
extern "C" __global__ void b9_exch_cas_ack_O0(int* data, int* reply, int* flag, int* out) {
  if (blockIdx.x == 0 && threadIdx.x == 3) {
    *data = 11;
    __threadfence();
    atomicExch(flag, 1);
    while (atomicCAS(flag, 2, 3) != 2) {}
    __threadfence();
    out[0] = *reply;
  }
  if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (atomicOr(flag, 0) != 1) {}
    __threadfence();
    *reply = 3 * *data;
    __threadfence();
    atomicExch(flag, 2);
  }
}
