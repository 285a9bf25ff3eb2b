// cudaMemcpyBatchAsync (CUDA 12.8; cuMemcpyBatchAsync_v2 in CUDA 13): host to
// device, device to device and device to host copies in one batch each, two
// attribute ranges, in stream order with kernels; the documented refusals
// (the legacy NULL stream, attrsIdxs not starting at 0, no source access
// order) are cudaErrorInvalidValue; a captured batch replays from a graph.
#include "common.cuh"
static const char* kName = "batch_copy";

__global__ void add1(int* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += 1;
}

int main() {
  const int n = 256;
  static int h0[n], h1[n], g0[n], g1[n];
  for (int i = 0; i < n; ++i) h0[i] = i, h1[i] = -i;
  int *d0, *d1, *d2;
  CHECK(cudaMalloc(&d0, sizeof h0));
  CHECK(cudaMalloc(&d1, sizeof h1));
  CHECK(cudaMalloc(&d2, sizeof h1));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaMemcpyAttributes at[2] = {};
  at[0].srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  at[1].srcAccessOrder = cudaMemcpySrcAccessOrderDuringApiCall;
  size_t idx[2] = {0, 1};
  size_t sizes[2] = {sizeof h0, sizeof h1};
  void* up_d[2] = {d0, d1};
  const void* up_s[2] = {h0, h1};
  CHECK(cudaMemcpyBatchAsync(up_d, up_s, sizes, 2, at, idx, 2, s));
  add1<<<1, n, 0, s>>>(d0, n);
  add1<<<1, n, 0, s>>>(d1, n);
  void* dd_d[1] = {d2};
  const void* dd_s[1] = {d1};
  CHECK(cudaMemcpyBatchAsync(dd_d, dd_s, sizes, 1, at, idx, 1, s));
  void* down_d[2] = {g0, g1};
  const void* down_s[2] = {d0, d2};
  CHECK(cudaMemcpyBatchAsync(down_d, down_s, sizes, 2, at, idx, 1, s));
  CHECK(cudaStreamSynchronize(s));
  bool ok = true;
  for (int i = 0; i < n; ++i) ok &= g0[i] == i + 1 && g1[i] == 1 - i;

  cudaError_t legacy = cudaMemcpyBatchAsync(up_d, up_s, sizes, 2, at, idx, 1, cudaStreamLegacy);
  size_t bad_idx[1] = {1};
  cudaError_t first = cudaMemcpyBatchAsync(up_d, up_s, sizes, 2, at, bad_idx, 1, s);
  cudaMemcpyAttributes none = {};
  cudaError_t order = cudaMemcpyBatchAsync(up_d, up_s, sizes, 2, &none, idx, 1, s);
  if (legacy != cudaErrorInvalidValue || first != cudaErrorInvalidValue || order != cudaErrorInvalidValue) {
    std::printf("refusals: %s %s %s\n", cudaGetErrorName(legacy), cudaGetErrorName(first), cudaGetErrorName(order));
    ok = false;
  }
  (void)cudaGetLastError();

  // Captured: the graph copies the host buffer as it is at each launch.
  cudaGraph_t g;
  cudaGraphExec_t ge;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaMemcpyBatchAsync(up_d + 1, up_s + 1, sizes, 1, at, idx, 1, s));
  add1<<<1, n, 0, s>>>(d1, n);
  CHECK(cudaMemcpyBatchAsync(down_d + 1, dd_s, sizes, 1, at, idx, 1, s));
  CHECK(cudaStreamEndCapture(s, &g));
  CHECK(cudaGraphInstantiate(&ge, g, 0));
  for (int i = 0; i < n; ++i) h1[i] = 2 * i;
  CHECK(cudaGraphLaunch(ge, s));
  CHECK(cudaStreamSynchronize(s));
  for (int i = 0; i < n; ++i) ok &= g1[i] == 2 * i + 1;
  return finish(kName, ok);
}
