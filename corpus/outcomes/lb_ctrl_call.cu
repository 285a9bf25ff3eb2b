// As lb_ctrl_third (a control dependency, PTX ISA 9.2 8.10.4), with the
// condition computed by a __noinline__ function: CTA 1 writes x = 1 only if
// is_one() says the value it read from y is 1, so the branch depends on the
// read through the call's .param argument and return value. CTA 0 copies x
// to y through pass() and releases a flag; CTA 2 writes x = 1 once it has
// acquired the flag.
#include <cuda/atomic>

using Ref = cuda::atomic_ref<int, cuda::thread_scope_device>;

__device__ __noinline__ int pass(int v) { return v; }
__device__ __noinline__ bool is_one(int v) { return v == 1; }

extern "C" __global__ void lb_ctrl_call(int* x, int* y, int* f, int* out) {
  Ref X(*x), Y(*y), F(*f);
  if (blockIdx.x == 0) {
    int r = X.load(cuda::memory_order_relaxed);
    Y.store(pass(r), cuda::memory_order_relaxed);
    F.store(1, cuda::memory_order_release);
    out[0] = r;
  } else if (blockIdx.x == 1) {
    int r = Y.load(cuda::memory_order_relaxed);
    if (is_one(r)) X.store(1, cuda::memory_order_relaxed);
    out[1] = r;
  } else {
    int r = F.load(cuda::memory_order_acquire);
    if (r != 0) X.store(1, cuda::memory_order_relaxed);
    out[2] = r;
  }
}
