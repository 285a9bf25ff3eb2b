// Broken on purpose: a kernel spins on a latch that the host never sets. The
// launch is deferred (cuda/shim/streams.cpp: it has changed nothing), so
// cudaStreamQuery answers cudaErrorNotReady; cudaStreamSynchronize runs it a
// last time and reports the livelock (cudaErrorLaunchTimeout).
#include <cstdio>

__global__ void spin(volatile unsigned* latch) {
  while (latch[0] < 1) {}
}

int main() {
  unsigned* latch;
  cudaMallocHost(&latch, sizeof(unsigned));
  *latch = 0;
  cudaStream_t s;
  cudaStreamCreate(&s);
  spin<<<1, 1, 0, s>>>(latch);
  cudaError_t q = cudaStreamQuery(s), r = cudaStreamSynchronize(s);
  std::printf("deferred_hang: %s, %s\n", cudaGetErrorName(q), cudaGetErrorName(r));
  if (q == cudaErrorNotReady && r == cudaErrorLaunchTimeout) std::printf("deferred_hang: PASS\n");
  return 0;
}
