// LB+deps (PTX ISA 9.2 8.10.4) as lb_deps_third, with every dependency
// routed through __noinline__ functions: CTA 0 stores to y what pass()
// returns from its argument (a .param argument and return value), CTA 1
// hands its read to put(), whose callee twice() nests a second call, and
// put() stores it to x. CTA 2 writes x = 1 once it has acquired the flag
// CTA 0 released after its read. Reading 1 in CTA 0 or 1 needs the thin-air
// cycle through the two calls.
#include <cuda/atomic>

using Ref = cuda::atomic_ref<int, cuda::thread_scope_device>;

__device__ __noinline__ int pass(int v) { return v; }
__device__ __noinline__ int twice(int v, int n) { return n == 0 ? v : twice(2 * v, n - 1) / 2; }
__device__ __noinline__ void put(int* p, int v, int n) { Ref(*p).store(twice(v, n), cuda::memory_order_relaxed); }

extern "C" __global__ void lb_deps_call(int* x, int* y, int* f, int* out, int n) {
  Ref X(*x), Y(*y), F(*f);
  if (blockIdx.x == 0) {
    int r = X.load(cuda::memory_order_relaxed);
    Y.store(pass(r), cuda::memory_order_relaxed);
    F.store(1, cuda::memory_order_release);
    out[0] = r;
  } else if (blockIdx.x == 1) {
    int r = Y.load(cuda::memory_order_relaxed);
    put(x, r, n);
    out[1] = r;
  } else {
    int r = F.load(cuda::memory_order_acquire);
    if (r != 0) X.store(1, cuda::memory_order_relaxed);
    out[2] = r;
  }
}
