// Kernel written as a new user would (nvcc -ptx -arch=sm_80 user_mix.cu);
// user_mix_ref.cpp is its independent C++ reference (g++ -O0 -ffp-contract=off),
// whose output is user_mix.expected.json.
#include <cstdio>
__device__ __noinline__ float poly(float x, int k) { float r = 1.f; for (int i = 0; i < k; ++i) r = r * x + 0.5f; return r; }
__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
extern "C" __global__ void user(const float* in, float* out, int* hist, unsigned long long* total, int n) {
  __shared__ float s[128];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  float v = i < n ? poly(in[i], 3) : 0.f;
  s[t] = v;
  __syncthreads();
  for (int st = blockDim.x / 2; st > 16; st >>= 1) { if (t < st) s[t] += s[t + st]; __syncthreads(); }
  float w = t < 32 ? s[t] : 0.f;
  if (t < 32) for (int o = 16; o; o >>= 1) w += __shfl_down_sync(0xffffffff, w, o);
  if (t == 0) out[blockIdx.x] = w;
  if (i < n) { atomicAdd(&hist[((int)in[i]) & 7], 1); atomicAdd(total, (unsigned long long)fib(i % 10)); }
  if (i == 3) printf("thread %d: v=%f fib=%d\n", i, v, fib(7));
}
