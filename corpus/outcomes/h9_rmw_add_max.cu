// Different atomic updates with unused results on one word, thread 0 of 3
// CTAs: atomicAdd(3), atomicMax(2), atomicAdd(1). Max does not commute with add.
extern "C" __global__ void h9_rmw_add_max(int* x) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0)
    atomicAdd(x, 3);
  else if (blockIdx.x == 1)
    atomicMax(x, 2);
  else
    atomicAdd(x, 1);
}
