// A spinlock built from atomicCAS / atomicExch, with __threadfence() after
// taking the lock and before releasing it; thread 0 of every CTA increments
// a plain counter inside the critical section.
extern "C" __global__ void cas_lock_fence(int* lock, int* counter)
{
    if (threadIdx.x != 0) return;
    while (atomicCAS(lock, 0, 1) != 0) { }
    __threadfence();
    *counter = *counter + 1;
    __threadfence();
    atomicExch(lock, 0);
}
