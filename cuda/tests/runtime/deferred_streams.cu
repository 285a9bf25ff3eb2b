// Deferred streams (cuda/shim/streams.cpp): a kernel that spins on a latch
// in page-locked memory until the host sets it, with work queued behind it
// before the host does (UnifiedMemoryPerf's pattern). On a GPU the queued
// work waits for the spinning kernel; on the shim the spinning launch has
// changed nothing yet, so it is deferred with everything ordered after it
// and runs again when the host synchronises.
// 1. Stream s: spin, copy in, scale, copy out, event record, host function.
//    While the latch is 0: cudaStreamQuery(s) and cudaEventQuery are
//    cudaErrorNotReady and the host function has not run; a non-blocking
//    stream runs its own work at once; a blocking stream that waits on the
//    event is not ready either. After the latch is set, cudaStreamSynchronize
//    completes all of it in order.
// 2. A host polling cudaStreamQuery sets the latch after 3 polls.
// 3. A spinning kernel released by a kernel of another (non-blocking) stream,
//    queued after it.
#include <cstring>

#include "common.cuh"
static const char* kName = "deferred_streams";

__global__ void spin(volatile unsigned* latch) {
  while (latch[0] < 1) {}
}
__global__ void scale(int* v, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= k;
}
__global__ void set(unsigned* p, unsigned v) { *p = v; }

static int g_calls = 0;
static int g_seen = 0;  // the value of out[5] when the host function ran
static int* g_out = nullptr;
static void CUDART_CB host_fn(void*) {
  ++g_calls;
  g_seen = g_out[5];
}

int main() {
  const int n = 1000;
  bool ok = true;
  unsigned* latch;
  int *in, *out, *d;
  CHECK(cudaMallocHost(&latch, sizeof(unsigned)));
  CHECK(cudaMallocHost(&in, n * sizeof(int)));
  CHECK(cudaMallocHost(&out, n * sizeof(int)));
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  g_out = out;
  for (int i = 0; i < n; ++i) in[i] = i, out[i] = -1;
  cudaStream_t s, nb, s2;
  cudaEvent_t ev;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
  CHECK(cudaStreamCreate(&s2));
  CHECK(cudaEventCreate(&ev));

  // 1.
  *latch = 0;
  spin<<<1, 1, 0, s>>>(latch);
  CHECK(cudaMemcpyAsync(d, in, n * sizeof(int), cudaMemcpyHostToDevice, s));
  scale<<<(n + 127) / 128, 128, 0, s>>>(d, n, 3);
  CHECK(cudaMemcpyAsync(out, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  CHECK(cudaEventRecord(ev, s));
  CHECK(cudaLaunchHostFunc(s, host_fn, nullptr));
  ok &= cudaStreamQuery(s) == cudaErrorNotReady;
  ok &= cudaEventQuery(ev) == cudaErrorNotReady;
  ok &= g_calls == 0 && out[5] == -1;
  unsigned* flag;
  CHECK(cudaMalloc(&flag, sizeof(unsigned)));
  set<<<1, 1, 0, nb>>>(flag, 7);  // a non-blocking stream does not wait
  CHECK(cudaStreamSynchronize(nb));
  CHECK(cudaStreamWaitEvent(s2, ev, 0));
  scale<<<(n + 127) / 128, 128, 0, s2>>>(d, n, 2);  // after the event: after s's copy out
  ok &= cudaStreamQuery(s2) == cudaErrorNotReady;
  *latch = 1;
  CHECK(cudaStreamSynchronize(s));
  ok &= g_calls == 1 && g_seen == 15;
  CHECK(cudaEventQuery(ev));
  for (int i = 0; i < n; ++i) ok &= out[i] == 3 * i;
  CHECK(cudaStreamSynchronize(s2));
  int h[n];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) ok &= h[i] == 6 * i;
  if (!ok) return finish(kName, false, "part 1");

  // 2.
  *latch = 0;
  spin<<<1, 1, 0, s>>>(latch);
  int polls = 0;
  for (;;) {
    cudaError_t q = cudaStreamQuery(s);
    if (q == cudaSuccess) break;
    if (q != cudaErrorNotReady || polls > 10) return finish(kName, false, "part 2: cudaStreamQuery");
    if (++polls == 3) *latch = 1;
  }
  ok &= polls == 3;
  if (!ok) return finish(kName, false, "part 2");

  // 3. The latch in device memory, set by a later kernel of a non-blocking stream.
  unsigned* dlatch;
  CHECK(cudaMalloc(&dlatch, sizeof(unsigned)));
  CHECK(cudaMemset(dlatch, 0, sizeof(unsigned)));
  spin<<<1, 1, 0, s>>>(dlatch);
  set<<<1, 1, 0, nb>>>(dlatch, 1);
  CHECK(cudaDeviceSynchronize());
  return finish(kName, ok);
}
