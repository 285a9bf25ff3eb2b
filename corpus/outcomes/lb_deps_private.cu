// LB+deps (PTX ISA 9.2 8.10.4) as lb_deps_third, with every dependency
// passing through global memory that only its own thread accesses: CTA 0
// and CTA 1 store the value they read into their own slot of `scratch`
// through the __noinline__ put() and store to y and x what the
// __noinline__ get() loads back from it (the calls keep the compiler from
// forwarding the value: a st.global and a ld.global of the same thread).
// CTA 2 writes x = 1 once it has acquired the flag CTA 0 released after
// its read. Reading 1 in CTA 0 or 1 needs the thin-air cycle through the
// two slots.
#include <cuda/atomic>

using Ref = cuda::atomic_ref<int, cuda::thread_scope_device>;

__device__ __noinline__ void put(int* p, int v) { *p = v; }
__device__ __noinline__ int get(const int* p) { return *p; }

extern "C" __global__ void lb_deps_private(int* x, int* y, int* f, int* out, int* scratch) {
  Ref X(*x), Y(*y), F(*f);
  if (blockIdx.x == 0) {
    int r = X.load(cuda::memory_order_relaxed);
    put(&scratch[0], r);
    Y.store(get(&scratch[0]), cuda::memory_order_relaxed);
    F.store(1, cuda::memory_order_release);
    out[0] = r;
  } else if (blockIdx.x == 1) {
    int r = Y.load(cuda::memory_order_relaxed);
    put(&scratch[1], r);
    X.store(get(&scratch[1]), cuda::memory_order_relaxed);
    out[1] = r;
  } else {
    int r = F.load(cuda::memory_order_acquire);
    if (r != 0) X.store(1, cuda::memory_order_relaxed);
    out[2] = r;
  }
}
