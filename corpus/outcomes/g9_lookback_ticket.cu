// Decoupled look-back with dynamic tile ids: thread 0 of each CTA takes a
// tile with atomicAdd, then publishes a packed 32-bit status (value << 2 |
// state, 1 = aggregate, 2 = inclusive prefix) through
// cuda::atomic_ref<unsigned, device> release stores and looks back with
// acquire loads. Tile t's aggregate is 10 * (t + 1).
#include <cuda/atomic>
extern "C" __global__ void g9_lookback_ticket(unsigned* tiles, unsigned* status, int* out) {
  __shared__ unsigned tile;
  if (threadIdx.x == 0) tile = atomicAdd(tiles, 1u);
  __syncthreads();
  if (threadIdx.x != 0) return;
  unsigned t = tile;
  unsigned mine = 10u * (t + 1u);
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> st(status[t]);
  if (t == 0) {
    st.store(mine << 2 | 2u, cuda::memory_order_release);
    out[0] = 0;
    return;
  }
  st.store(mine << 2 | 1u, cuda::memory_order_release);
  unsigned excl = 0;
  for (int j = (int)t - 1; j >= 0; --j) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> sj(status[j]);
    unsigned w;
    while (((w = sj.load(cuda::memory_order_acquire)) & 3u) == 0u) {}
    excl += w >> 2;
    if ((w & 3u) == 2u) break;
  }
  st.store((excl + mine) << 2 | 2u, cuda::memory_order_release);
  out[t] = (int)excl;
}
