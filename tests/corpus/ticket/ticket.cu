// Small kernels for tests/corpus/canon_xcheck.py --env PTXCHECK_OUTCOMES_NO_RMW_CHAIN
// and tests/corpus/ticket_perm.py: `ptxcheck outcomes` must list the same
// outcomes and races when the atomic updates of a location read the
// machine's latest write at a time the search chooses (RMW chains,
// semantics/outcomes/hook_chain.cpp) as when each update's read chooses a
// value. ticket_sum (n threads taking tickets, the total read after
// __syncthreads()) and ticket_bar (updates on both sides of a barrier) keep
// their chains; each other kernel breaks one condition of hook_chain.cpp,
// so that the search falls back to value choices, and loses states if that
// condition is not checked: ticket_plain (b) (a plain store unordered with
// the update), ticket_cta (a) (updates of one global word by two CTAs),
// ticket_lb (c) (updates waiting on two locations: load buffering),
// ticket_late (d) (an update unordered with a read of the total).
// nvcc -ptx -arch=sm_90 -O3 -lineinfo -o ticket.ptx ticket.cu
extern "C" __global__ void ticket_sum(int* out) {
  __shared__ int s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  out[threadIdx.x] = atomicAdd(&s, (int)threadIdx.x + 1);
  __syncthreads();
  if (threadIdx.x == 0) out[blockDim.x] = s;
}

// Thread 1 updates before the barrier, thread 0 after it: one order.
extern "C" __global__ void ticket_bar(int* out) {
  __shared__ int s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  int t = 0;
  if (threadIdx.x != 0) t = atomicAdd(&s, (int)threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) t = atomicAdd(&s, 10);
  out[threadIdx.x] = t;
}

// Thread 1 stores 10 while thread 0 adds: a weak store is not morally
// strong with the update, so the update may read the initial 0 even when
// the store precedes it in coherence order (PTX ISA 8.10.3 needs both
// morally strong).
extern "C" __global__ void ticket_plain(int* out) {
  __shared__ int s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  int t = -1;
  if (threadIdx.x == 0)
    t = atomicAdd(&s, 1);
  else
    s = 10;
  __syncthreads();
  out[threadIdx.x] = t;
  if (threadIdx.x == 0) out[2] = s;
}

// One ticket per CTA from a global counter (CTAs explored apart).
extern "C" __global__ void ticket_cta(unsigned* count, unsigned* out) {
  if (threadIdx.x == 0) out[blockIdx.x] = atomicAdd(count, 1u);
}

// Load buffering over two counters: each thread's first update may read
// the other's second one (relaxed updates order nothing, PTX ISA 8.10.4
// permits it).
extern "C" __global__ void ticket_lb(int* out) {
  __shared__ int x, y;
  if (threadIdx.x == 0) x = 0, y = 0;
  __syncthreads();
  if (threadIdx.x == 0) {
    out[0] = atomicAdd(&x, 1);
    out[1] = atomicAdd(&y, 1);
  } else if (threadIdx.x == 1) {
    out[2] = atomicAdd(&y, 1);
    out[3] = atomicAdd(&x, 1);
  }
}

// After the barrier thread 1 reads the total (first, in the interpreter's
// order) while thread 0 adds again: the read may see the second update or
// not.
extern "C" __global__ void ticket_late(int* out) {
  __shared__ int s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  int t = atomicAdd(&s, (int)threadIdx.x + 1);
  __syncthreads();
  if (threadIdx.x == 1) out[2] = *(volatile int*)&s;
  if (threadIdx.x == 0) t += atomicAdd(&s, 4) << 8;
  out[threadIdx.x] = t;
}
