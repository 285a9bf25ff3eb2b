// CUDA calls in a global object's constructor (before main) and destructor
// (after main, when exit() has already run the thread-local destructors):
// the destructor allocates, launches, copies back and frees, and prints the
// PASS line itself. Before, the shim's thread-local context stack was freed
// by then and the destructor's calls used it after free (valgrind: invalid
// reads in shim::current; a heap-corruption abort at exit).
#include "common.cuh"
static const char* kName = "static_dtor";

__global__ void fill(int* a, int v) { a[threadIdx.x] = v + threadIdx.x; }

static bool run(int v) {
  int* d = nullptr;
  int h[32] = {};
  if (cudaMalloc(&d, sizeof h) != cudaSuccess) return false;
  fill<<<1, 32>>>(d, v);
  bool ok = cudaGetLastError() == cudaSuccess && cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess;
  for (int i = 0; i < 32; ++i) ok &= h[i] == v + i;
  return cudaFree(d) == cudaSuccess && ok;
}

struct Global {
  bool before = false;
  Global() { before = run(100); }
  ~Global() {
    bool after = run(200);
    finish(kName, before && after, before ? "CUDA calls in a static destructor failed" : "before main");
    std::fflush(stdout);
  }
} global;

int main() { return 0; }
