// Atomic read-modify-writes from every thread: add, min, max, exchange,
// compare-and-swap (a spin-free claim), float add.
#include "common.cuh"
static const char* kName = "atomics";

struct Out {
  int sum, mn, mx, claimed_by, cas_wins;
  unsigned last;
  float fsum;
};

__global__ void hammer(Out* o) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&o->sum, t);
  atomicMin(&o->mn, 1000 - t);
  atomicMax(&o->mx, t * 3);
  atomicExch(&o->last, 1u);
  if (atomicCAS(&o->claimed_by, -1, t) == -1) atomicAdd(&o->cas_wins, 1);
  atomicAdd(&o->fsum, 0.5f);
}

int main() {
  const int blocks = 4, threads = 64, n = blocks * threads;
  Out h = {0, 1 << 30, -1, -1, 0, 0, 0.0f}, *d;
  CHECK(cudaMalloc(&d, sizeof h));
  CHECK(cudaMemcpy(d, &h, sizeof h, cudaMemcpyHostToDevice));
  hammer<<<blocks, threads>>>(d);
  CHECK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
  bool ok = h.sum == n * (n - 1) / 2 && h.mn == 1000 - (n - 1) && h.mx == 3 * (n - 1) && h.last == 1u &&
            h.claimed_by >= 0 && h.claimed_by < n && h.cas_wins == 1 && h.fsum == 0.5f * n;
  return finish(kName, ok);
}
