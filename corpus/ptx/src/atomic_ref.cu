// Theme: cuda::atomic_ref with explicit memory orders and thread scopes
// (atom/red/ld/st with .relaxed/.acquire/.release/.acq_rel/.sc and .cta/.gpu/.sys).
#include <cuda/atomic>

extern "C" __global__ void atomic_ref_counters(unsigned* ctr, unsigned long long* sum64)
{
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> dev(ctr[0]);
    dev.fetch_add(1u, cuda::memory_order_relaxed);
    cuda::atomic_ref<unsigned, cuda::thread_scope_block> blk(ctr[1 + blockIdx.x]);
    blk.fetch_add(2u, cuda::memory_order_acq_rel);
    cuda::atomic_ref<unsigned, cuda::thread_scope_system> sys(ctr[5]);
    sys.fetch_or(1u << (gid % 32), cuda::memory_order_seq_cst);
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> mx(ctr[6]);
    mx.fetch_max(gid * 7u % 101u, cuda::memory_order_relaxed);
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> mn(ctr[7]);
    mn.fetch_min(gid * 7u % 101u + 5u, cuda::memory_order_release);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> s64(*sum64);
    s64.fetch_add(1ull << 33 | gid, cuda::memory_order_release);
}

// Release stores and acquire loads ordered by a barrier: each thread publishes
// a value, the block synchronises, each thread reads its neighbour's slot.
extern "C" __global__ void atomic_ref_publish(int* slots, int* out)
{
    unsigned t = threadIdx.x, n = blockDim.x;
    cuda::atomic_ref<int, cuda::thread_scope_block> mine(slots[t]);
    mine.store((int)(t * 3 + 1), cuda::memory_order_release);
    __syncthreads();
    cuda::atomic_ref<int, cuda::thread_scope_block> other(slots[(t + 1) % n]);
    int v = other.load(cuda::memory_order_acquire);
    cuda::atomic_ref<int, cuda::thread_scope_device> seq(slots[(t + 2) % n]);
    int w = seq.load(cuda::memory_order_seq_cst);
    out[t] = v * 1000 + w;
}

// compare_exchange_strong and exchange: one winner per block claims a slot.
extern "C" __global__ void atomic_ref_claim(int* owner, unsigned* winners)
{
    cuda::atomic_ref<int, cuda::thread_scope_device> o(owner[blockIdx.x]);
    int expected = -1;
    if (o.compare_exchange_strong(expected, 1, cuda::memory_order_acq_rel, cuda::memory_order_acquire)) {
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> w(winners[0]);
        w.fetch_add(1u, cuda::memory_order_relaxed);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        int old = o.exchange(100 + (int)blockIdx.x, cuda::memory_order_seq_cst);
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> w(winners[1]);
        w.fetch_add((unsigned)old, cuda::memory_order_relaxed);
    }
}
