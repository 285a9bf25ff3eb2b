// Tree reduction in shared memory, block sums combined with atomicAdd.
#include "common.cuh"
static const char* kName = "reduction";

__global__ void sum(const int* in, int n, unsigned long long* out) {
  __shared__ int s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, (unsigned long long)s[0]);
}

int main() {
  const int n = 5000;
  int* h = new int[n];
  unsigned long long want = 0;
  for (int i = 0; i < n; ++i) want += h[i] = (i * 7919) % 1000;
  int* d;
  unsigned long long *out, got = 0;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  CHECK(cudaMalloc(&out, sizeof *out));
  CHECK(cudaMemset(out, 0, sizeof *out));
  CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
  sum<<<(n + 255) / 256, 256>>>(d, n, out);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
  return finish(kName, got == want);
}
