// Issue 9: thread 0 of each CTA adds 1 + blockIdx.x into nb global u64 bins
// (atomicAdd, results unused), runs __threadfence() and takes an atomicInc
// ticket; the CTA that draws the last ticket fences again and copies the
// bins with plain loads.
extern "C" __global__ void t9_ticket_bins(unsigned long long* hist, unsigned* ticket, unsigned long long* out, int nb) {
  if (threadIdx.x != 0) return;
  for (int i = 0; i < nb; ++i) atomicAdd(&hist[i], 1ull + blockIdx.x);
  __threadfence();
  unsigned k = atomicInc(ticket, gridDim.x);
  if (k == gridDim.x - 1) {
    __threadfence();
    for (int i = 0; i < nb; ++i) out[i] = hist[i];
  }
}
