// Small kernels for tests/corpus/canon_xcheck.py --env PTXCHECK_OUTCOMES_NO_COMMUTE:
// `ptxcheck outcomes` must list the same outcomes and races with exempt
// updates (commuting atomics whose results are dead stay deterministic,
// semantics/outcomes/hook.cpp, Hook::commuting_rmw) and without them.
// commute_sum and commute_last keep their updates deterministic (one launch
// per CTA path instead of one per chosen subset sum); each other kernel
// breaks a condition, so that the search falls back to choices, and gains
// or loses outcomes if that condition is not checked: commute_reader (a
// plain read unordered with the updates), commute_mixed (two operations
// that do not commute), commute_mixed_po (the same, where program order
// relates the xor to one add only), commute_ticket (a result that is
// used), commute_sb and commute_cta_sb (updates after a release fence and
// before an acquire fence, whose order synchronizes; checked by disabling
// each); commute_lastfence keeps updates after a release fence exempt. commute_hist and
// commute_cta_flag update global words from several CTAs, as do
// commute_cta_min and commute_cta_flag_or; commute_cta_flag and
// commute_cta_flag_or lose states if the composition takes a launch's
// bytes instead of applying each CTA's operands.
// nvcc -ptx -arch=sm_90 -O3 -lineinfo -o commute.ptx commute.cu
// nvcc -ptx -arch=sm_90 -Xcicc -O0 -lineinfo -o commute_O0.ptx commute.cu
// (the _O0 specs: each atomic a call returning its result through .param)
extern "C" __global__ void commute_sum(int* out) {
  __shared__ int s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  atomicAdd(&s, (int)threadIdx.x + 1);
  __syncthreads();
  if (threadIdx.x == 0) out[0] = s;
}

// The last CTA (by a ticket) sums the CTAs' shared-memory totals.
extern "C" __global__ void commute_last(int* partial, unsigned* count, int* out) {
  __shared__ int s;
  __shared__ unsigned ticket;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  atomicAdd(&s, (int)blockIdx.x + 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = s;
    __threadfence();
    ticket = atomicAdd(count, 1u);
  }
  __syncthreads();
  if (ticket == gridDim.x - 1 && threadIdx.x == blockDim.x - 1) {
    __threadfence();
    int sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) sum += ((volatile int*)partial)[b];
    *out = sum;
  }
}

// Thread 2 reads while threads 0 and 1 update: any subset sum.
extern "C" __global__ void commute_reader(int* out) {
  __shared__ int s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  if (threadIdx.x < 2)
    atomicAdd(&s, 1 << threadIdx.x);
  else
    out[0] = *(volatile int*)&s;
  __syncthreads();
  if (threadIdx.x == 0) out[1] = s;
}

// (0 + 1) ^ 3 = 2 and (0 ^ 3) + 1 = 4.
extern "C" __global__ void commute_mixed(int* out) {
  __shared__ int s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  if (threadIdx.x == 0)
    atomicAdd(&s, 1);
  else
    atomicXor(&s, 3);
  __syncthreads();
  if (threadIdx.x == 0) out[0] = s;
}

// Thread 32's xor is ordered before its add, not before thread 0's add
// (in another warp; the interpreter runs it after thread 32's):
// (0 + 2) ^ 3 + 1 = 2 and 0 ^ 3 + 2 + 1 = 6.
extern "C" __global__ void commute_mixed_po(int* out) {
  __shared__ int s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  if (threadIdx.x == 32) {
    atomicXor(&s, 3);
    atomicAdd(&s, 1);
  } else if (threadIdx.x == 0) {
    atomicAdd(&s, 2);
  }
  __syncthreads();
  if (threadIdx.x == 0) out[0] = s;
}

// Each thread's ticket: a permutation.
extern "C" __global__ void commute_ticket(int* out) {
  __shared__ int s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  out[threadIdx.x] = atomicAdd(&s, 1);
}

