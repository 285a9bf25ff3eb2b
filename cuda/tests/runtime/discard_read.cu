// A discarded managed range has indeterminate contents until it is written
// or prefetched (cudaMemDiscardBatchAsync): a kernel that reads it first
// makes an uninitialised read (cuda/shim/hostmem.cpp discard_managed).
// 1. m[0..32) discarded, the host writes m[0] and m[1] (the first 8-byte
//    word): the kernel's reads of m[2..31] are reported, once (line 16);
//    m[0] and m[1] are not.
// 2. Prefetched: the same reads are not reported.
// 3. m[32..64) discarded, then written by a kernel: its reads are not
//    reported. Expected report: discard_read.expected.json.
#include "common.cuh"
static const char* kName = "discard_read";

__global__ void sum(const int* m, int* out) {
  int t = threadIdx.x;
  int v = t;
  if (t < 32) v = m[t];
  atomicAdd(out, v);
}
__global__ void fill(int* m) { m[threadIdx.x] = 1; }

int main() {
  int *m = nullptr, *out = nullptr;
  CHECK(cudaMallocManaged(&m, 64 * sizeof(int)));
  CHECK(cudaMallocManaged(&out, sizeof(int)));
  for (int i = 0; i < 64; ++i) m[i] = i;
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  void* lo[1] = {m};
  void* hi[1] = {m + 32};
  size_t half[1] = {32 * sizeof(int)};
  CHECK(cudaMemDiscardBatchAsync(lo, half, 1, 0, s));
  CHECK(cudaStreamSynchronize(s));
  m[0] = 10;
  m[1] = 20;
  *out = 0;
  sum<<<1, 32, 0, s>>>(m, out);  // reads discarded m[2..31]
  CHECK(cudaStreamSynchronize(s));
  cudaMemLocation loc{cudaMemLocationTypeDevice, 0};
  size_t idx[1] = {0};
  CHECK(cudaMemPrefetchBatchAsync(lo, half, 1, &loc, idx, 1, 0, s));
  sum<<<1, 32, 0, s>>>(m, out);  // prefetched: not reported
  CHECK(cudaMemDiscardBatchAsync(hi, half, 1, 0, s));
  fill<<<1, 32, 0, s>>>(m + 32);
  *out = 0;
  CHECK(cudaStreamSynchronize(s));
  sum<<<1, 32, 0, s>>>(m + 32, out);  // written by fill: not reported
  CHECK(cudaStreamSynchronize(s));
  return finish(kName, *out == 32 && m[0] == 10 && m[1] == 20);
}
