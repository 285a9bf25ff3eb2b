// elect.sync with its d discarded, as CUDA 13's CCCL writes it (thrust::sort):
// `_|P_OUT` with a predicate declared without '%', and `_|%p`. The parser
// refused both ("expected ';'"), so the program's PTX failed to load.
#include "common.cuh"
static const char* kName = "elect_sink";

__global__ void elect(int* out) {
  unsigned a, b;
  asm volatile("{\n\t.reg .pred P_OUT;\n\telect.sync _|P_OUT, %1;\n\tselp.b32 %0, 1, 0, P_OUT;\n}"
               : "=r"(a)
               : "r"(0xffffffffu));
  asm volatile("{\n\t.reg .pred %%pe;\n\telect.sync _|%%pe, %1;\n\tselp.b32 %0, 1, 0, %%pe;\n}"
               : "=r"(b)
               : "r"(0xfffffff0u));
  out[threadIdx.x] = a + 2 * b;
}

int main() {
  int* d = nullptr;
  CHECK(cudaMalloc(&d, 64 * sizeof(int)));
  elect<<<1, 64>>>(d);
  CHECK(cudaDeviceSynchronize());
  int h[64];
  CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  bool ok = true;  // the lowest lane of each member mask is elected: lane 0, then lane 4
  for (int i = 0; i < 64; ++i) ok &= h[i] == (i % 32 == 0 ? 1 : 0) + (i % 32 == 4 ? 2 : 0);
  return finish(kName, ok);
}