// Store buffering through an update chain: fence; update; fence. Whichever
// update comes second synchronizes with the first (PTX ISA 8.8 forms 3,
// 8.9.4 item 4), so out = {0, 0} is forbidden (fence.acq_rel, not the
// fence.sc of __threadfence_block, which forbids it alone: 8.10.2).
__device__ __forceinline__ void fence_acq_rel_cta() { asm volatile("fence.acq_rel.cta;" ::: "memory"); }
extern "C" __global__ void commute_sb(int* out) {
  __shared__ int s, x, y;
  if (threadIdx.x == 0) s = x = y = 0;
  __syncthreads();
  volatile int* vx = &x;
  volatile int* vy = &y;
  if (threadIdx.x == 0) {
    *vx = 1;
    fence_acq_rel_cta();
    atomicAdd(&s, 1);
    fence_acq_rel_cta();
    out[0] = *vy;
  } else {
    *vy = 1;
    fence_acq_rel_cta();
    atomicAdd(&s, 2);
    fence_acq_rel_cta();
    out[1] = *vx;
  }
}

// Updates of one global word by several CTAs (explored apart): their
// changes are added to the initial value (Composer::build).
extern "C" __global__ void commute_hist(const int* in, int* bins) {
  const int x = in[blockIdx.x * blockDim.x + threadIdx.x];
  atomicAdd(&bins[x & 1], x);
}

// Each CTA's change depends on what it read of the other's flag: the
// composition must add the changes of the CTA paths it picks, not take
// the bytes of one launch: {17, 26, 161, 170}.
extern "C" __global__ void commute_cta_flag(volatile int* flag, int* sum) {
  flag[blockIdx.x] = 1;
  atomicAdd(sum, flag[1 - blockIdx.x] ? 10 << (4 * blockIdx.x) : 1 << (4 * blockIdx.x));
}

// The least of the CTAs' operands and the initial value, signed: -1.
extern "C" __global__ void commute_cta_min(int* m) { atomicMin(m, (int)blockIdx.x - 1); }

// commute_cta_flag with or: the composition applies each CTA's operands.
extern "C" __global__ void commute_cta_flag_or(volatile int* flag, int* bits) {
  flag[blockIdx.x] = 1;
  atomicOr(bits, flag[1 - blockIdx.x] ? 10 << (4 * blockIdx.x) : 1 << (4 * blockIdx.x));
}

// The last CTA's threads each run __threadfence() before adding a partial
// into a shared word: updates after a release fence, with no acquire after
// them (no acquire pattern starts with their reads), stay exempt.
extern "C" __global__ void commute_lastfence(int* partial, unsigned* count, int* out) {
  __shared__ int s;
  __shared__ unsigned ticket;
  if (threadIdx.x == 0) {
    s = 0;
    partial[blockIdx.x] = (int)blockIdx.x + 1;
    __threadfence();
    ticket = atomicAdd(count, 1u);
  }
  __syncthreads();
  if (ticket == gridDim.x - 1 && threadIdx.x < gridDim.x) {
    __threadfence();
    atomicAdd(&s, partial[threadIdx.x]);
  }
  __syncthreads();
  if (ticket == gridDim.x - 1 && threadIdx.x == 0) *out = s;
}

// commute_sb over two CTAs with global words and fence.acq_rel.gpu: the
// release pattern of one CTA's update synchronizes with the acquire pattern
// of the other's, whichever comes first, so out = [0, 0] is forbidden.
__device__ __forceinline__ void fence_acq_rel_gpu() { asm volatile("fence.acq_rel.gpu;" ::: "memory"); }
extern "C" __global__ void commute_cta_sb(volatile int* v, int* s, int* out) {
  v[blockIdx.x] = 1;
  fence_acq_rel_gpu();
  atomicAdd(s, (int)blockIdx.x + 1);
  fence_acq_rel_gpu();
  out[blockIdx.x] = v[1 - blockIdx.x];
}
