// Errors a program sees: an invalid launch configuration at launch time, a
// device-side fault at the next synchronisation (sticky), and the error
// strings.
#include "common.cuh"
static const char* kName = "error_propagation";

__global__ void nop() {}
__global__ void bad(int* p) { p[threadIdx.x] = 1; }  // p is null: an illegal address

int main() {
  nop<<<1, 2048>>>();  // more threads per block than the device has
  cudaError_t launch = cudaGetLastError();
  nop<<<1, 32>>>();
  cudaError_t fine = cudaDeviceSynchronize();
  bad<<<1, 1>>>(nullptr);
  cudaError_t fault = cudaDeviceSynchronize();
  void* p = nullptr;
  cudaError_t after = cudaMalloc(&p, 16);  // the context stays broken
  std::printf("launch: %s; fine: %s; fault: %s; after: %s\n", cudaGetErrorName(launch), cudaGetErrorName(fine),
              cudaGetErrorName(fault), cudaGetErrorName(after));
  // (a GPU driver's exact code for the refused launch varies; the launch must fail)
  bool ok = launch != cudaSuccess && fine == cudaSuccess && fault == cudaErrorIllegalAddress &&
            after == cudaErrorIllegalAddress;
  return finish(kName, ok);
}
