// A CAS spinlock from relaxed cuda::atomic_ref operations and standalone
// fences: compare_exchange_weak(relaxed) then atomic_thread_fence(acquire);
// atomic_thread_fence(release) then store(relaxed) (fence.acq_rel.gpu and
// st.relaxed.gpu: release and acquire patterns, PTX ISA 8.8 form 3).
// Thread 5 of each of 3 CTAs updates a two-field struct: a += 1,
// b = 2 * b + blockIdx.x, so b records the order of the holders.
#include <cuda/atomic>
struct P {
  int a;
  int b;
};
extern "C" __global__ void g9_lock_fences_relaxed(unsigned* lock, P* p) {
  if (threadIdx.x != 5) return;
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> l(*lock);
  unsigned e;
  do {
    e = 0u;
  } while (!l.compare_exchange_weak(e, 1u, cuda::memory_order_relaxed));
  cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
  p->a += 1;
  p->b = p->b * 2 + (int)blockIdx.x;
  cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
  l.store(0u, cuda::memory_order_relaxed);
}
