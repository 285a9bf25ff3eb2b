// Issue 9: t9_ticket_bins without the fence after the ticket: the last CTA's
// copy of the bins forms no acquire pattern (PTX ISA 8.8) and may miss
// another CTA's adds.
extern "C" __global__ void t9_ticket_bins_noacq(unsigned long long* hist, unsigned* ticket, unsigned long long* out,
                                                int nb) {
  if (threadIdx.x != 0) return;
  for (int i = 0; i < nb; ++i) atomicAdd(&hist[i], 1ull + blockIdx.x);
  __threadfence();
  unsigned k = atomicInc(ticket, gridDim.x);
  if (k == gridDim.x - 1)
    for (int i = 0; i < nb; ++i) out[i] = hist[i];
}
