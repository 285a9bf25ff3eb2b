// PTX ISA 8.11.1 in a compiled kernel: CTA 1 stores x = 42 and releases
// flag = 1; CTA 0 adds 1 to flag with a reduction (red.relaxed.gpu, inline
// PTX), runs __threadfence() and reads x. A reduction's read is no acquire
// pattern, even when it reads the release store. Compare i9_atom_fence.
#include <cuda/atomic>
extern "C" __global__ void i9_red_fence(int* x, int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 1) {
    *x = 42;
    cuda::atomic_ref<int, cuda::thread_scope_device>(*flag).store(1, cuda::memory_order_release);
  } else {
    asm volatile("red.relaxed.gpu.global.add.u32 [%0], 1;" ::"l"(flag) : "memory");
    __threadfence();
    out[0] = *x;
  }
}
