// __managed__ variables (PTX .global .attribute(.managed)): the host reads
// their initial values and writes them directly, kernels see the host's
// writes and the host sees the kernels' (cuda/shim/hostmem.cpp). Before the
// shim mapped them, the runtime found no address (cuLibraryGetManaged:
// not found) and the first host access crashed the program.
#include "common.cuh"
static const char* kName = "managed_vars";

__managed__ int counter = 5;
__managed__ int arr[4] = {1, 2, 3, 4};
__managed__ double big[3000];  // more than a page

__global__ void bump(int add) {
  atomicAdd(&counter, add);
  arr[threadIdx.x] *= 10;
  if (threadIdx.x == 0) big[2999] = 1.5;
}

int main() {
  bool ok = counter == 5 && arr[3] == 4 && big[0] == 0.0;
  counter = 7;
  bump<<<1, 4>>>(3);
  CHECK(cudaDeviceSynchronize());
  ok = ok && counter == 19 && arr[0] == 10 && arr[3] == 40 && big[2999] == 1.5;
  cudaPointerAttributes a{};
  CHECK(cudaPointerGetAttributes(&a, &counter));
  ok = ok && a.type == cudaMemoryTypeManaged;
  int v = 0;
  CHECK(cudaMemcpy(&v, &counter, sizeof v, cudaMemcpyDefault));
  ok = ok && v == 19;
  // After cudaDeviceReset the runtime keeps the address it got: the host
  // reads it without faulting (was SIGSEGV), and a launch reloads the module.
  CHECK(cudaDeviceReset());
  v = counter;
  bump<<<1, 4>>>(1);
  CHECK(cudaDeviceSynchronize());
  return finish(kName, ok);
}
