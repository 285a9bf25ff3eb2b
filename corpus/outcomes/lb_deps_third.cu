// LB+deps (PTX ISA 9.2 8.10.4) where the value 1 exists: CTA 0 copies x to
// y and then releases a flag, CTA 1 copies y to x, CTA 2 writes x = 1 once
// it has acquired the flag. Each records the value it read. CTA 0 cannot
// read CTA 2's 1 (that write follows its read in causality order), so
// reading 1 needs the thin-air cycle through the two copies.
#include <cuda/atomic>

extern "C" __global__ void lb_deps_third(int* x, int* y, int* f, int* out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> X(*x), Y(*y), F(*f);
  if (blockIdx.x == 0) {
    int r = X.load(cuda::memory_order_relaxed);
    Y.store(r, cuda::memory_order_relaxed);
    F.store(1, cuda::memory_order_release);
    out[0] = r;
  } else if (blockIdx.x == 1) {
    int r = Y.load(cuda::memory_order_relaxed);
    X.store(r, cuda::memory_order_relaxed);
    out[1] = r;
  } else {
    int r = F.load(cuda::memory_order_acquire);
    if (r != 0) X.store(1, cuda::memory_order_relaxed);
    out[2] = r;
  }
}
