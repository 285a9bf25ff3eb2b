// A CTA-scope spinlock in shared memory: lane 0 of each of the 3 warps of
// one CTA takes the lock with atomicCAS, __threadfence_block, increments a
// 16-bit shared counter, __threadfence_block, atomicExch(lock, 0). After
// __syncthreads the last thread copies the counter out.
extern "C" __global__ void p9_lock_warps_shared(unsigned short* out) {
  __shared__ int lock;
  __shared__ unsigned short counter;
  if (threadIdx.x == 0) {
    lock = 0;
    counter = 0;
  }
  __syncthreads();
  if (threadIdx.x % 32 == 0) {
    while (atomicCAS(&lock, 0, 1) != 0) {}
    __threadfence_block();
    counter = counter + 1;
    __threadfence_block();
    atomicExch(&lock, 0);
  }
  __syncthreads();
  if (threadIdx.x == blockDim.x - 1) out[0] = counter;
}
