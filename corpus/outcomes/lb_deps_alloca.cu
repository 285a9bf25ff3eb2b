// LB+deps (PTX ISA 9.2 8.10.4) as lb_deps_third, with every dependency
// passing through stack memory from alloca (a dynamic size `n` from the
// launch): CTA 0 and CTA 1 store the value they read into their alloca'd
// array through set(), a __noinline__ function that gets a generic pointer
// (CTA 2 calls it with a global one, so its st stays generic: a store into
// the local window), at index k, and store to y and x
// what they load back at index j (the launch passes n = 4, j = k = 1).
// CTA 2 writes x = 1 once it has acquired the flag CTA 0 released after
// its read. Reading 1 in CTA 0 or 1 needs the thin-air cycle through the
// two arrays.
#include <cuda/atomic>

using Ref = cuda::atomic_ref<int, cuda::thread_scope_device>;

__device__ __noinline__ void set(int* p, int i, int v) { p[i] = v; }

extern "C" __global__ void lb_deps_alloca(int* x, int* y, int* f, int* out, int n, int k, int j) {
  Ref X(*x), Y(*y), F(*f);
  int* buf = static_cast<int*>(alloca(n * sizeof(int)));
  for (int i = 0; i < n; ++i) buf[i] = i + 2;
  if (blockIdx.x == 0) {
    int r = X.load(cuda::memory_order_relaxed);
    set(buf, k, r);
    Y.store(buf[j], cuda::memory_order_relaxed);
    F.store(1, cuda::memory_order_release);
    out[0] = r;
  } else if (blockIdx.x == 1) {
    int r = Y.load(cuda::memory_order_relaxed);
    set(buf, k, r);
    X.store(buf[j], cuda::memory_order_relaxed);
    out[1] = r;
  } else {
    int r = F.load(cuda::memory_order_acquire);
    if (r != 0) X.store(1, cuda::memory_order_relaxed);
    set(out, 2, r);  // set() also gets a global pointer: its store stays generic
  }
}
