// CUDA graphs: a graph built node by node (memset, kernel, child graph,
// memcpy, host, empty and event nodes), one captured from two streams that
// fork and join through events, updates of an instantiated graph, clones,
// and the errors of an ill-formed capture.
#include <cstring>

#include "common.cuh"
static const char* kName = "graphs";

__global__ void axpb(int* a, int x, int b, int n) {  // a = a * x + b
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = a[i] * x + b;
}
__global__ void add(int* a, const int* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += b[i];
}

static const int n = 256;
static int host_calls = 0;
static int host_seen = -1;
static int* host_out;
void CUDART_CB host_fn(void*) {
  ++host_calls;
  host_seen = host_out[n - 1];
}

static bool all(const int* v, int want) {
  for (int i = 0; i < n; ++i)
    if (v[i] != want) return false;
  return true;
}

int main() {
  bool ok = true;
  int *a, *b;
  CHECK(cudaMalloc(&a, n * sizeof(int)));
  CHECK(cudaMalloc(&b, n * sizeof(int)));
  CHECK(cudaMallocHost(&host_out, n * sizeof(int)));
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));

  // 1. By hand: memset a to 0x01010101 bytes -> a = a*2+3 -> child graph
  // (a = a*1+10) -> copy to the host -> host node; an empty node joins.
  cudaGraph_t g, child;
  CHECK(cudaGraphCreate(&g, 0));
  CHECK(cudaGraphCreate(&child, 0));
  cudaGraphNode_t memset_node, k1, child_node, copy_node, host_node, empty_node, child_k;
  cudaMemsetParams mp = {};
  mp.dst = a;
  mp.value = 1;
  mp.elementSize = 1;
  mp.width = n * sizeof(int);
  mp.height = 1;
  CHECK(cudaGraphAddMemsetNode(&memset_node, g, nullptr, 0, &mp));
  int x = 2, bias = 3, count = n;
  void* args1[] = {&a, &x, &bias, &count};
  cudaKernelNodeParams kp = {};
  kp.func = reinterpret_cast<void*>(axpb);
  kp.gridDim = dim3(n / 64);
  kp.blockDim = dim3(64);
  kp.kernelParams = args1;
  CHECK(cudaGraphAddKernelNode(&k1, g, &memset_node, 1, &kp));
  int one = 1, ten = 10;
  void* args_child[] = {&a, &one, &ten, &count};
  kp.kernelParams = args_child;
  CHECK(cudaGraphAddKernelNode(&child_k, child, nullptr, 0, &kp));
  CHECK(cudaGraphAddChildGraphNode(&child_node, g, &k1, 1, child));
  CHECK(cudaGraphAddMemcpyNode1D(&copy_node, g, &child_node, 1, host_out, a, n * sizeof(int), cudaMemcpyDeviceToHost));
  cudaHostNodeParams hp = {host_fn, nullptr};
  CHECK(cudaGraphAddHostNode(&host_node, g, &copy_node, 1, &hp));
  CHECK(cudaGraphAddEmptyNode(&empty_node, g, &host_node, 1));
  size_t num = 0;
  CHECK(cudaGraphGetNodes(g, nullptr, &num));
  ok &= num == 6;
  CHECK(cudaGraphGetRootNodes(g, nullptr, &num));
  ok &= num == 1;
  cudaGraphNodeType type;
  CHECK(cudaGraphNodeGetType(child_node, &type));
  ok &= type == cudaGraphNodeTypeGraph;
  cudaGraphExec_t ge;
  CHECK(cudaGraphInstantiate(&ge, g, 0));
  // Changing the graph after instantiation does not change the instance:
  // k1 becomes a = a*1 + 10 in the graph only.
  CHECK(cudaGraphKernelNodeSetParams(k1, &kp));
  const int first = 0x01010101 * 2 + 3 + 10;
  CHECK(cudaGraphLaunch(ge, s1));
  CHECK(cudaStreamSynchronize(s1));
  ok &= all(host_out, first) && host_calls == 1 && host_seen == first;
  // Updating the instance: a = a*3 + 0 the second time round.
  x = 3;
  int zero = 0;
  void* args2[] = {&a, &x, &zero, &count};
  kp.kernelParams = args2;
  CHECK(cudaGraphExecKernelNodeSetParams(ge, k1, &kp));
  CHECK(cudaGraphLaunch(ge, s1));
  CHECK(cudaStreamSynchronize(s1));
  ok &= all(host_out, 0x01010101 * 3 + 10) && host_calls == 2;
  // A clone runs the graph as it is now (k1: a = a*1 + 10).
  cudaGraph_t clone;
  cudaGraphNode_t k1_clone;
  CHECK(cudaGraphClone(&clone, g));
  CHECK(cudaGraphNodeFindInClone(&k1_clone, k1, clone));
  CHECK(cudaGraphNodeGetType(k1_clone, &type));
  ok &= type == cudaGraphNodeTypeKernel;
  cudaGraphExec_t ce;
  CHECK(cudaGraphInstantiate(&ce, clone, 0));
  CHECK(cudaGraphLaunch(ce, s2));
  CHECK(cudaStreamSynchronize(s2));
  ok &= all(host_out, 0x01010101 + 10 + 10) && host_calls == 3;

  // 2. Captured: A on s1; s2 forks after A and runs B; C on s1; s1 joins B;
  // D on s1: a = 7 * 2 + 5.
  cudaEvent_t fork, join;
  CHECK(cudaEventCreate(&fork));
  CHECK(cudaEventCreate(&join));
  CHECK(cudaMemset(b, 0, n * sizeof(int)));
  cudaStreamCaptureStatus status;
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  CHECK(cudaStreamIsCapturing(s1, &status));
  ok &= status == cudaStreamCaptureStatusActive;
  CHECK(cudaMemsetAsync(a, 0, n * sizeof(int), s1));
  axpb<<<n / 64, 64, 0, s1>>>(a, 1, 7, n);  // A: a = 7
  CHECK(cudaEventRecord(fork, s1));
  CHECK(cudaStreamWaitEvent(s2, fork, 0));
  CHECK(cudaStreamIsCapturing(s2, &status));
  ok &= status == cudaStreamCaptureStatusActive;
  axpb<<<n / 64, 64, 0, s2>>>(b, 1, 5, n);  // B: b = 5
  CHECK(cudaEventRecord(join, s2));
  axpb<<<n / 64, 64, 0, s1>>>(a, 2, 0, n);  // C: a = 14
  CHECK(cudaStreamWaitEvent(s1, join, 0));
  add<<<n / 64, 64, 0, s1>>>(a, b, n);  // D: a = 19
  CHECK(cudaMemcpyAsync(host_out, a, n * sizeof(int), cudaMemcpyDeviceToHost, s1));
  cudaGraph_t cg;
  CHECK(cudaStreamEndCapture(s1, &cg));
  CHECK(cudaStreamIsCapturing(s2, &status));
  ok &= status == cudaStreamCaptureStatusNone;
  std::memset(host_out, 0, n * sizeof(int));  // nothing ran during the capture
  CHECK(cudaGraphGetNodes(cg, nullptr, &num));
  ok &= num == 6;
  size_t edges = 0;
  CHECK(cudaGraphGetEdges(cg, nullptr, nullptr, nullptr, &edges));
  ok &= edges == 6;  // memset->A, A->B, A->C, B->D, C->D, D->copy
  cudaGraphExec_t cge;
  CHECK(cudaGraphInstantiate(&cge, cg, 0));
  CHECK(cudaGraphLaunch(cge, s1));
  CHECK(cudaStreamSynchronize(s1));
  ok &= all(host_out, 19);

  // 3. Errors: a forked stream left unjoined, and a synchronisation inside a
  // capture.
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  CHECK(cudaEventRecord(fork, s1));
  CHECK(cudaStreamWaitEvent(s2, fork, 0));
  axpb<<<1, 64, 0, s2>>>(b, 1, 1, 64);
  cudaGraph_t bad = nullptr;
  ok &= cudaStreamEndCapture(s1, &bad) == cudaErrorStreamCaptureUnjoined && bad == nullptr;
  (void)cudaGetLastError();
  CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeRelaxed));
  ok &= cudaStreamSynchronize(s1) == cudaErrorStreamCaptureUnsupported;
  ok &= cudaStreamEndCapture(s1, &bad) == cudaErrorStreamCaptureInvalidated && bad == nullptr;
  (void)cudaGetLastError();
  CHECK(cudaStreamIsCapturing(s1, &status));
  ok &= status == cudaStreamCaptureStatusNone;

  CHECK(cudaGraphExecDestroy(ge));
  CHECK(cudaGraphExecDestroy(ce));
  CHECK(cudaGraphExecDestroy(cge));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaGraphDestroy(child));
  CHECK(cudaGraphDestroy(clone));
  CHECK(cudaGraphDestroy(cg));
  CHECK(cudaFreeHost(host_out));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  return finish(kName, ok);
}
