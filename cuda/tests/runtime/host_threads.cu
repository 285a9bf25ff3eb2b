// Kernels launched from new host threads that never call cudaSetDevice: the
// runtime makes the primary context current in each thread on its first call
// (it asks the driver for its per-context state with no context current,
// which must fail there). Each thread launches into its own buffer on the
// legacy default stream, then on cudaStreamPerThread, and checks the errors.
#include <thread>

#include "common.cuh"
static const char* kName = "host_threads";

__global__ void fill(int* a, int v) { a[threadIdx.x] = v + threadIdx.x; }

int main() {
  const int kThreads = 3, kN = 64;
  int* d[kThreads];
  for (int t = 0; t < kThreads; ++t) CHECK(cudaMalloc(&d[t], 2 * kN * sizeof(int)));
  cudaError_t err[kThreads][3];
  std::thread th[kThreads];
  for (int t = 0; t < kThreads; ++t)
    th[t] = std::thread([&, t] {
      fill<<<1, kN>>>(d[t], 1000 * t);
      err[t][0] = cudaGetLastError();
      fill<<<1, kN, 0, cudaStreamPerThread>>>(d[t] + kN, 1000 * t + 500);
      err[t][1] = cudaGetLastError();
      err[t][2] = cudaStreamSynchronize(cudaStreamPerThread);
    });
  for (auto& x : th) x.join();
  bool ok = true;
  for (int t = 0; t < kThreads; ++t) {
    for (cudaError_t e : err[t])
      if (e != cudaSuccess) {
        std::printf("thread %d: %s\n", t, cudaGetErrorName(e));
        ok = false;
      }
    int h[2 * kN];
    CHECK(cudaMemcpy(h, d[t], sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < kN; ++i) ok &= h[i] == 1000 * t + i && h[kN + i] == 1000 * t + 500 + i;
  }
  return finish(kName, ok);
}
