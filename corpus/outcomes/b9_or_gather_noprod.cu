// Three producers, one consumer, a bitmask flag: lane 0 of CTAs 1, 2, 3
// (4 CTAs of 32 threads) writes, without a fence, a struct {int v; int w} into its slot,
// __threadfence, atomicOr(mask, 1 << b); lane 0 of CTA 0 spins on a
// volatile read of the mask until all three bits are set, __threadfence,
// and copies v + w of every slot.
struct Pair {
  int v;
  int w;
};
extern "C" __global__ void b9_or_gather_noprod(Pair* slot, unsigned* mask, int* out) {
  unsigned b = blockIdx.x;
  if (b != 0 && threadIdx.x == 0) {
    slot[b].v = (int)b;
    slot[b].w = 10 * (int)b;
    atomicOr(mask, 1u << b);
  }
  if (b == 0 && threadIdx.x == 0) {
    while (*(volatile unsigned*)mask != 14u) {}
    __threadfence();
    for (int i = 1; i < 4; ++i) out[i - 1] = slot[i].v + slot[i].w;
  }
}
