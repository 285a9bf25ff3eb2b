// atomicInc wrapping at 1, by threads 0 and 1 of two CTAs: the counter
// goes 0 -> 1 -> 0 -> 1 -> 0 and each thread records the value it read.
extern "C" __global__ void g9_inc_wrap(unsigned* c, unsigned* old) {
  if (threadIdx.x >= 2) return;
  old[blockIdx.x * 2 + threadIdx.x] = atomicInc(c, 1u);
}
