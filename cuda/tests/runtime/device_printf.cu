// Device printf: formatted output from several threads, in the
// interpreter's deterministic order, before the host's own line.
#include "common.cuh"
static const char* kName = "device_printf";

__global__ void hello(float x) {
  if (threadIdx.x % 2 == 0) printf("thread %d of block %d: x=%.2f %s\n", threadIdx.x, blockIdx.x, x * threadIdx.x, "ok");
}

int main() {
  hello<<<2, 4>>>(1.5f);
  CHECK(cudaDeviceSynchronize());
  return finish(kName, true);
}
