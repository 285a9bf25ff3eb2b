// Small mbarrier kernels for tests/corpus/canon_xcheck.py: `ptxcheck
// outcomes` must list the same outcomes and races with canonical arrives
// (semantics/outcomes/hook_canon.cpp) and without them
// (PTXCHECK_OUTCOMES_NO_CANON=1). Each kernel but the first two and the
// last breaks a condition of hook_canon.cpp, so that the search falls back
// to choices; without that condition, canon_partial (c), canon_fence (d),
// canon_flag (e) and canon_pending (a: a state used by pending_count) lose
// outcomes, and without the static check of canonical waits canon_partial,
// canon_tok2 and canon_wait_first do, canon_wait_first also without its
// check of the registers where the paths meet (checked by disabling each).
// canon_cbar2 (cuda::barrier) is canonical: used states, reduced waits.
// The kernels at the end test blocking waits (conditions (h) and (i)).
// nvcc -ptx -arch=sm_90 -O3 -lineinfo -o canon.ptx canon.cu
#include <cuda/barrier>
#pragma nv_diag_suppress static_var_with_dynamic_init
__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count) {
  asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_arrive(unsigned bar) {
  asm volatile("{\n\t.reg .b64 state;\n\tmbarrier.arrive.shared.b64 state, [%0];\n\t}" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void mbar_arrive_drop(unsigned bar) {
  asm volatile("mbarrier.arrive_drop.shared.b64 _, [%0];" ::"r"(bar) : "memory");
}
__device__ __forceinline__ unsigned long long mbar_arrive_state(unsigned bar) {
  unsigned long long state;
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(bar) : "memory");
  return state;
}
__device__ __forceinline__ bool mbar_try_wait_parity(unsigned bar, unsigned parity) {
  unsigned done;
  asm volatile("{\n\t.reg .pred p;\n\tmbarrier.try_wait.parity.shared.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(done)
               : "r"(bar), "r"(parity)
               : "memory");
  return done != 0;
}
__device__ __forceinline__ bool mbar_test_wait(unsigned bar, unsigned long long state) {
  unsigned done;
  asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.shared.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(done)
               : "r"(bar), "l"(state)
               : "memory");
  return done != 0;
}
__device__ __forceinline__ bool mbar_test_wait_parity(unsigned bar, unsigned parity) {
  unsigned done;
  asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.parity.shared.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(done)
               : "r"(bar), "r"(parity)
               : "memory");
  return done != 0;
}
#define MBAR                          \
  __shared__ unsigned long long mbar; \
  unsigned bar = (unsigned)__cvta_generic_to_shared(&mbar)

// Lanes 0-2 write and arrive (3 expected); thread 63 waits and reads.
extern "C" __global__ void canon_lanes3(int* data, int* out) {
  MBAR;
  if (threadIdx.x == 0) mbar_init(bar, 3);
  __syncthreads();
  if (threadIdx.x < 3) {
    data[threadIdx.x] = 10 + threadIdx.x;
    mbar_arrive(bar);
  } else if (threadIdx.x == 63) {
    while (!mbar_try_wait_parity(bar, 0)) {}
    out[0] = data[0];
    out[1] = data[2];
  }
}

// All 3 threads write and arrive; thread 2 waits, reading slot 1 before
// the wait (a data race) and slot 0 after it.
extern "C" __global__ void canon_all3_early(int* data, int* out) {
  MBAR;
  if (threadIdx.x == 0) mbar_init(bar, 3);
  __syncthreads();
  data[threadIdx.x] = 10 + threadIdx.x;
  mbar_arrive(bar);
  if (threadIdx.x == 2) {
    int early = data[1];
    while (!mbar_try_wait_parity(bar, 0)) {}
    out[0] = data[0];
    out[1] = early;
  }
}

