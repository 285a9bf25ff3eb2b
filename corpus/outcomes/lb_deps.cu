// Load buffering with data dependencies (PTX ISA 9.2 8.10.4, "LB+deps"),
// relaxed: CTA 0 copies x to y, CTA 1 copies y to x, each through a
// register, and records the value it read.
#include <cuda/atomic>

extern "C" __global__ void lb_deps(int* x, int* y, int* out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> X(*x), Y(*y);
  if (blockIdx.x == 0) {
    int r = X.load(cuda::memory_order_relaxed);
    Y.store(r, cuda::memory_order_relaxed);
    out[0] = r;
  } else {
    int r = Y.load(cuda::memory_order_relaxed);
    X.store(r, cuda::memory_order_relaxed);
    out[1] = r;
  }
}
