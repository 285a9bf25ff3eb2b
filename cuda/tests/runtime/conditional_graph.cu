// CUDA graph conditional nodes: if/else, while and switch bodies chosen by a
// condition that kernels set with cudaGraphSetConditional, nodes added with
// cudaGraphAddNode (kernel and conditional nodes) and by stream capture into
// a body, a handle's default value assigned at each launch, and a relaunch
// with other data taking the other branch.
#include "common.cuh"
static const char* kName = "conditional_graph";

// Sets the condition from the data: *flag != 0 (if), *n > 0 (while), *sel (switch).
__global__ void set_if(cudaGraphConditionalHandle h, const int* flag) { cudaGraphSetConditional(h, *flag != 0); }
__global__ void set_switch(cudaGraphConditionalHandle h, const int* sel) { cudaGraphSetConditional(h, *sel); }
// A while body: counts down *n, records each step, and stops at 0.
__global__ void count_down(cudaGraphConditionalHandle h, int* n, int* log) {
  log[*n] = *n;
  *n -= 1;
  cudaGraphSetConditional(h, *n > 0);
}
__global__ void write(int* out, int v) { out[threadIdx.x] = v; }

static cudaGraphNode_t add_kernel(cudaGraph_t g, const cudaGraphNode_t* deps, size_t n, void* fn, void** args,
                                  unsigned threads = 1) {
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeKernel;
  p.kernel.func = fn;
  p.kernel.gridDim = dim3(1);
  p.kernel.blockDim = dim3(threads);
  p.kernel.kernelParams = args;
  cudaGraphNode_t node;
  CHECK(cudaGraphAddNode(&node, g, deps, nullptr, n, &p));
  return node;
}

// A conditional node of `type` with `size` bodies after `dep`; its body graphs in body[].
static cudaGraphNode_t add_cond(cudaGraph_t g, cudaGraphNode_t dep, cudaGraphConditionalHandle h,
                                cudaGraphConditionalNodeType type, unsigned size, cudaGraph_t* body) {
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = h;
  p.conditional.type = type;
  p.conditional.size = size;
  cudaGraphNode_t node;
  CHECK(cudaGraphAddNode(&node, g, &dep, nullptr, 1, &p));
  for (unsigned i = 0; i < size; ++i) body[i] = p.conditional.phGraph_out[i];
  return node;
}

int main() {
  int *flag, *out, *n, *log;
  CHECK(cudaMallocManaged(&flag, sizeof(int)));
  CHECK(cudaMallocManaged(&out, 4 * sizeof(int)));
  CHECK(cudaMallocManaged(&n, sizeof(int)));
  CHECK(cudaMallocManaged(&log, 8 * sizeof(int)));
  bool ok = true;

  // if/else: body 0 writes 1, body 1 writes 2, to 4 ints.
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle hif;
  CHECK(cudaGraphConditionalHandleCreate(&hif, g, 0, 0));
  void* a_set[] = {&hif, &flag};
  cudaGraphNode_t set = add_kernel(g, nullptr, 0, (void*)set_if, a_set);
  cudaGraph_t body[3];
  add_cond(g, set, hif, cudaGraphCondTypeIf, 2, body);
  int one = 1, two = 2;
  void* a_one[] = {&out, &one};
  void* a_two[] = {&out, &two};
  add_kernel(body[0], nullptr, 0, (void*)write, a_one, 4);
  add_kernel(body[1], nullptr, 0, (void*)write, a_two, 4);
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  *flag = 5;
  CHECK(cudaGraphLaunch(x, 0));
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < 4; ++i) ok &= out[i] == 1;
  *flag = 0;  // the other branch on the next launch
  CHECK(cudaGraphLaunch(x, 0));
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < 4; ++i) ok &= out[i] == 2;
  CHECK(cudaGraphExecDestroy(x));
  CHECK(cudaGraphDestroy(g));
  if (!ok) return finish(kName, false, "if/else");

  // while: the handle's default 1 (assigned at each launch) enters the body,
  // which runs *n times.
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle hw;
  CHECK(cudaGraphConditionalHandleCreate(&hw, g, 1, cudaGraphCondAssignDefault));
  cudaGraphNode_t start;
  CHECK(cudaGraphAddEmptyNode(&start, g, nullptr, 0));
  add_cond(g, start, hw, cudaGraphCondTypeWhile, 1, body);
  // The body by stream capture into it; the caller has the graph, so
  // cudaStreamEndCapture takes no output.
  cudaStream_t cs;
  CHECK(cudaStreamCreate(&cs));
  CHECK(cudaStreamBeginCaptureToGraph(cs, body[0], nullptr, nullptr, 0, cudaStreamCaptureModeGlobal));
  count_down<<<1, 1, 0, cs>>>(hw, n, log);
  CHECK(cudaStreamEndCapture(cs, nullptr));
  CHECK(cudaStreamDestroy(cs));
  CHECK(cudaGraphInstantiate(&x, g, 0));
  for (int rep = 0; rep < 2; ++rep) {
    *n = 5 - rep;
    for (int i = 0; i < 8; ++i) log[i] = -1;
    CHECK(cudaGraphLaunch(x, 0));
    CHECK(cudaDeviceSynchronize());
    ok &= *n == 0 && log[0] == -1;
    for (int i = 1; i <= 5 - rep; ++i) ok &= log[i] == i;
    ok &= log[6 - rep] == -1;
  }
  CHECK(cudaGraphExecDestroy(x));
  CHECK(cudaGraphDestroy(g));
  if (!ok) return finish(kName, false, "while");

  // switch with 3 bodies: value 2 runs body 2, value 7 none.
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle hs;
  CHECK(cudaGraphConditionalHandleCreate(&hs, g, 0, 0));
  void* a_sw[] = {&hs, &flag};
  set = add_kernel(g, nullptr, 0, (void*)set_switch, a_sw);
  add_cond(g, set, hs, cudaGraphCondTypeSwitch, 3, body);
  int vals[3] = {10, 20, 30};
  void* a_v[3][2] = {{&out, &vals[0]}, {&out, &vals[1]}, {&out, &vals[2]}};
  for (int i = 0; i < 3; ++i) add_kernel(body[i], nullptr, 0, (void*)write, a_v[i], 4);
  CHECK(cudaGraphInstantiate(&x, g, 0));
  *flag = 2;
  CHECK(cudaGraphLaunch(x, 0));
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < 4; ++i) ok &= out[i] == 30;
  *flag = 7;
  CHECK(cudaGraphLaunch(x, 0));
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < 4; ++i) ok &= out[i] == 30;
  // A host node inside a body is refused at instantiation.
  cudaGraphExec_t bad;
  cudaHostNodeParams hp = {[](void*) {}, nullptr};
  cudaGraphNode_t hn;
  CHECK(cudaGraphAddHostNode(&hn, body[0], nullptr, 0, &hp));
  ok &= cudaGraphInstantiate(&bad, g, 0) != cudaSuccess;
  cudaGetLastError();
  CHECK(cudaGraphExecDestroy(x));
  CHECK(cudaGraphDestroy(g));
  if (!ok) return finish(kName, false, "switch");
  return finish(kName, ok);
}
