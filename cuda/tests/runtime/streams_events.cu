// Two streams with events between them, an inter-stream wait, elapsed time,
// and host callbacks that must see the work before them finished.
#include "common.cuh"
static const char* kName = "streams_events";

__global__ void fill(int* a, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = v;
}
__global__ void add(int* a, const int* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += b[i];
}

static int host_seen = -1, callback_status = -1;
static int* host_buf;
void CUDART_CB host_fn(void*) { host_seen = host_buf[17]; }
void CUDART_CB stream_cb(cudaStream_t, cudaError_t status, void*) { callback_status = status; }

int main() {
  const int n = 512;
  int *a, *b;
  cudaStream_t s1, s2;
  cudaEvent_t e1, start, stop;
  CHECK(cudaMalloc(&a, n * sizeof(int)));
  CHECK(cudaMalloc(&b, n * sizeof(int)));
  CHECK(cudaMallocHost(&host_buf, n * sizeof(int)));
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithPriority(&s2, cudaStreamDefault, -1));
  CHECK(cudaEventCreate(&e1));
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start, s1));
  fill<<<n / 128, 128, 0, s1>>>(a, 40, n);
  fill<<<n / 128, 128, 0, s2>>>(b, 2, n);
  CHECK(cudaEventRecord(e1, s2));
  CHECK(cudaStreamWaitEvent(s1, e1, 0));
  add<<<n / 128, 128, 0, s1>>>(a, b, n);
  CHECK(cudaMemcpyAsync(host_buf, a, n * sizeof(int), cudaMemcpyDeviceToHost, s1));
  CHECK(cudaLaunchHostFunc(s1, host_fn, nullptr));
  CHECK(cudaStreamAddCallback(s1, stream_cb, nullptr, 0));
  CHECK(cudaEventRecord(stop, s1));
  CHECK(cudaEventSynchronize(stop));
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  CHECK(cudaStreamSynchronize(s1));
  CHECK(cudaStreamQuery(s2));
  int prio = 0;
  CHECK(cudaStreamGetPriority(s2, &prio));
  bool ok = host_seen == 42 && callback_status == cudaSuccess && ms >= 0 && prio == -1;
  for (int i = 0; i < n; ++i) ok &= host_buf[i] == 42;
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  CHECK(cudaFreeHost(host_buf));
  return finish(kName, ok);
}
