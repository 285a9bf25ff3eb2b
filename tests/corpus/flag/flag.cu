// Flags of `ptxcheck outcomes` (docs/outcomes.md "How the search scales"
// item 8; semantics/outcomes/hook_grid.cpp (f)): a shared word that one
// thread writes with plain stores and another polls in a spin loop. Blocks
// of 64 to 128 threads; lanes 0 of some of its warps take part.
// tests/corpus/outcomes_flag.py runs them with PTXCHECK_OUTCOMES_NO_FLAG
// unset and set.
// nvcc -ptx -arch=sm_80 -O3 -lineinfo -o flag.ptx flag.cu
#include <cuda/atomic>

// Items handed through one slot, acknowledged before the slot is reused
// (probe9h's h01v): volatile full/ack and __threadfence_block() on both
// sides. 8.8: fence; W(full) is a release pattern, R(full); fence an acquire
// pattern, morally strong in one CTA (8.7), so each slot write precedes the
// read of its item in causality order (8.9.4, 8.9.5) and the ack orders the
// read before the next write: out = 10, 20, ... only, no race.
extern "C" __global__ void flag_pingpong(int* out, int n) {
  __shared__ int slot;
  __shared__ volatile int full, ack;
  if (threadIdx.x == 0) {
    full = 0;
    ack = 0;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int i = 0; i < n; ++i) {
      slot = 10 * (i + 1);
      __threadfence_block();
      full = i + 1;
      while (ack != i + 1) {}
      __threadfence_block();
    }
  } else if (threadIdx.x == 32) {
    for (int i = 0; i < n; ++i) {
      while (full != i + 1) {}
      __threadfence_block();
      out[i] = slot;
      __threadfence_block();
      ack = i + 1;
    }
  }
}

// The same without the consumer's fences, the slot volatile (so that nvcc
// keeps each read): no acquire pattern, so a slot read may return an older
// item (the initial 0) or, the ack no longer ordering it before the next
// write, a newer one; relaxed accesses, no race.
extern "C" __global__ void flag_pingpong_nofence(int* out, int n) {
  __shared__ volatile int slot;
  __shared__ volatile int full, ack;
  if (threadIdx.x == 0) {
    slot = 0;
    full = 0;
    ack = 0;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int i = 0; i < n; ++i) {
      slot = 10 * (i + 1);
      __threadfence_block();
      full = i + 1;
      while (ack != i + 1) {}
      __threadfence_block();
    }
  } else if (threadIdx.x == 32) {
    for (int i = 0; i < n; ++i) {
      while (full != i + 1) {}
      out[i] = slot;
      ack = i + 1;
    }
  }
}

// One flag both ways: the producer sets it to 1, the consumer back to 0
// (values repeat: each poll may read only the writes from its thread's own
// latest one on, 8.10.6 Causality 2, where 1 and 0 alternate).
extern "C" __global__ void flag_toggle(int* out, int n) {
  __shared__ int slot;
  __shared__ volatile int flag;
  if (threadIdx.x == 0) flag = 0;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int i = 0; i < n; ++i) {
      while (flag != 0) {}
      __threadfence_block();
      slot = 10 * (i + 1);
      __threadfence_block();
      flag = 1;
    }
  } else if (threadIdx.x == 32) {
    for (int i = 0; i < n; ++i) {
      while (flag != 1) {}
      __threadfence_block();
      out[i] = slot;
      __threadfence_block();
      flag = 0;
    }
  }
}

// flag_toggle without fences (slot volatile): the flag's writes are still
// ordered (each thread reads the other's latest write before its own, 8.10.5),
// but nothing synchronizes, so the slot reads may be stale or early.
extern "C" __global__ void flag_toggle_nofence(int* out, int n) {
  __shared__ volatile int slot;
  __shared__ volatile int flag;
  if (threadIdx.x == 0) {
    slot = 0;
    flag = 0;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int i = 0; i < n; ++i) {
      while (flag != 0) {}
      slot = 10 * (i + 1);
      flag = 1;
    }
  } else if (threadIdx.x == 32) {
    for (int i = 0; i < n; ++i) {
      while (flag != 1) {}
      out[i] = slot;
      flag = 0;
    }
  }
}

