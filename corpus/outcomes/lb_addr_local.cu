// LB (PTX ISA 9.2 8.10.4) where the dependency is carried by an address:
// CTA 0 and CTA 1 store the constant 1 into a zeroed .local array at an
// index computed from the value they read (r + k, with k from the launch,
// so the array stays in .local), then load the element at index j and store
// it to y and x. With k = 3 and j = 4, the element is 1 exactly when the
// read returned 1. CTA 2 writes x = 1 once it has acquired the flag CTA 0
// released after its read. Reading 1 in CTA 0 or 1 needs the thin-air
// cycle through the two arrays.
#include <cuda/atomic>

using Ref = cuda::atomic_ref<int, cuda::thread_scope_device>;

extern "C" __global__ void lb_addr_local(int* x, int* y, int* f, int* out, int k, int j) {
  Ref X(*x), Y(*y), F(*f);
  int buf[8];
  for (int i = 0; i < 8; ++i) buf[i] = 0;
  if (blockIdx.x == 0) {
    int r = X.load(cuda::memory_order_relaxed);
    buf[(r + k) & 7] = 1;
    Y.store(buf[j & 7], cuda::memory_order_relaxed);
    F.store(1, cuda::memory_order_release);
    out[0] = r;
  } else if (blockIdx.x == 1) {
    int r = Y.load(cuda::memory_order_relaxed);
    buf[(r + k) & 7] = 1;
    X.store(buf[j & 7], cuda::memory_order_relaxed);
    out[1] = r;
  } else {
    int r = F.load(cuda::memory_order_acquire);
    if (r != 0) X.store(1, cuda::memory_order_relaxed);
    out[2] = r;
  }
}
