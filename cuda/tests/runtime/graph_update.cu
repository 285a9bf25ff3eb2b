// Updating instantiated CUDA graphs: cudaGraphExecUpdate with graphs captured
// again each iteration (as NVIDIA's jacobiCudaGraphs sample does), its
// errors and result info (a changed node count, an extra sink, a changed node
// type, a 2D memset whose shape changes; the instance unchanged after a
// failed update), a child graph updated in an instance, and the generic
// cudaGraphNodeSetParams / cudaGraphExecNodeSetParams.
#include "common.cuh"
static const char* kName = "graph_update";

__global__ void scale_add(const int* in, int* out, int x, int b, int n) {  // out = in * x + b
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * x + b;
}
__global__ void fill(int* a, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = v;
}

static const int n = 128;

// Captures: a memset of *sum, out = in * x + b, a copy of out[n-1] to *host.
static cudaGraph_t capture(cudaStream_t s, const int* in, int* out, int x, int b, int* sum, int* host) {
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaMemsetAsync(sum, 0, sizeof(int), s));
  scale_add<<<n / 32, 32, 0, s>>>(in, out, x, b, n);
  CHECK(cudaMemcpyAsync(host, out + n - 1, sizeof(int), cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamEndCapture(s, &g));
  return g;
}

static cudaGraph_t kernel_graph(int* a, int v, bool extra_sink) {
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphNode_t k1, k2;
  int count = n;
  void* args[] = {&a, &v, &count};
  cudaKernelNodeParams kp = {};
  kp.func = reinterpret_cast<void*>(fill);
  kp.gridDim = dim3(n / 32);
  kp.blockDim = dim3(32);
  kp.kernelParams = args;
  CHECK(cudaGraphAddKernelNode(&k1, g, nullptr, 0, &kp));
  CHECK(cudaGraphAddKernelNode(&k2, g, extra_sink ? nullptr : &k1, extra_sink ? 0 : 1, &kp));
  return g;
}

static bool all(const int* d, int want) {
  int h[n];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (h[i] != want) return false;
  return true;
}