// Two producers store the flag without ordering (lanes 0 of warps 0 and 2,
// a race on it): the flag's writes are not in causality order, so it is
// no flag (f1) and its reads choose values. The consumer's fence makes the
// write of the value it read visible (a, or b), not the other.
extern "C" __global__ void flag_two_writers(int* out) {
  __shared__ volatile int a, b, flag;
  if (threadIdx.x == 0) {
    a = 0;
    b = 0;
    flag = 0;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    a = 1;
    __threadfence_block();
    flag = 1;
  } else if (threadIdx.x == 64) {
    b = 2;
    __threadfence_block();
    flag = 2;
  } else if (threadIdx.x == 32) {
    int f;
    while ((f = flag) == 0) {}
    __threadfence_block();
    out[0] = f;
    out[1] = a;
    out[2] = b;
  }
}

// Two writers without order (lanes 0 of warps 0 and 2: 1 and 2) and a
// reader that waits for `first`, then for 3 - first: it finishes where that
// write precedes the other in coherence order, which nothing forbids (the
// writes are unrelated in causality order, 8.9.6), whichever of them the
// machine runs first: out = 1 for first = 1 and for first = 2.
extern "C" __global__ void flag_co_order(int* out, int first) {
  __shared__ volatile int flag;
  if (threadIdx.x == 0) flag = 0;
  __syncthreads();
  if (threadIdx.x == 0) {
    flag = 1;
  } else if (threadIdx.x == 64) {
    flag = 2;
  } else if (threadIdx.x == 32) {
    while (flag != first) {}
    while (flag != 3 - first) {}
    out[0] = 1;
  }
}

// One item, the consumer without a fence: R(full) is no acquire pattern
// (8.8), so the slot read may return the initial 0 or 10.
extern "C" __global__ void flag_mp_noacq(int* out) {
  __shared__ volatile int slot, full;
  if (threadIdx.x == 0) {
    slot = 0;
    full = 0;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    slot = 10;
    __threadfence_block();
    full = 1;
  } else if (threadIdx.x == 32) {
    while (full != 1) {}
    out[0] = slot;
  }
}

// Load buffering through a named barrier: lane 0 of warp 0 (A) waits for y
// and then sets x = 2; lane 0 of warp 1 (B) waits for x and records it, then
// meets warp 2 at barrier 1, after which lane 0 of warp 2 (C) sets y = 1;
// lane 0 of warp 3 (D) sets x = 1. B may read A's 2: A reads C's y, and the
// cycle x -> B's poll -> barrier -> y -> A's poll -> x has a barrier, no
// dependency, in one place (8.10.4 forbids only cycles of dependencies and
// reads-from), and nothing synchronizes (relaxed, no fences: 8.9.4). The
// search parks A's and B's polls while C waits at the barrier: (f5) must not
// drop that launch (out[0] = 2 would be lost).
extern "C" __global__ void flag_lb_barrier(int* out) {
  __shared__ volatile int x, y;
  if (threadIdx.x == 0) {
    x = 0;
    y = 0;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    while (y == 0) {}
    x = 2;
  } else if (threadIdx.x / 32 == 1) {
    if (threadIdx.x == 32) {
      int v;
      while ((v = x) == 0) {}
      out[0] = v;
    }
    asm volatile("bar.sync 1, 64;");
  } else if (threadIdx.x / 32 == 2) {
    asm volatile("bar.sync 1, 64;");
    if (threadIdx.x == 64) y = 1;
  } else if (threadIdx.x == 96) {
    x = 1;
  }
}

// Slots gathered through a bitmask (probe9i's i45): lane 0 of warps 1..3
// writes its slot, then fetch_or(release)s its bit into a block-scope mask;
// warp 0's lane 0 polls the mask with acquire until all three bits are set.
// Each poll reads the mask through the RMW chain of the fetch_ors, so it
// observes every fetch_or before the one it reads (8.9.2 item 2: observation
// order through RMW chains), and the release/acquire patterns make every slot
// write precede the sum (8.8, 8.9.4): out = 11 + 21 + 31 = 63 only, no race.
// The mask has no plain store after the barrier and is written by updates
// only: it is no flag, its orders are the RMW chain's (hook_chain.cpp), and
// the search takes no more launches than without flags.
extern "C" __global__ void flag_bitmask(int* out) {
  __shared__ int slot[4];
  __shared__ unsigned mask;
  if (threadIdx.x == 0) mask = 0;
  __syncthreads();
  const int w = threadIdx.x / 32;
  if (threadIdx.x % 32 != 0) return;
  cuda::atomic_ref<unsigned, cuda::thread_scope_block> m(mask);
  if (w > 0) {
    slot[w] = 10 * w + 1;
    m.fetch_or(1u << w, cuda::memory_order_release);
  } else {
    while (m.load(cuda::memory_order_acquire) != 0xeu) {}
    *out = slot[1] + slot[2] + slot[3];
  }
}
