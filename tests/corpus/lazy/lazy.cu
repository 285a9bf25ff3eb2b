// Lazy loads of outcomes (semantics/outcomes/hook_lazy.cpp): loads whose
// value reaches nothing observable make no choice; tests/corpus/
// outcomes_lazy.py. Built with
//   nvcc -arch=sm_90 -O3 -ptx lazy.cu -o lazy.ptx
// nvcc speculates `acc += s[0]` out of `if (lane == 0)`: every lane loads
// the slot, and only lane 0's sum reaches the store (probe9j's j12n).

// Two rounds in a (32,2) block with one shared slot: in round r warp r's
// lane 0 writes it, __syncthreads(), each warp's lane 0 adds it. Warp 1's
// write races with warp 0's round-0 read (PTX ISA 8.7.1), so warp 0 reads
// 1 or 11 there, warp 1 reads 1 (its own later write is after its read in
// program order); both read 11 in round 1 (the barrier orders both writes
// before, 1 before 11 in coherence). out: [12, 12] or [22, 12]; race on s.
// Without lazy loads each of the 64 threads' 2 loads chooses a value.
extern "C" __global__ void lazy_rounds(int* out) {
  __shared__ int s;
  int w = threadIdx.y, lane = threadIdx.x, acc = 0;
  for (int r = 0; r < 2; ++r) {
    if (w == r && lane == 0) s = 10 * r + 1;
    __syncthreads();
    if (lane == 0) acc += s;
  }
  if (lane == 0) out[w] = acc;
}

// The same in a loop nvcc keeps (unroll 1): acc is carried around the loop
// head through a selp that keeps the old acc in lanes 1..31, so their
// loaded values stay dead there (the spin-loop reduction compares the
// registers live at the head; a selp followed as reading both operands
// makes every lane's loads choose). The states of lazy_rounds: out[0] in
// {12, 22}, out[1] = 12; race on s.
extern "C" __global__ void lazy_loop(int* out) {
  __shared__ int s;
  int w = threadIdx.y, lane = threadIdx.x, acc = 0;
#pragma unroll 1
  for (int r = 0; r < 2; ++r) {
    if (w == r && lane == 0) s = 10 * r + 1;
    __syncthreads();
    if (lane == 0) acc += s;
  }
  if (lane == 0) out[w] = acc;
}

// A lane's loaded value that another lane stores: each of 4 lanes of warp
// 0 loads the racy slot, lane 3 takes lane k's value with __shfl_sync
// (k = the flag lane 3 read) and stores it: the loads are used (a warp
// collective's operand) and choose. Lanes 4..7 (threadIdx.y 1, the same
// warp): lane 4 writes *s = 5 and then flag = 1, unordered with the others.
// The same states and races with lazy loads as without
// (outcomes_lazy.py compares).
extern "C" __global__ void lazy_shfl(volatile int* flag, int* s, int* out) {
  int w = threadIdx.y, lane = threadIdx.x;
  if (w == 1) {
    if (lane == 0) {
      *s = 5;
      *flag = 1;
    }
    return;
  }
  int k = *flag;  // 0 or 1
  int v = *s;     // 0 or 5
  v = __shfl_sync(0xf, v, k & 3);
  if (lane == 3) out[0] = v + 10 * k;
}

// A predicate that a chosen value decides: lane `k` (flag's value, read by
// each lane of warp 0) adds the shared slot, the others keep 0 through a
// selp (nvcc's speculation: every lane loads the slot), so which lane's
// load is used depends on the run. s is 3 after the barrier; lane 0 of
// warp 1 then writes s = 7 and flag = 1, unordered with warp 0. The same
// states and races with lazy loads as without.
extern "C" __global__ void lazy_pred(volatile int* flag, int* out) {
  __shared__ int s;
  int w = threadIdx.y, lane = threadIdx.x;
  if (w == 0 && lane == 0) s = 3;
  __syncthreads();
  if (w == 1) {
    if (lane == 0) {
      s = 7;
      *flag = 1;
    }
    return;
  }
  int k = *flag;
  int acc = 0;
  if (lane == k) acc += s;
  if (lane < 2) out[lane] = acc;
}
