// Plain C++ reference for gemm_tma_wgmma.ptx: C = A * B with A (64 x 256) and
// B^T (64 x 256) row-major, filled cyclically as the launch spec's "values"
// lists do. Every product and partial sum is a small integer, exact in f32 in
// any order, so the tile is bit-identical under the numeric policy of
// docs/mma.md (and on hardware). Prints gemm_tma_wgmma.expected.json:
//   g++ -std=c++20 -O2 gemm_tma_wgmma_ref.cpp -o /tmp/ref && /tmp/ref > gemm_tma_wgmma.expected.json
#include <cstdio>

int main() {
  const int M = 64, N = 64, K = 256;
  // the launch spec's cyclic "values" lists (61 and 53 entries, primes)
  const int a_vals[61] = {-2, 2, -3, -3, 2, -2, -1, -2, 2, -3, -3, 2, -2, -1, -2, 2, -3, -3, 2, -2, -1, -2, 2, -3, -3, 2, -2, -1, -2, 2, -3, -3, 2, -2, -1, -2, 2, -3, -3, 2, -2, -1, -2, 2, -3, -3, 2, -2, -1, -2, 2, -3, -3, 2, -2, -1, -2, 2, -3, -3, 2};
  const int b_vals[53] = {0, -1, 0, -2, -2, 0, -1, 0, -2, -2, 0, -1, 0, -2, -2, 0, -1, 0, -2, -2, 0, -1, 0, -2, -2, 0, -1, 0, -2, -2, 0, -1, 0, -2, -2, 0, -1, 0, -2, -2, 0, -1, 0, -2, -2, 0, -1, 0, -2, -2, 0, -1, 0};
  std::printf("{\"c\": [");
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      long long s = 0;
      for (int k = 0; k < K; ++k) s += a_vals[(m * K + k) % 61] * b_vals[(n * K + k) % 53];
      std::printf("%s%lld", m || n ? ", " : "", s);
    }
  std::printf("]}\n");
  return 0;
}
