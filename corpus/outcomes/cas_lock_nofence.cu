// cas_lock_fence without the fences (broken twin): the lock still excludes,
// but the relaxed atomics do not order the counter's accesses.
extern "C" __global__ void cas_lock_nofence(int* lock, int* counter)
{
    if (threadIdx.x != 0) return;
    while (atomicCAS(lock, 0, 1) != 0) { }
    *counter = *counter + 1;
    atomicExch(lock, 0);
}
