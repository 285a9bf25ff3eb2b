// Store buffering through module-scope __device__ cuda::atomic<int> objects,
// the writes being seq_cst exchanges: CTA 0 exchanges X then loads Y, CTA 1
// exchanges Y then loads X (seq_cst).
#include <cuda/atomic>
__device__ cuda::atomic<int, cuda::thread_scope_device> X{0}, Y{0};
extern "C" __global__ void h9_sb_xchg_device(int* r) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    X.exchange(1);
    r[0] = Y.load();
  } else {
    Y.exchange(1);
    r[1] = X.load();
  }
}
