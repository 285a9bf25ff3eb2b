// Inline PTX the interpreter's parser refuses: nvcc does not check inline asm
// when it embeds PTX only (no ptxas), so the load fails at run time, as a
// driver's JIT would fail it. The parser's message must name the file that
// PTXCHECK_SHIM_PTX_DIR (exec --ptx-dir) wrote, so the line can be opened.
// corpus-debug: none (a -G build runs ptxas, which refuses the asm)
#include "common.cuh"
static const char* kName = "invalid_ptx";

__global__ void bad(int* p) { asm volatile("not_an_instruction.b32 %0;" : : "r"(p[0])); }

int main() {
  int* d = nullptr;
  cudaError_t e = cudaMalloc(&d, 4);  // the runtime loads the program's modules at its first call
  if (e == cudaSuccess) {
    bad<<<1, 1>>>(d);
    e = cudaGetLastError();
  }
  std::printf("first error: %s\n", cudaGetErrorName(e));
  return finish(kName, e == cudaErrorInvalidPtx);
}
