// Errors a program sees: an invalid launch configuration at launch time, a
// device-side fault at the next synchronisation (sticky), and the error
// strings. After a fault every call that works on the context returns the
// fault, the ones that release a stream, an event or pinned memory too (as
// real drivers answer cudaStreamDestroy, cudaFreeHost, cudaHostUnregister).
#include "common.cuh"
static const char* kName = "error_propagation";

__global__ void nop() {}
__global__ void bad(int* p) { p[threadIdx.x] = 1; }  // p is null: an illegal address

int main() {
  nop<<<1, 2048>>>();                        // more threads per block than the device has
  cudaError_t peek = cudaPeekAtLastError();  // does not clear the error
  cudaError_t launch = cudaGetLastError();   // clears it
  cudaError_t cleared = cudaGetLastError();
  // Each impossible shape is cudaErrorInvalidConfiguration, as on a GPU:
  // a zero grid, grid.y past 65535, block.z past 64, 33 x 32 threads.
  bool shapes = true;
  nop<<<0, 32>>>();
  shapes &= cudaGetLastError() == cudaErrorInvalidConfiguration;
  nop<<<dim3(1, 70000), 32>>>();
  shapes &= cudaGetLastError() == cudaErrorInvalidConfiguration;
  nop<<<1, dim3(1, 1, 65)>>>();
  shapes &= cudaGetLastError() == cudaErrorInvalidConfiguration;
  nop<<<1, dim3(33, 32)>>>();
  shapes &= cudaGetLastError() == cudaErrorInvalidConfiguration;
  // More dynamic shared memory than the kernel may use without
  // cudaFuncAttributeMaxDynamicSharedMemorySize: cudaErrorInvalidValue.
  nop<<<1, 32, 64 * 1024>>>();
  cudaError_t smem = cudaGetLastError();
  nop<<<1, 32>>>();
  cudaError_t fine = cudaDeviceSynchronize();  // refused launches are not sticky
  cudaStream_t st;
  cudaEvent_t ev;
  void* pinned = nullptr;
  static char registered[8192];
  CHECK(cudaStreamCreate(&st));
  CHECK(cudaEventCreate(&ev));
  CHECK(cudaMallocHost(&pinned, 64));
  CHECK(cudaHostRegister(registered, 4096, 0));
  bad<<<1, 1>>>(nullptr);
  cudaError_t fault = cudaDeviceSynchronize();
  void* p = nullptr;
  cudaError_t after = cudaMalloc(&p, 16);  // the context stays broken
  cudaError_t releases[] = {cudaStreamDestroy(st), cudaEventDestroy(ev), cudaFreeHost(pinned),
                            cudaHostUnregister(registered)};
  bool released = false;  // any release that claimed success
  for (cudaError_t r : releases) released |= r != cudaErrorIllegalAddress;
  std::printf(
      "launch: %s (peek %s, then %s); shapes: %d; smem: %s; fine: %s; fault: %s; after: %s; releases: %s %s %s %s\n",
      cudaGetErrorName(launch), cudaGetErrorName(peek), cudaGetErrorName(cleared), shapes, cudaGetErrorName(smem),
      cudaGetErrorName(fine), cudaGetErrorName(fault), cudaGetErrorName(after), cudaGetErrorName(releases[0]),
      cudaGetErrorName(releases[1]), cudaGetErrorName(releases[2]), cudaGetErrorName(releases[3]));
  bool ok = launch == cudaErrorInvalidConfiguration && peek == launch && cleared == cudaSuccess && shapes &&
            smem == cudaErrorInvalidValue && fine == cudaSuccess && fault == cudaErrorIllegalAddress &&
            after == cudaErrorIllegalAddress && !released;
  return finish(kName, ok);
}