// (c) Lanes 0 and 1 write and arrive, 3 expected (the phase never
// completes); lane 1 tests the phase once after its arrive and reads slot 0:
// a read of a partial count observes some of the arrives (lane 0's only if
// it came first).
extern "C" __global__ void canon_partial(int* data, int* out) {
  MBAR;
  if (threadIdx.x == 0) mbar_init(bar, 3);
  __syncthreads();
  if (threadIdx.x < 2) {
    data[threadIdx.x] = 10 + threadIdx.x;
    mbar_arrive(bar);
    if (threadIdx.x == 1) {
      out[1] = mbar_test_wait_parity(bar, 0);
      out[0] = data[0];
    }
  }
}

// (d) Lanes 0 and 1 write and arrive (3 expected); lane 1 then issues a
// fence (an acquire pattern with its arrive's read) and reads slot 0.
extern "C" __global__ void canon_fence(int* data, int* out) {
  MBAR;
  if (threadIdx.x == 0) mbar_init(bar, 3);
  __syncthreads();
  if (threadIdx.x < 2) {
    data[threadIdx.x] = 10 + threadIdx.x;
    mbar_arrive(bar);
    if (threadIdx.x == 1) {
      __threadfence_block();
      out[0] = data[0];
    }
  }
}

// (e) Thread 32 reads a flag that thread 0 raises (release/acquire) after
// its arrive, then arrives: reading 1 puts thread 0's arrive first in the
// chain, but the machine runs thread 32 first (the warp that completed the
// CTA barrier goes on first).
extern "C" __global__ void canon_flag(int* data, int* out) {
  MBAR;
  __shared__ int flag;
  if (threadIdx.x == 0) {
    mbar_init(bar, 2);
    flag = 0;
  }
  __syncthreads();
  if (threadIdx.x == 32) {
    int f;
    asm volatile("ld.acquire.cta.shared.b32 %0, [%1];"
                 : "=r"(f)
                 : "r"((unsigned)__cvta_generic_to_shared(&flag))
                 : "memory");
    data[1] = 10 + f;
    mbar_arrive(bar);
  } else if (threadIdx.x == 0) {
    data[0] = 12;
    mbar_arrive(bar);
    asm volatile("st.release.cta.shared.b32 [%0], %1;" ::"r"((unsigned)__cvta_generic_to_shared(&flag)), "r"(1)
                 : "memory");
  } else if (threadIdx.x == 63) {
    while (!mbar_try_wait_parity(bar, 0)) {}
    out[0] = data[0];
    out[1] = data[1];
  }
}

// Two phases of one arrival each by thread 0; thread 32 waits for each
// and reads what thread 0 wrote before it.
extern "C" __global__ void canon_phases(int* data, int* out) {
  MBAR;
  if (threadIdx.x == 0) mbar_init(bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    data[0] = 10;
    mbar_arrive(bar);
    data[1] = 11;
    mbar_arrive(bar);
  } else if (threadIdx.x == 32) {
    while (!mbar_try_wait_parity(bar, 0)) {}
    out[0] = data[0];
    while (!mbar_try_wait_parity(bar, 1)) {}
    out[1] = data[1];
  }
}

// Lane 0 arrives without using the state; thread 32 arrives and waits on
// the state it got (a used state: searched by choices).
extern "C" __global__ void canon_state(int* data, int* out) {
  MBAR;
  if (threadIdx.x == 0) mbar_init(bar, 2);
  __syncthreads();
  if (threadIdx.x == 0) {
    data[0] = 10;
    mbar_arrive(bar);
  } else if (threadIdx.x == 32) {
    unsigned long long s = mbar_arrive_state(bar);
    while (!mbar_test_wait(bar, s)) {}
    out[0] = data[0];
  }
}

// (a) Lanes 0-2 arrive; lane 2 keeps the state its arrive returned and
// stores its pending count (how many arrived before it, in the chain).
extern "C" __global__ void canon_pending(int* data, int* out) {
  MBAR;
  if (threadIdx.x == 0) mbar_init(bar, 3);
  __syncthreads();
  if (threadIdx.x < 3) {
    unsigned long long s = mbar_arrive_state(bar);
    if (threadIdx.x == 2) {
      unsigned n;
      asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(n) : "l"(s));
      out[0] = n;
    }
  }
}

