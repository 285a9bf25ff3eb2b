// corpus-arch: sm_90
// barrier.cluster.arrive.relaxed used as a handoff: in each cluster of 2
// CTAs, thread 5 of rank 0 writes two words; every thread arrives with
// .relaxed (cuda::ptx, sem_relaxed) and waits; thread 0 of rank 1 copies
// the words out. A relaxed arrive orders nothing that came before it.
#include <cuda/ptx>
extern "C" __global__ void __cluster_dims__(2, 1, 1) c9_cl_relaxed(int* data, int* out) {
  const unsigned rank = cuda::ptx::get_sreg_cluster_ctarank();
  const unsigned cl = blockIdx.x / 2;
  if (rank == 0 && threadIdx.x == 5) {
    data[2 * cl] = 11 * (cl + 1);
    data[2 * cl + 1] = 22 * (cl + 1);
  }
  cuda::ptx::barrier_cluster_arrive(cuda::ptx::sem_relaxed);
  cuda::ptx::barrier_cluster_wait();
  if (rank == 1 && threadIdx.x == 0) {
    out[2 * cl] = data[2 * cl];
    out[2 * cl + 1] = data[2 * cl + 1];
  }
}
