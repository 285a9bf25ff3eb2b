// Loop entry states of `ptxcheck outcomes` (semantics/outcomes/hook_loop.cpp,
// docs/outcomes.md "Spin loops"), built twice: entry_O0.ptx (nvcc -ptx
// -arch=sm_80 -Xcicc -O0) and entry_O3.ptx (-O3). At -O0 each
// cuda::atomic_ref operation is a call and the object lives in the
// kernel's .local frame, so the failed first iteration of a retry loop
// differs from the entry state in those bytes; it is still redundant, and
// the -O0 build must give the -O3 build's executions. The last two kernels
// keep a failed first iteration: it writes a .local byte that the loop
// reads after it leaves, at an address or under a branch that depends on
// what it read.
#include <cuda/atomic>

using RU = cuda::atomic_ref<unsigned, cuda::thread_scope_block>;
using RI = cuda::atomic_ref<int, cuda::thread_scope_block>;

// One acquire poll: out = [5, 2].
extern "C" __global__ void entry_spin(unsigned* seq, int* x, int* out) {
  if (threadIdx.x == 32) {
    *x = 5;
    RU(*seq).store(2, cuda::memory_order_release);
  } else if (threadIdx.x == 3) {
    unsigned s0;
    do {
      s0 = RU(*seq).load(cuda::memory_order_acquire);
    } while (s0 == 0);
    out[0] = *x;
    out[1] = static_cast<int>(s0);
  }
}

// Two polls of the same counter per iteration: out = [0, 0] or [2, 2].
extern "C" __global__ void entry_two(unsigned* seq, int* x, int* out) {
  if (threadIdx.x == 32) {
    RU(*seq).store(1, cuda::memory_order_relaxed);
    RU(*seq).store(2, cuda::memory_order_release);
  } else if (threadIdx.x == 3) {
    unsigned s0, s1;
    do {
      s0 = RU(*seq).load(cuda::memory_order_acquire);
      s1 = RU(*seq).load(cuda::memory_order_relaxed);
    } while ((s0 & 1) || s0 != s1);
    out[0] = static_cast<int>(s0);
    out[1] = static_cast<int>(s1);
  }
}

// A seqlock reader (fences as in the C++ seqlock): out = [0, 0] or [1, 10].
extern "C" __global__ void entry_seqlock(unsigned* seq, int* x, int* y, int* out) {
  if (threadIdx.x == 32) {
    unsigned s = RU(*seq).load(cuda::memory_order_relaxed);
    RU(*seq).store(s + 1, cuda::memory_order_relaxed);
    cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_block);
    RI(*x).store(1, cuda::memory_order_relaxed);
    RI(*y).store(10, cuda::memory_order_relaxed);
    RU(*seq).store(s + 2, cuda::memory_order_release);
  } else if (threadIdx.x == 3) {
    int a, b;
    unsigned s0, s1;
    do {
      s0 = RU(*seq).load(cuda::memory_order_acquire);
      a = RI(*x).load(cuda::memory_order_relaxed);
      b = RI(*y).load(cuda::memory_order_relaxed);
      cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_block);
      s1 = RU(*seq).load(cuda::memory_order_relaxed);
    } while ((s0 & 1) || s0 != s1);
    out[0] = a;
    out[1] = b;
  }
}

// The failed iteration marks seen[v] at an address that depends on v:
// out = [0, 1] (the first poll reads 1) or [1, 1].
extern "C" __global__ void entry_addr(unsigned* seq, int* x, int* out) {
  if (threadIdx.x == 32) {
    RU(*seq).store(1, cuda::memory_order_release);
  } else if (threadIdx.x == 3) {
    int seen[2] = {0, 0};
    unsigned v;
    do {
      v = RU(*seq).load(cuda::memory_order_acquire);
      seen[v & 1] = 1;
    } while (v == 0);
    out[0] = seen[0];
    out[1] = seen[1];
  }
}

// The same under a branch on v: out = [0, 0] or [1, 0].
extern "C" __global__ void entry_ctrl(unsigned* seq, int* x, int* out) {
  if (threadIdx.x == 32) {
    RU(*seq).store(1, cuda::memory_order_release);
  } else if (threadIdx.x == 3) {
    int seen[2] = {0, 0};
    unsigned v;
    do {
      v = RU(*seq).load(cuda::memory_order_acquire);
      if (v == 0) seen[x[0] & 1] = 1;
    } while (v == 0);
    out[0] = seen[0];
    out[1] = seen[1];
  }
}