int main() {
  bool ok = true;
  int *a, *b, *sum, *host;
  CHECK(cudaMalloc(&a, n * sizeof(int)));
  CHECK(cudaMalloc(&b, n * sizeof(int)));
  CHECK(cudaMalloc(&sum, sizeof(int)));
  CHECK(cudaMallocHost(&host, sizeof(int)));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  // 1. Capture again each iteration, swapping input and output, and update
  // the one instance in place: a -> b -> a ... with out = in * 2 + 1.
  CHECK(cudaMemset(a, 0, n * sizeof(int)));
  cudaGraphExec_t x = nullptr;
  int want = 0;
  for (int k = 0; k < 6; ++k) {
    cudaGraph_t g = capture(s, k & 1 ? b : a, k & 1 ? a : b, 2, 1, sum, host);
    if (!x) {
      CHECK(cudaGraphInstantiate(&x, g, 0));
    } else {
      cudaGraphExecUpdateResultInfo info;
      CHECK(cudaGraphExecUpdate(x, g, &info));
      ok &= info.result == cudaGraphExecUpdateSuccess;
    }
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    want = want * 2 + 1;
    ok &= *host == want;
    CHECK(cudaGraphDestroy(g));
  }
  ok &= all(a, want);  // the sixth iteration wrote a
  if (!ok) return finish(kName, false, "captured updates");

  // 2. Failed updates leave the instance unchanged and say why.
  cudaGraphExecUpdateResultInfo info;
  cudaGraph_t g2 = kernel_graph(a, 7, false), g3 = kernel_graph(a, 9, true), g4 = capture(s, a, b, 1, 0, sum, host);
  cudaGraphExec_t x2;
  CHECK(cudaGraphInstantiate(&x2, g2, 0));
  ok &= cudaGraphExecUpdate(x2, g4, &info) == cudaErrorGraphExecUpdateFailure;  // 3 nodes, not 2
  ok &= info.result == cudaGraphExecUpdateErrorTopologyChanged && info.errorNode == nullptr;
  ok &= cudaGraphExecUpdate(x2, g3, &info) == cudaErrorGraphExecUpdateFailure;  // two sinks, not one
  size_t count = 2;
  cudaGraphNode_t g3_nodes[2];
  CHECK(cudaGraphGetNodes(g3, g3_nodes, &count));
  ok &= info.result == cudaGraphExecUpdateErrorTopologyChanged &&
        (info.errorNode == g3_nodes[0] || info.errorNode == g3_nodes[1]);  // one of its sinks
  cudaGetLastError();
  CHECK(cudaGraphLaunch(x2, s));
  CHECK(cudaStreamSynchronize(s));
  ok &= all(a, 7);
  // A memset node where the instance has a kernel node: the node type changed.
  cudaGraph_t g5;
  CHECK(cudaGraphCreate(&g5, 0));
  cudaGraphNode_t m1, m2;
  cudaMemsetParams mp = {};
  mp.dst = b;
  mp.value = 0;
  mp.elementSize = 4;
  mp.width = n;
  mp.height = 1;
  CHECK(cudaGraphAddMemsetNode(&m1, g5, nullptr, 0, &mp));
  CHECK(cudaGraphAddMemsetNode(&m2, g5, &m1, 1, &mp));
  ok &= cudaGraphExecUpdate(x2, g5, &info) == cudaErrorGraphExecUpdateFailure;
  ok &= info.result == cudaGraphExecUpdateErrorNodeTypeChanged && (info.errorNode == m1 || info.errorNode == m2);
  // A 2D memset may change its address and value only.
  cudaGraphExec_t x5;
  CHECK(cudaGraphInstantiate(&x5, g5, 0));
  cudaGraph_t g6;
  CHECK(cudaGraphCreate(&g6, 0));
  cudaGraphNode_t m3, m4;
  mp.value = 5;
  CHECK(cudaGraphAddMemsetNode(&m3, g6, nullptr, 0, &mp));
  mp.width = n / 4;
  mp.height = 2;
  mp.pitch = n;  // bytes
  CHECK(cudaGraphAddMemsetNode(&m4, g6, &m3, 1, &mp));
  ok &= cudaGraphExecUpdate(x5, g6, &info) == cudaErrorGraphExecUpdateFailure;
  ok &= info.result == cudaGraphExecUpdateErrorParametersChanged && info.errorNode == m4;
  CHECK(cudaGraphLaunch(x5, s));  // still the zero memsets
  CHECK(cudaStreamSynchronize(s));
  ok &= all(b, 0);
  cudaGetLastError();
  if (!ok) return finish(kName, false, "failed updates");

  // 3. A child graph node of an instance takes another graph's parameters.
  cudaGraph_t parent, c1 = kernel_graph(a, 3, false), c2 = kernel_graph(a, 4, false);
  CHECK(cudaGraphCreate(&parent, 0));
  cudaGraphNode_t child_node;
  CHECK(cudaGraphAddChildGraphNode(&child_node, parent, nullptr, 0, c1));
  cudaGraphExec_t xp;
  CHECK(cudaGraphInstantiate(&xp, parent, 0));
  CHECK(cudaGraphExecChildGraphNodeSetParams(xp, child_node, c2));
  CHECK(cudaGraphLaunch(xp, s));
  CHECK(cudaStreamSynchronize(s));
  ok &= all(a, 4);
  ok &= cudaGraphExecChildGraphNodeSetParams(xp, child_node, g3) != cudaSuccess;  // another topology
  cudaGetLastError();
  if (!ok) return finish(kName, false, "child graph");

  // 4. The generic setters: a kernel node of the graph, then of the instance.
  cudaGraphNode_t nodes[2];
  count = 2;
  CHECK(cudaGraphGetNodes(g2, nodes, &count));
  int v = 11, cnt = n;
  void* args[] = {&b, &v, &cnt};
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeKernel;
  p.kernel.func = reinterpret_cast<void*>(fill);
  p.kernel.gridDim = dim3(n / 32);
  p.kernel.blockDim = dim3(32);
  p.kernel.kernelParams = args;
  CHECK(cudaGraphNodeSetParams(nodes[1], &p));
  cudaGraphExec_t x6;
  CHECK(cudaGraphInstantiate(&x6, g2, 0));
  CHECK(cudaGraphLaunch(x6, s));
  CHECK(cudaStreamSynchronize(s));
  ok &= all(b, 11);
  v = 12;
  CHECK(cudaGraphExecNodeSetParams(x6, nodes[1], &p));
  CHECK(cudaGraphLaunch(x6, s));
  CHECK(cudaStreamSynchronize(s));
  ok &= all(b, 12);
  p.type = cudaGraphNodeTypeMemset;  // not the node's type
  ok &= cudaGraphExecNodeSetParams(x6, nodes[1], &p) == cudaErrorInvalidValue;
  cudaGetLastError();
  if (!ok) return finish(kName, false, "generic setters");
  return finish(kName, ok);
}
