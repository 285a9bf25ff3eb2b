// Peer copies on the one device (cudaMemcpyPeer, cudaMemcpyPeerAsync,
// cudaMemcpy3DPeer(Async); the driver's cuMemcpyPeer, cuMemcpy3DPeer and
// their Async forms), as p2pBandwidthLatencyTest makes them for each device
// pair including a device with itself: a blocking copy, one ordered in a
// stream between two kernels, one captured into a graph, and a 3D box.
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
  // A 3D box of 4 x 3 x 2 ints from (1,1,1) of a 10 x 5 x 4 volume to (0,2,1)
  // of b's, blocking and in the stream.
  const int W = 10, H = 5;
  for (int async = 0; async < 2; ++async) {
    fill<<<(n + 127) / 128, 128>>>(a, n, async);
    CHECK(cudaMemset(b, 0, bytes));
    cudaMemcpy3DPeerParms p = {};
    p.srcPtr = make_cudaPitchedPtr(a, W * sizeof(int), W, H);
    p.dstPtr = make_cudaPitchedPtr(b, W * sizeof(int), W, H);
    p.srcPos = make_cudaPos(1 * sizeof(int), 1, 1);
    p.dstPos = make_cudaPos(0, 2, 1);
    p.extent = make_cudaExtent(4 * sizeof(int), 3, 2);
    p.srcDevice = p.dstDevice = 0;
    if (async) {
      CHECK(cudaMemcpy3DPeerAsync(&p, st));
      CHECK(cudaStreamSynchronize(st));
    } else {
      CHECK(cudaMemcpy3DPeer(&p));
    }
    int h[W * H * 4];
    CHECK(cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost));
    for (int z = 0; z < 4; ++z)
      for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
          bool in = x < 4 && y >= 2 && y < 5 && z >= 1 && z < 3;
          int src = ((z - 1 + 1) * H + (y - 2 + 1)) * W + (x + 1);
          ok &= h[(z * H + y) * W + x] == (in ? src * 3 + async : 0);
        }
  }
  CHECK(cudaGraphExecDestroy(ge));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaStreamDestroy(st));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  return finish(kName, ok);
}