// (a) Threads 0 and 32 arrive on an mbarrier expecting one arrival (each
// arrive completes a phase) and test the state it returned once: which
// phase a state names depends on the order of the arrives.
extern "C" __global__ void canon_tok2(int* data, int* out) {
  MBAR;
  if (threadIdx.x == 0) mbar_init(bar, 1);
  __syncthreads();
  if (threadIdx.x == 0 || threadIdx.x == 32) {
    unsigned long long s = mbar_arrive_state(bar);
    out[threadIdx.x / 32] = mbar_test_wait(bar, s);
  }
}

// Waits (hook_canon.cpp): thread 32 arrives, tests its state once and
// keeps the result, then spins on the same state until the phase
// completes: a failed first test is not redundant (its result is stored).
extern "C" __global__ void canon_wait_first(int* data, int* out) {
  MBAR;
  if (threadIdx.x == 0) mbar_init(bar, 2);
  __syncthreads();
  if (threadIdx.x == 0) {
    data[0] = 10;
    mbar_arrive(bar);
  } else if (threadIdx.x == 32) {
    unsigned long long s = mbar_arrive_state(bar);
    int first = mbar_test_wait(bar, s);
    if (!first)
      while (!mbar_test_wait(bar, s)) {}
    out[0] = data[0];
    out[1] = first;
  }
}

// libcu++'s cuda::barrier: threads 0 and 32 write their slot and call
// arrive_and_wait (its state goes to try_wait; a first try_wait, then a
// backoff loop), then read the other's slot.
extern "C" __global__ void canon_cbar2(int* data, int* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> b;
  if (threadIdx.x == 0) init(&b, 2);
  __syncthreads();
  if (threadIdx.x == 0 || threadIdx.x == 32) {
    data[threadIdx.x / 32] = 10 + threadIdx.x;
    b.arrive_and_wait();
    out[threadIdx.x / 32] = data[1 - threadIdx.x / 32];
  }
}

// Blocking waits (hook_canon.cpp (h), (i)): threads 0, 1 (warp 0) and 32
// (warp 1) write their slot, arrive, poll test_wait on their state, then
// read the next one's slot (0 -> 1 -> 32 -> 0). canon_nb3_late: thread 32
// writes after its arrive (a data race with thread 1's read).
__device__ __forceinline__ void nb3(int* data, int* out, bool late) {
  MBAR;
  if (threadIdx.x == 0) mbar_init(bar, 3);
  __syncthreads();
  if (threadIdx.x == 0 || threadIdx.x == 1 || threadIdx.x == 32) {
    const unsigned k = threadIdx.x == 32 ? 2 : threadIdx.x;
    if (!late || k != 2) data[k] = 10 + k;
    unsigned long long s = mbar_arrive_state(bar);
    if (late && k == 2) data[k] = 10 + k;
    while (!mbar_test_wait(bar, s)) {}
    out[k] = data[(k + 1) % 3];
  }
}
extern "C" __global__ void canon_nb3(int* data, int* out) { nb3(data, out, false); }
extern "C" __global__ void canon_nb3_late(int* data, int* out) { nb3(data, out, true); }

// (h) Thread 32 writes and arrives (1 expected: phase 0 completes); thread
// 0 spins on test_wait.parity 1, which succeeds while the object is in
// phase 0 (it reads the initial value), then reads slot 0. The machine runs
// the arrive first (the warp that completed the CTA barrier goes on first):
// a blocking wait for phase 1 would never succeed.
extern "C" __global__ void canon_parity1(int* data, int* out) {
  MBAR;
  if (threadIdx.x == 0) mbar_init(bar, 1);
  __syncthreads();
  if (threadIdx.x == 32) {
    data[0] = 10;
    mbar_arrive(bar);
  } else if (threadIdx.x == 0) {
    while (!mbar_test_wait_parity(bar, 1)) {}
    out[0] = data[0];
  }
}

