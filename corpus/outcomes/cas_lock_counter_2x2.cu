// A CAS spinlock protecting a plain counter, taken by every thread of two
// CTAs of two threads (four critical sections; the two threads of a CTA are
// lanes of one warp). Lock: spin on atomicCAS(lock, 0, 1), then
// __threadfence(); unlock: __threadfence(), then atomicExch(lock, 0).
extern "C" __global__ void cas_lock_counter_2x2(int* lock, int* counter)
{
    bool done = false;
    while (!done) {
        if (atomicCAS(lock, 0, 1) == 0) {
            __threadfence();
            *counter = *counter + 1;
            __threadfence();
            atomicExch(lock, 0);
            done = true;
        }
    }
}
