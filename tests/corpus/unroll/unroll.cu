// Unrolled polls for outcomes (docs/outcomes.md "Unrolled polls",
// semantics/outcomes/wait_analysis.cpp Shared::poll_unrolled): thread 0
// writes data and sets a flag; thread 32 polls the flag in a loop that nvcc
// unrolls into straight-line polls (#pragma unroll), then spins, then reads;
// tests/corpus/outcomes_unroll.py. Built with
//   nvcc -arch=sm_80 -O3 -ptx unroll.cu -o unroll.ptx
#include <cuda/atomic>

// The first four polls are unrolled, then a spin loop: out = [42].
extern "C" __global__ void unroll_mp(int* flag, int* data, int* out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  if (threadIdx.x == 0) {
    *data = 42;
    f.store(1, cuda::memory_order_release);
  } else if (threadIdx.x == 32) {
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (f.load(cuda::memory_order_acquire)) goto done;
    while (!f.load(cuda::memory_order_acquire)) {}
  done:
    out[0] = *data;
  }
}

// The same with relaxed polls: out = [0] or [42], and a race on data.
extern "C" __global__ void unroll_relaxed(int* flag, int* data, int* out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  if (threadIdx.x == 0) {
    *data = 42;
    f.store(1, cuda::memory_order_release);
  } else if (threadIdx.x == 32) {
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (f.load(cuda::memory_order_relaxed)) goto done;
    while (!f.load(cuda::memory_order_relaxed)) {}
  done:
    out[0] = *data;
  }
}

// Four unrolled polls that give up: thread 32 then reads data whether or
// not it saw the flag: out = [42] or [0] (it gave up before the write), a
// race on data. The polls' last failure leaves them, so no poll drops its
// failures.
extern "C" __global__ void unroll_giveup(int* flag, int* data, int* out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  if (threadIdx.x == 0) {
    *data = 42;
    f.store(1, cuda::memory_order_release);
  } else if (threadIdx.x == 32) {
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (f.load(cuda::memory_order_acquire)) break;
    out[0] = *data;
  }
}

// Three unrolled polls, then a spin loop; which poll saw the flag is
// stored: out = [k], k = 0..3. Every way out ends the wait, but with
// another value in the register k: no poll drops its failures.
extern "C" __global__ void unroll_count(int* flag, int* data, int* out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  if (threadIdx.x == 0) {
    f.store(1, cuda::memory_order_release);
  } else if (threadIdx.x == 32) {
    int k = 0;
#pragma unroll
    for (; k < 3; ++k)
      if (f.load(cuda::memory_order_acquire)) break;
    if (k == 3)
      while (!f.load(cuda::memory_order_acquire)) {}
    out[0] = k;
  }
}
