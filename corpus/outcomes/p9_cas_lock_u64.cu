// A gpu-scope CAS spinlock guarding a 64-bit counter: thread (0,1) of each
// of 2 CTAs of 2x2 threads adds blockIdx.x + 1 under the lock, with
// __threadfence after taking it and before releasing it.
extern "C" __global__ void p9_cas_lock_u64(int* lock, unsigned long long* counter) {
  if (threadIdx.x == 0 && threadIdx.y == 1) {
    while (atomicCAS(lock, 0, 1) != 0) {}
    __threadfence();
    *counter += blockIdx.x + 1;
    __threadfence();
    atomicExch(lock, 0);
  }
}
