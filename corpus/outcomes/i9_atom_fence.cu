// i9_red_fence with atomicAdd(flag, 1) instead of the reduction: nvcc emits
// atom.global.add (its result unused), whose read with the following
// __threadfence() is an acquire pattern (PTX ISA 8.8, third form).
#include <cuda/atomic>
extern "C" __global__ void i9_atom_fence(int* x, int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 1) {
    *x = 42;
    cuda::atomic_ref<int, cuda::thread_scope_device>(*flag).store(1, cuda::memory_order_release);
  } else {
    atomicAdd(flag, 1);
    __threadfence();
    out[0] = *x;
  }
}
