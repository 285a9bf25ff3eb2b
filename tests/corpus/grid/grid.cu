// Grid counters of `ptxcheck outcomes` (semantics/outcomes/hook_grid.cpp):
// kernels whose CTAs meet at a counter every CTA increments and polls,
// checked by tests/corpus/outcomes_grid.py with the grid counters on and
// off (PTXCHECK_OUTCOMES_NO_GRID=1). Launched cooperatively.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// cooperative_groups grid.sync(): each thread writes its part; CTA 2's last
// thread sums the 3 * blockDim parts into out[0], CTA 0's thread 0 copies
// the last part into out[1] (grid of 3).
extern "C" __global__ void grid_cg(int* part, int* out) {
  cg::grid_group g = cg::this_grid();
  unsigned nt = blockDim.x * blockDim.y;
  unsigned t = threadIdx.x + blockDim.x * threadIdx.y;
  part[blockIdx.x * nt + t] = blockIdx.x * 100 + t;
  g.sync();
  if (blockIdx.x == 2 && t == nt - 1) {
    int s = 0;
    for (unsigned i = 0; i < 3 * nt; ++i) s += part[i];
    out[0] = s;
  }
  if (blockIdx.x == 0 && t == 0) out[1] = part[3 * nt - 1];
}

// Two grid.sync() rounds: CTA b's thread 0 writes a[b], then copies its
// neighbour's a into c[b]; CTA 0 reads every c after the second round.
extern "C" __global__ void grid_twice(int* a, int* c, int* out) {
  cg::grid_group g = cg::this_grid();
  unsigned b = blockIdx.x, n = gridDim.x;
  if (threadIdx.x == 0) a[b] = b + 1;
  g.sync();
  if (threadIdx.x == 0) c[b] = a[(b + 1) % n] * 10;
  g.sync();
  if (b == 0 && threadIdx.x == 0) {
    int s = 0;
    for (unsigned i = 0; i < n; ++i) s = s * 100 + c[i];
    out[0] = s;
  }
}

// A hand-written grid barrier: __threadfence(), a relaxed atomicAdd and a
// volatile poll until every CTA has added, __threadfence(); the last CTA's
// thread 0 reads every part (release and acquire patterns through the
// fences, PTX ISA 8.8 form 3).
extern "C" __global__ void grid_fenced(int* part, unsigned* count, int* out) {
  unsigned t = threadIdx.x, n = blockDim.x;
  part[blockIdx.x * n + t] = blockIdx.x * 10 + t + 1;
  __syncthreads();
  if (t == 0) {
    __threadfence();
    atomicAdd(count, 1u);
    while (*(volatile unsigned*)count < gridDim.x) {}
    __threadfence();
  }
  __syncthreads();
  if (blockIdx.x == gridDim.x - 1 && t == 0) {
    int s = 0;
    for (unsigned i = 0; i < gridDim.x * n; ++i) s = s * 100 + part[i];
    out[0] = s;
  }
}

// The same without the fences: no release or acquire pattern, the parts
// read are stale or not.
extern "C" __global__ void grid_relaxed(int* part, unsigned* count, int* out) {
  unsigned t = threadIdx.x, n = blockDim.x;
  part[blockIdx.x * n + t] = blockIdx.x * 10 + t + 1;
  __syncthreads();
  if (t == 0) {
    atomicAdd(count, 1u);
    while (*(volatile unsigned*)count < gridDim.x) {}
  }
  __syncthreads();
  if (blockIdx.x == gridDim.x - 1 && t == 0) {
    int s = 0;
    for (unsigned i = 0; i < gridDim.x * n; ++i) s = s * 100 + part[i];
    out[0] = s;
  }
}

// Only the acquire side: __threadfence() after the poll but none before the
// update, so the update starts no release pattern (PTX ISA 8.8) and the
// parts read may be stale.
extern "C" __global__ void grid_acqonly(int* part, unsigned* count, int* out) {
  unsigned t = threadIdx.x, n = blockDim.x;
  part[blockIdx.x * n + t] = blockIdx.x * 10 + t + 1;
  __syncthreads();
  if (t == 0) {
    atomicAdd(count, 1u);
    while (*(volatile unsigned*)count < gridDim.x) {}
    __threadfence();
  }
  __syncthreads();
  if (blockIdx.x == gridDim.x - 1 && t == 0) {
    int s = 0;
    for (unsigned i = 0; i < gridDim.x * n; ++i) s = s * 100 + part[i];
    out[0] = s;
  }
}

// A poll that succeeds before the last update: each CTA adds 1 and waits
// for at least 2, then stores the count it saw (2 or 3 of 3) and the part
// of the next CTA (release/acquire updates and poll).
extern "C" __global__ void grid_count(int* part, unsigned* count, int* out) {
  unsigned b = blockIdx.x;
  part[b] = b + 1;
  unsigned v;
  asm volatile("atom.add.release.gpu.u32 %0, [%1], 1;" : "=r"(v) : "l"(count) : "memory");
  do {
    asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(v) : "l"(count) : "memory");
  } while (v < 2);
  out[2 * b] = v;
  out[2 * b + 1] = part[(b + 1) % gridDim.x];
}