// (h) Launched with 33 threads: thread 0 writes and arrives twice (1
// expected: phases 0 and 1 complete); thread 32, alone in its warp, spins on
// test_wait.parity 0, which succeeds when it reads the value between the
// arrives, then reads slot 0. The machine ends in phase 0 again: a blocking
// wait would never succeed.
extern "C" __global__ void canon_2phase(int* data, int* out) {
  MBAR;
  if (threadIdx.x == 0) mbar_init(bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    data[0] = 10;
    mbar_arrive(bar);
    mbar_arrive(bar);
  } else if (threadIdx.x == 32) {
    while (!mbar_test_wait_parity(bar, 0)) {}
    out[0] = data[0];
  }
}

// (i) Threads 0 and 32 write their slot, arrive and poll a .relaxed
// test_wait on their state, then read the other's slot: a relaxed wait is
// no acquire pattern, so each read races with the other's write.
extern "C" __global__ void canon_nb2_relaxed(int* data, int* out) {
  MBAR;
  if (threadIdx.x == 0) mbar_init(bar, 2);
  __syncthreads();
  if (threadIdx.x == 0 || threadIdx.x == 32) {
    const unsigned k = threadIdx.x / 32;
    data[k] = 10 + k;
    unsigned long long s = mbar_arrive_state(bar);
    unsigned done;
    do {
      asm volatile(
          "{\n\t.reg .pred p;\n\tmbarrier.test_wait.relaxed.cta.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, "
          "p;\n\t}"
          : "=r"(done)
          : "r"(bar), "l"(s)
          : "memory");
    } while (!done);
    out[k] = data[1 - k];
  }
}

// Several phases of one mbarrier (hook_canon.cpp (j)).
// (j4) Thread 32 (whose warp goes on first) arrives and blocks; thread 0
// arrives (phase 0 completes), writes slot 0 and arrives again (phase 1).
// Thread 32's wait reads the value that completed phase 0, which does not
// observe thread 0's second arrive: its read of slot 0 races and may read
// 0. Reading the machine's value, or joining the clocks of every arrive so
// far, loses 0.
extern "C" __global__ void canon_mp_stale(int* data, int* out) {
  MBAR;
  if (threadIdx.x == 0) mbar_init(bar, 2);
  __syncthreads();
  if (threadIdx.x == 0 || threadIdx.x == 32) {
    unsigned long long s = mbar_arrive_state(bar);
    while (!mbar_test_wait(bar, s)) {}
    if (threadIdx.x == 0) {
      data[0] = 1;
      mbar_arrive(bar);
    } else {
      out[0] = data[0];
    }
  }
}

// (j1) Lanes 0 and 1 arrive twice with no wait between (lane 1 writes slot
// 0 between its arrives); lane 0 then waits on its second state and reads
// slot 0. The machine puts both second arrives in phase 1, but lane 0's
// two arrives may both precede lane 1's: its wait is then for phase 0 and
// its read races (0 or 1).
extern "C" __global__ void canon_mp_nowait(int* data, int* out) {
  MBAR;
  if (threadIdx.x == 0) mbar_init(bar, 2);
  __syncthreads();
  if (threadIdx.x < 2) {
    mbar_arrive(bar);
    if (threadIdx.x == 1) data[0] = 1;
    unsigned long long s = mbar_arrive_state(bar);
    if (threadIdx.x == 0) {
      while (!mbar_test_wait(bar, s)) {}
      out[0] = data[0];
    }
  }
}

// (j1) Count 1: threads 0 and 32 each write their slot, arrive once, wait
// on their state and read the other's slot. Whichever arrives first
// completes phase 0 alone (its read races), the other phase 1: the machine
// shows one of the two orders.
extern "C" __global__ void canon_mp_over(int* data, int* out) {
  MBAR;
  if (threadIdx.x == 0) mbar_init(bar, 1);
  __syncthreads();
  if (threadIdx.x == 0 || threadIdx.x == 32) {
    const unsigned k = threadIdx.x / 32;
    data[k] = 10 + k;
    unsigned long long s = mbar_arrive_state(bar);
    while (!mbar_test_wait(bar, s)) {}
    out[k] = data[1 - k];
  }
}

