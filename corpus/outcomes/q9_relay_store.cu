// probe9k's k15n: CTA 2 writes data and releases flag = 1
// (atomic_ref<int, device>); a relay in CTA 1 waits for flag != 0 with
// relaxed loads and then stores 2 with a relaxed store (a plain store ends the
// observation order, PTX ISA 8.9.2); CTA 0 waits for flag == 2 with acquire
// loads and reads data. Blocks (4,4); the roles are thread (1,2).
#include <cuda/atomic>
extern "C" __global__ void q9_relay_store(int* data, int* flag, int* out) {
  if (threadIdx.x != 1 || threadIdx.y != 2) return;
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  if (blockIdx.x == 2) {
    data[0] = 31;
    f.store(1, cuda::std::memory_order_release);
  } else if (blockIdx.x == 1) {
    while (f.load(cuda::std::memory_order_relaxed) == 0) {}
    f.store(2, cuda::std::memory_order_relaxed);
  } else {
    while (f.load(cuda::std::memory_order_acquire) != 2) {}
    out[0] = data[0];
  }
}
