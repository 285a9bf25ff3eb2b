// Broken on purpose: a 4-byte load through a pointer one byte into an
// allocation. Expected report: misaligned.expected.json.
#include <cstdio>

__global__ void read_word(const char* base, int* out) { *out = *reinterpret_cast<const int*>(base + 1); }

int main() {
  char* buf;
  int* out;
  cudaMalloc(&buf, 64);
  cudaMalloc(&out, sizeof(int));
  read_word<<<1, 1>>>(buf, out);
  std::printf("misaligned: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
