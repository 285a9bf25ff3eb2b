#include <cuda_fp16.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ int gcount;
__constant__ float cvals[16] = {1.0f, 2.5f, -3.0f};
__device__ int* gptr = &gcount;
__device__ __noinline__ float helper(float a, int b) { return a * b + sinf(a); }
extern "C" __global__ void __launch_bounds__(256, 2) k1(float* out, const float* in, int n, double d) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) tile[threadIdx.x] = in[i] * cvals[i & 15];
  __syncthreads();
  float v = tile[(threadIdx.x + 1) % 256];
  v = helper(v, i) + (float)d;
  atomicAdd(&gcount, 1);
  atomicMax((unsigned*)&gcount, (unsigned)i);
  v += __shfl_down_sync(0xffffffff, v, 4);
  unsigned b = __ballot_sync(0xffffffff, v > 0);
  __half h = __float2half(v); h = __hadd(h, h);
  out[i] = __half2float(h) + __popc(b) + __clz(i) + __brev(i) + rsqrtf(v) + __expf(v) + logf(v) + (float)(long long)d;
  if (v > 3.0) { __threadfence(); }
  switch (i & 7) { case 0: out[0]=1; break; case 1: out[1]=2; break; case 2: out[2]=4;break; case 3: out[3]=9;break; case 5: out[7]=1; break;}
  out[i] = fmaf(out[i], 1.5f, -2.0f) / v;
}
__global__ void k2(double* o, long long* p, unsigned long long x) {
  o[threadIdx.x] = sqrt(o[threadIdx.x]) / 3.0 + __longlong_as_double(x);
  atomicCAS((unsigned long long*)p, 1ull, 2ull);
  printf("hi %d\n", threadIdx.x);
  auto g = cg::this_grid();
}
struct S { int a; float b[3]; };
__global__ void k3(S s, int4* q) { int4 t = q[threadIdx.x]; t.x += s.a; q[threadIdx.x+1] = t; asm volatile("membar.gl;"); 
  unsigned r; asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(t.x), "r"(t.y), "r"(t.z)); q[0].w = r; }
