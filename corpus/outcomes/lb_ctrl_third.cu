// As lb_deps_third, but CTA 1 writes x = 1 only if it read y == 1: a
// control dependency instead of a data dependency (PTX ISA 9.2 8.10.4).
#include <cuda/atomic>

extern "C" __global__ void lb_ctrl_third(int* x, int* y, int* f, int* out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> X(*x), Y(*y), F(*f);
  if (blockIdx.x == 0) {
    int r = X.load(cuda::memory_order_relaxed);
    Y.store(r, cuda::memory_order_relaxed);
    F.store(1, cuda::memory_order_release);
    out[0] = r;
  } else if (blockIdx.x == 1) {
    int r = Y.load(cuda::memory_order_relaxed);
    if (r == 1) X.store(1, cuda::memory_order_relaxed);
    out[1] = r;
  } else {
    int r = F.load(cuda::memory_order_acquire);
    if (r != 0) X.store(1, cuda::memory_order_relaxed);
    out[2] = r;
  }
}
