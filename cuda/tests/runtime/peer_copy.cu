// Peer copies on the one device (cudaMemcpyPeer, cudaMemcpyPeerAsync; the
// driver's cuMemcpyPeer/cuMemcpyPeerAsync), as p2pBandwidthLatencyTest
// makes them for each device pair including a device with itself: a
// blocking copy, one ordered in a stream between two kernels, and one
// captured into a graph and launched twice.
#include "common.cuh"
static const char* kName = "peer_copy";

__global__ void fill(int* v, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = i * 3 + k;
}

__global__ void twice(int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= 2;
}

static bool check(const int* d, int n, int k, int mul) {
  int* h = new int[n];
  CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n; ++i) ok &= h[i] == (i * 3 + k) * mul;
  delete[] h;
  return ok;
}

int main() {
  const int n = 1000;
  const size_t bytes = n * sizeof(int);
  bool ok = true;
  int *a = nullptr, *b = nullptr;
  CHECK(cudaMalloc(&a, bytes));
  CHECK(cudaMalloc(&b, bytes));

  fill<<<(n + 127) / 128, 128>>>(a, n, 1);
  CHECK(cudaMemcpyPeer(b, 0, a, 0, bytes));
  ok &= check(b, n, 1, 1);

  cudaStream_t st;
  CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  fill<<<(n + 127) / 128, 128, 0, st>>>(a, n, 2);
  CHECK(cudaMemcpyPeerAsync(b, 0, a, 0, bytes, st));
  twice<<<(n + 127) / 128, 128, 0, st>>>(b, n);
  CHECK(cudaStreamSynchronize(st));
  ok &= check(b, n, 2, 2) && check(a, n, 2, 1);

  // Captured: the copy becomes a memcpy node between the two kernels.
  cudaGraph_t g;
  cudaGraphExec_t ge;
  CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
  fill<<<(n + 127) / 128, 128, 0, st>>>(a, n, 5);
  CHECK(cudaMemcpyPeerAsync(b, 0, a, 0, bytes, st));
  twice<<<(n + 127) / 128, 128, 0, st>>>(b, n);
  CHECK(cudaStreamEndCapture(st, &g));
  CHECK(cudaGraphInstantiate(&ge, g, 0));
  CHECK(cudaMemset(b, 0, bytes));
  ok &= check(b, n, 0, 0);  // not launched yet: b is still all zero
  CHECK(cudaGraphLaunch(ge, st));
  CHECK(cudaStreamSynchronize(st));
  ok &= check(b, n, 5, 2);
  CHECK(cudaGraphExecDestroy(ge));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaStreamDestroy(st));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  return finish(kName, ok);
}
