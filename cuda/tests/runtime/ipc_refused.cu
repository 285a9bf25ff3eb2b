// CUDA IPC handles are refused with cudaErrorNotSupported and the shim's
// message (cuda/shim/ipc.cpp): each process has its own emulated device.
// Before the shim had the cuIpc* entry points, the runtime answered
// cudaErrorCallRequiresNewerDriver (NVIDIA's simpleIPC sample stopped so).
#include <cstdio>
#include <cstring>

int main() {
  void* p = nullptr;
  if (cudaMalloc(&p, 256) != cudaSuccess) return 1;
  cudaIpcMemHandle_t h;
  std::memset(&h, 0, sizeof h);
  const cudaError_t get = cudaIpcGetMemHandle(&h, p);
  void* q = nullptr;
  const cudaError_t open = cudaIpcOpenMemHandle(&q, h, cudaIpcMemLazyEnablePeerAccess);
  cudaEvent_t e;
  cudaIpcEventHandle_t eh;
  if (cudaEventCreateWithFlags(&e, cudaEventInterprocess | cudaEventDisableTiming) != cudaSuccess) return 1;
  const cudaError_t ev = cudaIpcGetEventHandle(&eh, e);
  int attr = -1;
  cudaDeviceGetAttribute(&attr, cudaDevAttrIpcEventSupport, 0);
  const bool ok = get == cudaErrorNotSupported && open == cudaErrorNotSupported && ev == cudaErrorNotSupported &&
                  attr == 0 && cudaFree(p) == cudaSuccess;
  std::printf("ipc_refused: %s (%s, %s, %s, attribute %d)\n", ok ? "PASS" : "FAIL", cudaGetErrorName(get),
              cudaGetErrorName(open), cudaGetErrorName(ev), attr);
  return ok ? 0 : 1;
}
