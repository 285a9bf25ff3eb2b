// corpus-arch: sm_90
// The fixed twin of c9_cl_relaxed: the writer puts __threadfence() between
// its two words and the relaxed arrive, which makes a fence-based release
// pattern with the arrive (CUTLASS's cluster_arrive_relaxed after a fence).
#include <cuda/ptx>
extern "C" __global__ void __cluster_dims__(2, 1, 1) c9_cl_relaxed_fence(int* data, int* out) {
  const unsigned rank = cuda::ptx::get_sreg_cluster_ctarank();
  const unsigned cl = blockIdx.x / 2;
  if (rank == 0 && threadIdx.x == 5) {
    data[2 * cl] = 11 * (cl + 1);
    data[2 * cl + 1] = 22 * (cl + 1);
    __threadfence();
  }
  cuda::ptx::barrier_cluster_arrive(cuda::ptx::sem_relaxed);
  cuda::ptx::barrier_cluster_wait();
  if (rank == 1 && threadIdx.x == 0) {
    out[2 * cl] = data[2 * cl];
    out[2 * cl + 1] = data[2 * cl + 1];
  }
}