// (j3) Count 1: thread 0 writes 10, arrives, waits, writes 20, arrives and
// waits (phases 0 and 1); thread 32 arrives never and polls parity 0, which
// succeeds only between the arrives. The machine runs thread 0 to its end
// first: a blocking wait there would never succeed.
extern "C" __global__ void canon_mp_waitonly(int* data, int* out) {
  MBAR;
  if (threadIdx.x == 0) mbar_init(bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    data[0] = 10;
    unsigned long long s = mbar_arrive_state(bar);
    while (!mbar_test_wait(bar, s)) {}
    data[0] = 20;
    s = mbar_arrive_state(bar);
    while (!mbar_test_wait(bar, s)) {}
  } else if (threadIdx.x == 32) {
    while (!mbar_test_wait_parity(bar, 0)) {}
    out[0] = data[0];
  }
}

// (j3) Thread 0 arrives, reads a flag with ld.acquire, then waits; thread
// 32 arrives, waits, writes slot 0, arrives again (phase 1) and sets the
// flag with st.release. When thread 0 reads the flag set, its wait must
// observe thread 32's second arrive (8.10.6): it cannot read the value that
// completed phase 0.
extern "C" __global__ void canon_mp_sync(int* data, int* out) {
  MBAR;
  if (threadIdx.x == 0) mbar_init(bar, 2);
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long s = mbar_arrive_state(bar);
    int f;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(f) : "l"(data + 1) : "memory");
    while (!mbar_test_wait(bar, s)) {}
    out[0] = f;
    out[1] = data[0];
  } else if (threadIdx.x == 32) {
    unsigned long long s = mbar_arrive_state(bar);
    while (!mbar_test_wait(bar, s)) {}
    data[0] = 1;
    mbar_arrive(bar);
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(data + 1), "r"(1) : "memory");
  }
}

// (j2) Lanes 0 and 1 arrive and wait (phase 0), write their slot and
// arrive again; lane 1 tests phase 1 once and reads slot 0. A read of a
// partial count observes some arrives: when lane 1's second arrive came
// first, the test fails and its read of slot 0 races.
extern "C" __global__ void canon_mp_peek(int* data, int* out) {
  MBAR;
  if (threadIdx.x == 0) mbar_init(bar, 2);
  __syncthreads();
  if (threadIdx.x < 2) {
    unsigned long long s = mbar_arrive_state(bar);
    while (!mbar_test_wait(bar, s)) {}
    data[threadIdx.x] = 10 + threadIdx.x;
    mbar_arrive(bar);
    if (threadIdx.x == 1) {
      out[1] = mbar_test_wait_parity(bar, 1);
      out[0] = data[0];
    }
  }
}

// arrive_drop (hook_canon.cpp (a)): lanes 0 and 1 write and arrive (2
// expected), lane 0 by arrive_drop; thread 63 waits and reads. Canonical.
extern "C" __global__ void canon_drop2(int* data, int* out) {
  MBAR;
  if (threadIdx.x == 0) mbar_init(bar, 2);
  __syncthreads();
  if (threadIdx.x < 2) {
    data[threadIdx.x] = 10 + threadIdx.x;
    if (threadIdx.x == 0)
      mbar_arrive_drop(bar);
    else
      mbar_arrive(bar);
  } else if (threadIdx.x == 63) {
    while (!mbar_try_wait_parity(bar, 0)) {}
    out[0] = data[0];
    out[1] = data[1];
  }
}

// A fresh mbarrier polled with parity 1 (hook_wait.cpp (l)), as libcu++'s
// pipeline::producer_acquire does: threads 0..7 poll parity 1 (true at once
// after init: it asks for the phase before the current one), then thread 0
// writes and arrives, and thread 7 waits for phase 0 and reads. The memory
// before init (0) completes the parity-1 polls too, but init precedes them
// through bar.sync (8.10.6 Causality item 2): with (l) 7 launches, without
// 2 per poll (about 5 * 2^8).
extern "C" __global__ void canon_fresh(int* data, int* out) {
  MBAR;
  if (threadIdx.x == 0) mbar_init(bar, 1);
  __syncthreads();
  while (!mbar_try_wait_parity(bar, 1)) {}
  if (threadIdx.x == 0) {
    data[0] = 5;
    mbar_arrive(bar);
  } else if (threadIdx.x == 7) {
    while (!mbar_try_wait_parity(bar, 0)) {}
    out[0] = data[0];
  }
}

