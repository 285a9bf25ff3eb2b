// IRIW with seq_cst cuda::atomic_ref<int, device>, thread 0 of 4 CTAs:
// CTA 0 writes x, CTA 1 writes y, CTA 2 reads x then y, CTA 3 reads y then x.
#include <cuda/atomic>
extern "C" __global__ void h9_iriw_seqcst(int* x, int* y, int* r) {
  if (threadIdx.x != 0) return;
  cuda::atomic_ref<int, cuda::thread_scope_device> X(*x), Y(*y);
  const cuda::memory_order sc = cuda::memory_order_seq_cst;
  switch (blockIdx.x) {
    case 0: X.store(1, sc); break;
    case 1: Y.store(1, sc); break;
    case 2:
      r[0] = X.load(sc);
      r[1] = Y.load(sc);
      break;
    case 3:
      r[2] = Y.load(sc);
      r[3] = X.load(sc);
      break;
  }
}
