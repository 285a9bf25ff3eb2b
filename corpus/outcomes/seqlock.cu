// A sequence lock between two CTAs: CTA 0 updates the pair d[0], d[1] from
// (1, 1) to (2, 2) inside an odd sequence number, CTA 1 reads a snapshot and
// retries until the sequence number was even and unchanged. The data are
// relaxed atomics; the writer fences after making the sequence odd, the
// reader reads the data with acquire loads.
#include <cuda/atomic>

extern "C" __global__ void seqlock(int* seq, int* d, int* out)
{
    if (threadIdx.x != 0) return;
    using A = cuda::atomic_ref<int, cuda::thread_scope_device>;
    A s(*seq), d0(d[0]), d1(d[1]);
    if (blockIdx.x == 0) {
        s.store(1, cuda::memory_order_relaxed);
        cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
        d0.store(2, cuda::memory_order_relaxed);
        d1.store(2, cuda::memory_order_relaxed);
        s.store(2, cuda::memory_order_release);
    } else {
        int s1, s2, a, b;
        do {
            s1 = s.load(cuda::memory_order_acquire);
            a = d0.load(cuda::memory_order_acquire);
            b = d1.load(cuda::memory_order_acquire);
            s2 = s.load(cuda::memory_order_relaxed);
        } while (s1 != s2 || (s1 & 1));
        out[0] = a;
        out[1] = b;
    }
}
