// Atomic updates with unused results on one word, thread 0 of 3 CTAs:
// atomicAdd(1), atomicAdd(2), atomicExch(10).
extern "C" __global__ void h9_rmw_add_exch(int* x) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0)
    atomicAdd(x, 1);
  else if (blockIdx.x == 1)
    atomicAdd(x, 2);
  else
    atomicExch(x, 10);
}
