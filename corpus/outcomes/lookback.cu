// Decoupled look-back (single-pass prefix sum) over CTAs of one thread each.
// CTA b publishes its aggregate (flag[b] = 1) and, once it knows its
// inclusive prefix, the prefix (flag[b] = 2), each with a release store;
// it looks back over its predecessors with acquire loads, spinning while a
// predecessor has published nothing, adding aggregates until it finds a
// published prefix.
#include <cuda/atomic>

extern "C" __global__ void lookback(int* in, int* agg, int* incl, int* flag, int* out)
{
    using Flag = cuda::atomic_ref<int, cuda::thread_scope_device>;
    int b = blockIdx.x;
    int v = in[b];
    if (b == 0) {
        incl[0] = v;
        Flag(flag[0]).store(2, cuda::memory_order_release);
        out[0] = v;
        return;
    }
    agg[b] = v;
    Flag(flag[b]).store(1, cuda::memory_order_release);
    int exclusive = 0;
    for (int p = b - 1;; --p) {
        int f;
        while ((f = Flag(flag[p]).load(cuda::memory_order_acquire)) == 0) { }
        if (f == 2) {
            exclusive += incl[p];
            break;
        }
        exclusive += agg[p];
    }
    incl[b] = exclusive + v;
    Flag(flag[b]).store(2, cuda::memory_order_release);
    out[b] = exclusive + v;
}
