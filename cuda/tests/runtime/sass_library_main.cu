// A program with PTX of its own that uses a library of SASS-only kernels
// (sass_library.cu), as programs use cuBLAS: the library's kernels cannot
// run, and the shim's message names the library and offers no rebuild of
// the program (the runtime loads every module when it initialises, so the
// first CUDA call already fails with cudaErrorNoKernelImageForDevice).
#include <cstdio>

#include <cuda_runtime.h>
static const char* kName = "sass_library";

extern "C" int sass_library_scale(float* v, int n);

__global__ void fill(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = static_cast<float>(i);
}

int main() {
  const int n = 256;
  float* v = nullptr;
  cudaError_t e = cudaMalloc(&v, n * sizeof(float));
  if (e == cudaSuccess) {
    fill<<<(n + 127) / 128, 128>>>(v, n);
    e = static_cast<cudaError_t>(sass_library_scale(v, n));
  }
  std::printf("%s: %s\n", kName, cudaGetErrorName(e));
  return e == cudaSuccess ? 0 : 1;
}
