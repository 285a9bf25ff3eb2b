// Issue 9: t9_ticket_bins without the fence before the ticket: a CTA's adds
// form no release pattern with its ticket (PTX ISA 8.8), so the last CTA's
// copy may miss them although it fences after its ticket.
extern "C" __global__ void t9_ticket_bins_norel(unsigned long long* hist, unsigned* ticket, unsigned long long* out,
                                                int nb) {
  if (threadIdx.x != 0) return;
  for (int i = 0; i < nb; ++i) atomicAdd(&hist[i], 1ull + blockIdx.x);
  unsigned k = atomicInc(ticket, gridDim.x);
  if (k == gridDim.x - 1) {
    __threadfence();
    for (int i = 0; i < nb; ++i) out[i] = hist[i];
  }
}
