// Inclusive prefix sum: per-block Hillis-Steele scans, then block offsets
// scanned by a second kernel and added by a third.
#include "common.cuh"
static const char* kName = "scan";
#define B 128

__global__ void block_scan(const int* in, int* out, int* sums, int n) {
  __shared__ int s[2][B];
  int i = blockIdx.x * B + threadIdx.x, p = 0;
  s[0][threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int off = 1; off < B; off *= 2) {
    int v = s[p][threadIdx.x];
    if (threadIdx.x >= off) v += s[p][threadIdx.x - off];
    s[1 - p][threadIdx.x] = v;
    p = 1 - p;
    __syncthreads();
  }
  if (i < n) out[i] = s[p][threadIdx.x];
  if (threadIdx.x == B - 1) sums[blockIdx.x] = s[p][threadIdx.x];
}

__global__ void scan_sums(int* sums, int m) {  // one thread: m is small
  for (int j = 1; j < m; ++j) sums[j] += sums[j - 1];
}

__global__ void add_offsets(int* out, const int* sums, int n) {
  int i = blockIdx.x * B + threadIdx.x;
  if (blockIdx.x > 0 && i < n) out[i] += sums[blockIdx.x - 1];
}

int main() {
  const int n = 1000, m = (n + B - 1) / B;
  int h[n], r[n];
  for (int i = 0; i < n; ++i) h[i] = (i % 13) - 4;
  int *in, *out, *sums;
  CHECK(cudaMalloc(&in, sizeof h));
  CHECK(cudaMalloc(&out, sizeof h));
  CHECK(cudaMalloc(&sums, m * sizeof(int)));
  CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
  block_scan<<<m, B>>>(in, out, sums, n);
  scan_sums<<<1, 1>>>(sums, m);
  add_offsets<<<m, B>>>(out, sums, n);
  CHECK(cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost));
  int acc = 0;
  bool ok = true;
  for (int i = 0; i < n; ++i) ok &= r[i] == (acc += h[i]);
  return finish(kName, ok);
}
