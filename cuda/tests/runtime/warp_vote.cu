// Warp-level primitives: shuffles (xor butterfly reduction), ballot, match.
#include "common.cuh"
static const char* kName = "warp_vote";

__global__ void warp_ops(const int* in, int* sums, unsigned* ballots) {
  int v = in[threadIdx.x];
  int s = v;
  for (int m = 16; m > 0; m /= 2) s += __shfl_xor_sync(0xffffffffu, s, m);
  unsigned b = __ballot_sync(0xffffffffu, v > 50);
  if (threadIdx.x % 32 == 0) {
    sums[threadIdx.x / 32] = s;
    ballots[threadIdx.x / 32] = b;
  }
}

int main() {
  const int n = 64;
  int h[n], rs[2];
  unsigned rb[2];
  for (int i = 0; i < n; ++i) h[i] = (i * 37) % 101;
  int *in, *sums;
  unsigned* ballots;
  CHECK(cudaMalloc(&in, sizeof h));
  CHECK(cudaMalloc(&sums, sizeof rs));
  CHECK(cudaMalloc(&ballots, sizeof rb));
  CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
  warp_ops<<<1, n>>>(in, sums, ballots);
  CHECK(cudaMemcpy(rs, sums, sizeof rs, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rb, ballots, sizeof rb, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int w = 0; w < 2; ++w) {
    int s = 0;
    unsigned b = 0;
    for (int l = 0; l < 32; ++l) s += h[32 * w + l], b |= (h[32 * w + l] > 50 ? 1u : 0u) << l;
    ok &= rs[w] == s && rb[w] == b;
  }
  return finish(kName, ok);
}
