// Cooperative groups within a block: thread_block sync, 32-thread tiles
// reducing with shfl_down, tile-level any/all via ballot.
#include <cooperative_groups.h>
#include "common.cuh"
namespace cg = cooperative_groups;
static const char* kName = "coop_groups";

__global__ void tiles(const int* in, int* tile_sums, int* block_sum, int* flags) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int v = in[block.thread_rank()];
  for (int off = tile.size() / 2; off > 0; off /= 2) v += tile.shfl_down(v, off);
  __shared__ int partial[8];
  if (tile.thread_rank() == 0) {
    tile_sums[block.thread_rank() / 32] = v;
    partial[block.thread_rank() / 32] = v;
  }
  block.sync();
  if (block.thread_rank() == 0) {
    int s = 0;
    for (int i = 0; i < (int)block.size() / 32; ++i) s += partial[i];
    *block_sum = s;
  }
  int odd = in[block.thread_rank()] & 1;
  int any = tile.any(odd), all = tile.all(odd);
  if (tile.thread_rank() == 0) flags[block.thread_rank() / 32] = any * 2 + all;
}

int main() {
  const int n = 256;
  int h[n];
  for (int i = 0; i < n; ++i) h[i] = i < 32 ? 2 * i : (i < 64 ? 2 * i + 1 : i);
  int *in, *ts, *bs, *fl, rts[8], rbs, rfl[8];
  CHECK(cudaMalloc(&in, sizeof h));
  CHECK(cudaMalloc(&ts, sizeof rts));
  CHECK(cudaMalloc(&bs, sizeof rbs));
  CHECK(cudaMalloc(&fl, sizeof rfl));
  CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
  tiles<<<1, n>>>(in, ts, bs, fl);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(rts, ts, sizeof rts, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&rbs, bs, sizeof rbs, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rfl, fl, sizeof rfl, cudaMemcpyDeviceToHost));
  bool ok = true;
  int total = 0;
  for (int t = 0; t < 8; ++t) {
    int s = 0, any = 0, all = 1;
    for (int i = 32 * t; i < 32 * t + 32; ++i) s += h[i], any |= h[i] & 1, all &= h[i] & 1;
    ok &= rts[t] == s && rfl[t] == any * 2 + all;
    total += s;
  }
  ok &= rbs == total;
  return finish(kName, ok);
}
