// Spin locks in shared memory built three times: debuglock_O3.ptx (nvcc -ptx
// -arch=sm_80 -O3 -lineinfo), debuglock_G.ptx (-G) and debuglock_O0.ptx
// (-Xcicc -O0 -lineinfo), the .file path of debuglock.cu made relative.
// At -G and -O0 atomicCAS and atomicExch are calls whose result comes back
// through the .param return values of two wrappers, and the counter's
// initialisation `lock = cnt = 0` reads cnt back. `ptxcheck outcomes` must
// give every build the same states and search the debug builds no wider
// than the -O3 one (tests/corpus/outcomes_debuglock.py).

// CAS lock released by atomicExch (its result unused), taken by lane 0 of
// two warps, twice each: seen[k] = the warp of the k-th acquisition, out[0]
// = the count. States: every order of the four acquisitions with two of
// each warp (6), count 4.
extern "C" __global__ void dl_cas(int* seen, int* out) {
  __shared__ int lock, cnt;
  if (threadIdx.x == 0) lock = cnt = 0;
  __syncthreads();
  if (threadIdx.x % 32 == 0) {
    for (int i = 0; i < 2; ++i) {
      while (atomicCAS(&lock, 0, 1) != 0) {}
      __threadfence_block();
      int c = cnt;
      seen[c] = threadIdx.x / 32;
      cnt = c + 1;
      __threadfence_block();
      atomicExch(&lock, 0);
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) out[0] = cnt;
}

// atomicExch test-and-set lock, lane 0 of three warps once each: seen[k] =
// the warp of the k-th acquisition (6 permutations), out[0] = 3.
extern "C" __global__ void dl_exch(int* seen, int* out) {
  __shared__ int lock, cnt;
  if (threadIdx.x == 0) lock = cnt = 0;
  __syncthreads();
  if (threadIdx.x % 32 == 0) {
    while (atomicExch(&lock, 1) != 0) {}
    __threadfence_block();
    int c = cnt;
    seen[c] = threadIdx.x / 32;
    cnt = c + 1;
    __threadfence_block();
    atomicExch(&lock, 0);
  }
  __syncthreads();
  if (threadIdx.x == 0) out[0] = cnt;
}