// The same with mbarrier.inval, which writes the value of the memory before
// init (0) again: (l) must not leave 0 out of the parity-1 polls of threads
// 1..3, which may read the inval's write (not ordered before them); the
// exploration restarts without (l) (CommLoc::init_written).
extern "C" __global__ void canon_fresh_inval(int* data, int* out) {
  MBAR;
  if (threadIdx.x == 0) mbar_init(bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    data[0] = 5;
    mbar_arrive(bar);
    while (!mbar_try_wait_parity(bar, 0)) {}
    asm volatile("mbarrier.inval.shared.b64 [%0];" ::"r"(bar) : "memory");
  } else if (threadIdx.x < 4) {
    while (!mbar_try_wait_parity(bar, 1)) {}
    out[threadIdx.x] = data[0];
  }
}

// The same after two phases: thread 0 arrives (phase 0 completes), all meet
// at bar.sync, thread 0 writes data, arrives again (phase 1 completes: the
// init value again, by a release arrive) and invalidates the barrier
// (0 again). Thread 1's parity-1 poll completes on the second arrive's
// value (synchronizes: out 5) or on the inval's 0 (does not: out 0 or 5);
// left out as the pre-init value, out 0 would be lost.
extern "C" __global__ void canon_fresh_inval2(int* data, int* out) {
  MBAR;
  if (threadIdx.x == 0) {
    mbar_init(bar, 1);
    mbar_arrive(bar);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    data[0] = 5;
    mbar_arrive(bar);
    asm volatile("mbarrier.inval.shared.b64 [%0];" ::"r"(bar) : "memory");
  } else if (threadIdx.x == 1) {
    while (!mbar_try_wait_parity(bar, 1)) {}
    out[1] = data[0];
  }
}

// cuda::pipeline's shape with one item (probe9i i16): threads 0-1 produce,
// 2-3 consume. The producers count themselves with a relaxed atomic before
// bar.sync (a read that is no acquire pattern: hook_canon.cpp (e)), poll
// the fresh `empty` with parity 1 (it completes on the init value: (e2),
// hook_wait.cpp (m)), write, arrive on `full`; each role's first thread
// then does fence.sc and a refcount update, after its arrive began the
// phase ((d2)). The consumers poll `full`, read, arrive on `empty`.
extern "C" __global__ void canon_pipe1(int* data, int* out) {
  __shared__ unsigned long long mb[2];
  __shared__ unsigned cnt;
  unsigned full = (unsigned)__cvta_generic_to_shared(&mb[0]);
  unsigned empty = (unsigned)__cvta_generic_to_shared(&mb[1]);
  unsigned c = (unsigned)__cvta_generic_to_shared(&cnt);
  bool producer = threadIdx.x < 2;
  if (threadIdx.x == 0) asm volatile("st.relaxed.cta.shared.u32 [%0], 0;" ::"r"(c) : "memory");
  __syncthreads();
  if (producer) asm volatile("red.relaxed.cta.shared.add.u32 [%0], 1;" ::"r"(c) : "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned p;
    asm volatile("ld.relaxed.cta.shared.u32 %0, [%1];" : "=r"(p) : "r"(c) : "memory");
    mbar_init(full, p);
    mbar_init(empty, blockDim.x - p);
  }
  __syncthreads();
  if (producer) {
    while (!mbar_try_wait_parity(empty, 1)) {}
    if (threadIdx.x == 0) data[0] = 10;
    mbar_arrive(full);
  } else {
    while (!mbar_try_wait_parity(full, 0)) {}
    if (threadIdx.x == 2) out[0] = data[0];
    mbar_arrive(empty);
  }
  if (threadIdx.x == 0 || threadIdx.x == 2) {
    unsigned old;
    asm volatile("fence.sc.cta;\n\tatom.add.acquire.cta.shared.u32 %0, [%1], 1;" : "=r"(old) : "r"(c) : "memory");
    out[1 + threadIdx.x / 2] = old;
  }
}
