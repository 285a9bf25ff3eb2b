// A shared library whose kernel is built for sm_80 SASS only (as NVIDIA's
// cuBLAS ships most of its kernels): the shim cannot run it, and its message
// names the library, not the program (sass_library_main.cu).
#include <cuda_runtime.h>

__global__ void scale(float* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= 2;
}

extern "C" int sass_library_scale(float* v, int n) {
  scale<<<(n + 127) / 128, 128>>>(v, n);
  return static_cast<int>(cudaDeviceSynchronize());
}
