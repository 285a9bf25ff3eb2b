// seqlock with every access relaxed and no fence (broken twin): the reader
// can accept a torn or a stale snapshot.
#include <cuda/atomic>

extern "C" __global__ void seqlock_relaxed(int* seq, int* d, int* out)
{
    if (threadIdx.x != 0) return;
    using A = cuda::atomic_ref<int, cuda::thread_scope_device>;
    A s(*seq), d0(d[0]), d1(d[1]);
    if (blockIdx.x == 0) {
        s.store(1, cuda::memory_order_relaxed);
        d0.store(2, cuda::memory_order_relaxed);
        d1.store(2, cuda::memory_order_relaxed);
        s.store(2, cuda::memory_order_relaxed);
    } else {
        int s1, s2, a, b;
        do {
            s1 = s.load(cuda::memory_order_relaxed);
            a = d0.load(cuda::memory_order_relaxed);
            b = d1.load(cuda::memory_order_relaxed);
            s2 = s.load(cuda::memory_order_relaxed);
        } while (s1 != s2 || (s1 & 1));
        out[0] = a;
        out[1] = b;
    }
}
