// corpus-arch: sm_90
// Cluster-scope release/acquire on GLOBAL memory across a (2,2) grid in
// clusters of (1,2,1): CTA (0,0) writes data and st.release.cluster flag;
// CTA (0,1) (same cluster) and CTA (1,0) (other cluster) poll
// ld.acquire.cluster flag and read data.
extern "C" __global__ void __cluster_dims__(1, 2, 1) h9_cl_scope_global(int* data, int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0 && blockIdx.y == 0) {
    *data = 42;
    asm volatile("st.release.cluster.global.b32 [%0], %1;" ::"l"(flag), "r"(1) : "memory");
  } else if (blockIdx.x + blockIdx.y == 1) {
    int f;
    do {
      asm volatile("ld.acquire.cluster.global.b32 %0, [%1];" : "=r"(f) : "l"(flag) : "memory");
    } while (f == 0);
    out[blockIdx.x] = *data;  // out[0]: CTA (0,1), same cluster; out[1]: CTA (1,0), other cluster
  }
}
