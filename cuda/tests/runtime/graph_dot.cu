// cudaGraphDebugDotPrint: a captured graph (kernel, host function, kernel)
// with a child graph node added by hand is written as DOT text naming each
// node's type and kernel, with one edge per dependency and the child graph as
// a cluster; a path that cannot be written is cudaErrorOperatingSystem.
#include <unistd.h>

#include <cstring>
#include <string>

#include "common.cuh"
static const char* kName = "graph_dot";

__global__ void bump(int* a, int v) { a[threadIdx.x] += v; }
static void CUDART_CB host_fn(void*) {}

static int count(const std::string& s, const char* what) {
  int n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

int main() {
  int* d;
  CHECK(cudaMalloc(&d, 32 * sizeof(int)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  cudaGraph_t g, child;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  bump<<<1, 32, 0, s>>>(d, 1);
  CHECK(cudaLaunchHostFunc(s, host_fn, nullptr));
  bump<<<2, 16, 0, s>>>(d, 2);
  CHECK(cudaStreamEndCapture(s, &g));
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaMemsetAsync(d, 0, 4, s));
  CHECK(cudaStreamEndCapture(s, &child));
  cudaGraphNode_t roots[4];
  size_t nroots = 4;
  CHECK(cudaGraphGetRootNodes(g, roots, &nroots));
  cudaGraphNode_t cn;
  CHECK(cudaGraphAddChildGraphNode(&cn, g, roots, 1, child));

  const char* tmp = std::getenv("TMPDIR");
  std::string path = std::string(tmp && *tmp ? tmp : "/tmp") + "/graph_dot_" + std::to_string(getpid()) + ".dot";
  CHECK(cudaGraphDebugDotPrint(g, path.c_str(), cudaGraphDebugDotFlagsVerbose));
  std::string text;
  if (FILE* f = std::fopen(path.c_str(), "r")) {
    char buf[4096];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
    std::fclose(f);
  }
  std::remove(path.c_str());
  bool ok = text.rfind("digraph", 0) == 0 && count(text, "_Z4bumpPii") == 2 && count(text, "HOST") == 1 &&
            count(text, "MEMSET") >= 1 && count(text, "subgraph cluster_") == 1 && count(text, " -> ") == 3 &&
            count(text, "grid 2,1,1 block 16,1,1") == 1;
  if (!ok) std::printf("%s", text.c_str());
  cudaError_t bad = cudaGraphDebugDotPrint(g, "/nonexistent-dir/graph.dot", 0);
  if (bad != cudaErrorOperatingSystem) {
    std::printf("unwritable path: %s\n", cudaGetErrorName(bad));
    ok = false;
  }
  (void)cudaGetLastError();
  return finish(kName, ok);
}
