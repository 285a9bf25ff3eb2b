// Issue 9: a last block with a cuda::atomic_ref ticket. Threads t < nb of
// each CTA add 1 + blockIdx.x into bin t (relaxed atomicAdd), __syncthreads(),
// thread 0 takes the ticket with fetch_add(1, acq_rel) at device scope and
// no fence; the CTA that draws the last ticket copies the bins.
#include <cuda/atomic>

extern "C" __global__ void t9_ticket_ref(unsigned* hist, unsigned* ticket, unsigned* out, int nb) {
  unsigned t = threadIdx.x;
  if (t < nb) atomicAdd(&hist[t], 1u + blockIdx.x);
  __syncthreads();
  if (t == 0) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> tk(*ticket);
    if (tk.fetch_add(1, cuda::memory_order_acq_rel) == gridDim.x - 1)
      for (int i = 0; i < nb; ++i) out[i] = hist[i];
  }
}
