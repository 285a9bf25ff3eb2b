// Small kernels for tests/corpus/canon_xcheck.py --env PTXCHECK_OUTCOMES_NO_CAS_LOOP:
// `ptxcheck outcomes` must list the same outcomes and races when the CAS of
// a CAS retry loop (the CUDA Programming Guide's atomicAdd for double,
// semantics/outcomes/hook_cas.cpp) runs only its successful iteration as
// when its seed load and every CAS read chosen values. casloop_fadd (thread
// 0 of 2 CTAs adds 2^53 and -2^53 to a double that starts at 1: the order
// is observable, {0, 1}), casloop_max (an integer max), casloop_fadd_smem
// and casloop_int_smem (threads of one CTA on a shared word: the CAS is an
// update of an RMW chain, hook_chain.cpp) are reduced. casloop_seed stores
// its seed load's value before the loop ((s4) fails), casloop_tries counts
// its failed iterations and stores the count ((s2) fails): both fall back
// to value choices, and lose states if that condition is not checked.
// casloop_once (one CAS, no retry) and casloop_plain (load + store, no
// CAS) lose updates, as they may.
// nvcc -ptx -arch=sm_90 -O3 -lineinfo -o casloop.ptx casloop.cu
__device__ double cas_add(double* p, double v) {
  unsigned long long* a = (unsigned long long*)p;
  unsigned long long old = *a, assumed;
  do {
    assumed = old;
    old = atomicCAS(a, assumed, __double_as_longlong(v + __longlong_as_double(assumed)));
  } while (assumed != old);
  return __longlong_as_double(old);
}

__device__ int cas_max(int* p, int v) {
  int old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, max(assumed, v));
  } while (assumed != old);
  return old;
}

// Thread 0 of CTA 0 adds a to *p, of CTA 1 b.
extern "C" __global__ void casloop_fadd(double* p, double a, double b) {
  if (threadIdx.x == 0) cas_add(p, blockIdx.x ? b : a);
}

// Thread 0 of each CTA takes the max with v[blockIdx.x]; out gets the value before.
extern "C" __global__ void casloop_max(int* p, const int* v, int* out) {
  if (threadIdx.x == 0) out[blockIdx.x] = cas_max(p, v[blockIdx.x]);
}

// Threads 0 .. n-1 of one CTA add v[tid] to a shared double that starts at v[n].
extern "C" __global__ void casloop_fadd_smem(double* out, const double* v, int n) {
  __shared__ double s;
  if (threadIdx.x == 0) s = v[n];
  __syncthreads();
  if (threadIdx.x < n) cas_add(&s, v[threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) out[0] = s;
}

// The same with integers, each thread storing the value it replaced.
extern "C" __global__ void casloop_int_smem(int* out, int n) {
  __shared__ int s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  if (threadIdx.x < n) {
    int old = s, assumed;
    do {
      assumed = old;
      old = atomicCAS(&s, assumed, assumed + (1 << threadIdx.x));
    } while (assumed != old);
    out[threadIdx.x + 1] = old;
  }
  __syncthreads();
  if (threadIdx.x == 0) out[0] = s;
}

// The seed load's value is stored before the loop.
extern "C" __global__ void casloop_seed(double* p, const double* v, double* seen) {
  if (threadIdx.x != 0) return;
  unsigned long long* a = (unsigned long long*)p;
  unsigned long long old = *a, assumed;
  seen[blockIdx.x] = __longlong_as_double(old);
  do {
    assumed = old;
    old = atomicCAS(a, assumed, __double_as_longlong(v[blockIdx.x] + __longlong_as_double(assumed)));
  } while (assumed != old);
}

// The failed iterations are counted.
extern "C" __global__ void casloop_tries(int* p, int* tries) {
  if (threadIdx.x != 0) return;
  int old = *p, assumed, n = 0;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, assumed + 1 + (int)blockIdx.x);
    ++n;
  } while (assumed != old);
  tries[blockIdx.x] = n;
}

// One CAS, no retry: an update may be lost.
extern "C" __global__ void casloop_once(int* p) {
  if (threadIdx.x != 0) return;
  int old = *p;
  atomicCAS(p, old, old + 1 + (int)blockIdx.x);
}

// A plain load and store instead of a CAS: an update may be lost.
extern "C" __global__ void casloop_plain(int* p) {
  if (threadIdx.x != 0) return;
  *p = *p + 1 + (int)blockIdx.x;
}
