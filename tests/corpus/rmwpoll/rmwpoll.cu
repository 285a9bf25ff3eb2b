// Polls that read a flag through an atomic which writes back the value it
// read (probe9k's k22): CTA 0 thread 0 waits with atomicAdd(flag, 0)
// (rp_add) or atomicCAS(flag, 0, 0) (rp_cas), then __threadfence() and reads
// two words that CTA 1 thread 0 wrote before __threadfence() and
// atomicExch(flag, 1). The launch is not cooperative: the machine runs CTA 0
// first, whose poll finds the flag deterministic and must make it
// communicating, as a plain poll does.
//
// PTX ISA 9.2: the producer's fence.sc.gpu; atom.exch is a release pattern
// (8.8 form 3), the consumer's atom that reads 1 followed by fence.sc.gpu an
// acquire pattern (form 3; an atom, not a red, 8.11.1); they synchronize
// (8.9.4 item 4), so both data writes precede the reads in causality order
// and the reads return them (8.10.6): out = 5 + 10 * 6 = 65, the one state,
// without races.
extern "C" __global__ void rp_add(int* data, int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 1) {
    data[0] = 5;
    data[1] = 6;
    __threadfence();
    atomicExch(flag, 1);
  } else {
    while (atomicAdd(flag, 0) == 0) {}
    __threadfence();
    out[0] = data[0] + 10 * data[1];
  }
}

extern "C" __global__ void rp_cas(int* data, int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 1) {
    data[0] = 5;
    data[1] = 6;
    __threadfence();
    atomicExch(flag, 1);
  } else {
    while (atomicCAS(flag, 0, 0) == 0) {}
    __threadfence();
    out[0] = data[0] + 10 * data[1];
  }
}
