// Broken twin (no fences). A CTA-scope spinlock in shared memory: lane 0 of
// each warp of one CTA (the spec: 2 warps) takes the lock with atomicCAS,
// increments a 16-bit shared counter and releases it with atomicExch(lock,
// 0), with no fence. After __syncthreads the last thread copies the
// counter out.
extern "C" __global__ void p9_lock_warps_shared_nofence(unsigned short* out) {
  __shared__ int lock;
  __shared__ unsigned short counter;
  if (threadIdx.x == 0) {
    lock = 0;
    counter = 0;
  }
  __syncthreads();
  if (threadIdx.x % 32 == 0) {
    while (atomicCAS(&lock, 0, 1) != 0) {}
    counter = counter + 1;
    atomicExch(&lock, 0);
  }
  __syncthreads();
  if (threadIdx.x == blockDim.x - 1) out[0] = counter;
}
