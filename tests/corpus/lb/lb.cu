// Load buffering through a barrier onto a word that polls wait on
// (semantics/outcomes/hook_grid.cpp (f6), hook_chain.cpp "Not covered",
// hook_latest.cpp (f)); tests/corpus/outcomes_lb.py. Built with
//   nvcc -arch=sm_90 -O3 -lineinfo -ptx lb.cu -o lb.ptx
// In each kernel every schedule deadlocks: A (thread 0 of CTA or rank 1)
// waits for B's reset, B's reset lies after a barrier that C (thread 0 of
// CTA or rank 0) reaches only once it has read A's last add, which A makes
// after its wait. The PTX memory model still permits the one execution in
// which all of them finish (load buffering through the barrier, 8.10.4: a
// barrier is no dependency): A's poll reads B's weak reset R (0); A's last
// add reads the latest morally strong write before it in coherence order
// (8.10.3) and C's poll reads that add's value (morally strong: observation
// order, 8.9.2); C arrives at the barrier, B leaves it and stores R. No
// axiom forbids it: A's poll is not before R in causality order (A's add
// reaches C's poll by observation only, with no release or acquire pattern,
// 8.8, 8.9.4 item 4, 8.9.5), so 8.10.6 Causality 1 allows the read; A's
// first add is before its poll in program order, so the poll cannot read
// the initial 0 (8.10.5 with the morally strong add); R follows A's last
// add in causality order (observation by C's poll, then the barrier), so
// in coherence order too (8.10.1): R is the last write. R and A's poll race
// (R is weak and unordered with it, 8.7.1). The search dropped the launches
// in which the polls wait while B waits at the barrier, and lost the state.

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Two CTAs, x in global memory: a grid counter of updates (C and A add 1,
// A adds 5 after its poll: 2 + 5 = 7). out = [7, 0], x = 0. Still lost:
// (c) drops the launch (no plain store ran; hook_chain.cpp "Not covered").
extern "C" __global__ void lb_reset(unsigned* x, unsigned* out) {
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) {  // C
      atomicAdd(x, 1u);
      unsigned v;
      while ((v = *(volatile unsigned*)x) != 7u) {}
      out[0] = v;
    }
    __syncthreads();
    if (threadIdx.x == 32) *x = 0;  // B: weak reset after the barrier
  } else if (threadIdx.x == 0) {    // A
    atomicAdd(x, 1u);
    unsigned v;
    while ((v = *(volatile unsigned*)x) != 0u) {}
    atomicAdd(x, 5u);
    out[1] = v;
  }
}

// A cluster of 2 CTAs, x in rank 0's shared memory, zeroed before
// cluster.sync(): a cluster counter (A adds 1 and, after its poll, D more:
// 1 + D). lb_cl_reset (D = 1): out = [2, 0], lost without (f6)'s
// only_updates_left; lb_cl_reset5 (D = 5): out = [6, 0], lost without
// hook_latest.cpp (f) (the polls read their latest values once (f6) gave
// the counter back to value choices).
template <unsigned D>
__device__ void cl_reset(unsigned* out) {
  __shared__ unsigned x;
  cg::cluster_group cl = cg::this_cluster();
  unsigned r = cl.block_rank(), t = threadIdx.x;
  if (r == 0 && t == 0) x = 0;
  cl.sync();
  unsigned* px = cl.map_shared_rank(&x, 0);
  if (r == 0) {
    if (t == 0) {  // C
      unsigned v;
      while ((v = *(volatile unsigned*)px) != 1u + D) {}
      out[0] = v;
    }
    __syncthreads();
    if (t == 1) x = 0;  // B: weak reset after the barrier
  } else if (t == 0) {  // A
    atomicAdd(px, 1u);
    unsigned v;
    while ((v = *(volatile unsigned*)px) != 0u) {}
    atomicAdd(px, D);
    out[1] = v;
  }
  cl.sync();
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) lb_cl_reset(unsigned* out) { cl_reset<1>(out); }
extern "C" __global__ void __cluster_dims__(2, 1, 1) lb_cl_reset5(unsigned* out) { cl_reset<5>(out); }