// grid.sync() 1 + `rounds` times with data handed on between them: CTA b's
// thread 0 starts with v0[b] = b + 1 and after each sync computes
// v_r[b] = v_{r-1}[(b + 1) % n] * 2 + b from its neighbour's value; after
// the last sync CTA 0 prints v_rounds in base 100. Every value is written
// before a sync and read after it by another CTA: cooperative_groups' sync
// (bar.sync; thread 0: atom.add.release.gpu, ld.acquire.gpu poll of bit 31;
// bar.sync) orders them (hook_round.cpp), one state.
extern "C" __global__ void grid_rounds(int* a, int rounds, int* out) {
  cg::grid_group g = cg::this_grid();
  unsigned b = blockIdx.x, n = gridDim.x;
  if (threadIdx.x == 0) a[b] = b + 1;
  for (int r = 1; r <= rounds; ++r) {
    g.sync();
    if (threadIdx.x == 0) a[r * n + b] = a[(r - 1) * n + (b + 1) % n] * 2 + b;
  }
  g.sync();
  if (b == 0 && threadIdx.x == 0) {
    int s = 0;
    for (unsigned i = 0; i < n; ++i) s = s * 100 + a[rounds * n + i];
    out[0] = s;
  }
}

// cooperative_groups' grid barrier written out (CTA 0 adds 0x80000000 -
// (n - 1), the others 1; each waits until bit 31 of the counter differs
// from the value its add returned), with the add .relaxed or .release.
template <bool Release>
__device__ void top_bit_sync(unsigned* bar) {
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned inc = blockIdx.x == 0 ? 0x80000000u - (gridDim.x - 1) : 1u, old, cur;
    if (Release)
      asm volatile("atom.add.release.gpu.u32 %0, [%1], %2;" : "=r"(old) : "l"(bar), "r"(inc) : "memory");
    else
      asm volatile("atom.add.relaxed.gpu.u32 %0, [%1], %2;" : "=r"(old) : "l"(bar), "r"(inc) : "memory");
    do {
      asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(cur) : "l"(bar) : "memory");
    } while (((old ^ cur) & 0x80000000u) == 0);
  }
  __syncthreads();
}

// CTA b's thread 0 writes a[b], meets the others, and copies its
// neighbour's a into c[b]. With .release adds (PTX ISA 8.8 form 1) the poll
// that sees bit 31 flip synchronizes with every add (8.9.2 through the RMW
// chain, 8.9.4 item 4): one state. With .relaxed adds there is no release
// pattern: each c[b] is its neighbour's value or 0, 2^n states, races on a.
extern "C" __global__ void grid_arrive_release(int* a, unsigned* bar, int* c) {
  unsigned b = blockIdx.x, n = gridDim.x;
  if (threadIdx.x == 0) a[b] = b + 1;
  top_bit_sync<true>(bar);
  if (threadIdx.x == 0) c[b] = a[(b + 1) % n];
}

extern "C" __global__ void grid_arrive_relaxed(int* a, unsigned* bar, int* c) {
  unsigned b = blockIdx.x, n = gridDim.x;
  if (threadIdx.x == 0) a[b] = b + 1;
  top_bit_sync<false>(bar);
  if (threadIdx.x == 0) c[b] = a[(b + 1) % n];
}

// A peek at the counter outside the poll loop: CTA 2's thread 0 reads it
// (relaxed) before its own add, and c[2] keeps what it saw; the others
// copy their neighbour's part. The peek sees any partial sum of the adds
// before it, in any order: 0, 1 (CTA 1 first), 0x7ffffffe (CTA 0 first)
// or 0x7fffffff (both): 4 states. Its value is not used through the top
// bit alone, so the updates' orders stay (hook_round.cpp (r0)).
extern "C" __global__ void grid_arrpeek(int* a, unsigned* bar, int* c) {
  unsigned b = blockIdx.x, n = gridDim.x;
  if (threadIdx.x == 0) a[b] = b + 1;
  unsigned peek = 0;
  if (b == 2 && threadIdx.x == 0) asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(peek) : "l"(bar) : "memory");
  top_bit_sync<true>(bar);
  if (threadIdx.x == 0) c[b] = b == 2 ? (int)peek : a[(b + 1) % n];
}

// An .acq_rel add and a relaxed poll (no fence): each CTA's thread 0
// writes d[b], adds, polls, and reads the other's d. The add that comes
// second in the chain reads the first one's release (8.9.4 item 4), so its
// thread sees the other's d; the first sees 0 or 1: states (0, 1), (1, 1)
// and (1, 0), not (0, 0), and both orders are needed (hook_round.cpp (r7)).
extern "C" __global__ void grid_arracq(int* d, unsigned* bar, int* c) {
  unsigned b = blockIdx.x;
  d[b] = 1;
  unsigned inc = b == 0 ? 0x80000000u - (gridDim.x - 1) : 1u, old, cur;
  asm volatile("atom.add.acq_rel.gpu.u32 %0, [%1], %2;" : "=r"(old) : "l"(bar), "r"(inc) : "memory");
  do {
    asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(cur) : "l"(bar) : "memory");
  } while (((old ^ cur) & 0x80000000u) == 0);
  c[b] = d[1 - b];
}
