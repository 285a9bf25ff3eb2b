// LB+deps (PTX ISA 9.2 8.10.4) as lb_deps_third, with every dependency
// passing through the thread's .local memory: CTA 0 and CTA 1 store the
// value they read into a local array at an index taken from the kernel
// argument `k` and store to y and x what they load back from it at the
// index `j` (the launch passes j = k = 3; unknown to the compiler, so the
// array stays in .local: st.local / ld.local).
// CTA 2 writes x = 1 once it has acquired the flag CTA 0 released after its
// read. Reading 1 in CTA 0 or 1 needs the thin-air cycle through the two
// arrays.
#include <cuda/atomic>

using Ref = cuda::atomic_ref<int, cuda::thread_scope_device>;

extern "C" __global__ void lb_deps_local(int* x, int* y, int* f, int* out, int k, int j) {
  Ref X(*x), Y(*y), F(*f);
  int buf[8];
  for (int i = 0; i < 8; ++i) buf[i] = i + 2;
  if (blockIdx.x == 0) {
    int r = X.load(cuda::memory_order_relaxed);
    buf[k & 7] = r;
    Y.store(buf[j & 7], cuda::memory_order_relaxed);
    F.store(1, cuda::memory_order_release);
    out[0] = r;
  } else if (blockIdx.x == 1) {
    int r = Y.load(cuda::memory_order_relaxed);
    buf[k & 7] = r;
    X.store(buf[j & 7], cuda::memory_order_relaxed);
    out[1] = r;
  } else {
    int r = F.load(cuda::memory_order_acquire);
    if (r != 0) X.store(1, cuda::memory_order_relaxed);
    out[2] = r;
  }
}
