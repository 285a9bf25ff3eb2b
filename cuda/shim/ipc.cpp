// CUDA interprocess handles (cuIpcGetMemHandle, cuIpcOpenMemHandle,
// cuIpcCloseMemHandle, cuIpcGetEventHandle, cuIpcOpenEventHandle): refused.
// Each process that runs on the shim has its own emulated device inside it,
// so no other process can reach its memory or its events. Each call checks
// its pointer arguments (CUDA_ERROR_INVALID_VALUE), then answers
// CUDA_ERROR_NOT_SUPPORTED with a message naming itself (before these entry
// points existed the runtime answered cudaErrorCallRequiresNewerDriver,
// which points at the wrong cause). CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED
// is 0.
#include <string>

#include "cuda/shim/state.hpp"

using namespace shim;

namespace {

CUresult refuse(const char* api) {
  report(std::string(api) +
         ": CUDA interprocess (IPC) handles are not provided: each process runs its own emulated device, "
         "which no other process can reach");
  return CUDA_ERROR_NOT_SUPPORTED;
}

}  // namespace

SHIM_API CUresult cuIpcGetMemHandle(CUipcMemHandle* pHandle, CUdeviceptr) {
  if (!pHandle) return CUDA_ERROR_INVALID_VALUE;
  return refuse("cuIpcGetMemHandle");
}

SHIM_API CUresult cuIpcOpenMemHandle_v2(CUdeviceptr* pdptr, CUipcMemHandle, unsigned int) {
  if (!pdptr) return CUDA_ERROR_INVALID_VALUE;
  return refuse("cuIpcOpenMemHandle");
}

// The CUDA 4.1 ABI of the same call.
#undef cuIpcOpenMemHandle
SHIM_API CUresult cuIpcOpenMemHandle(CUdeviceptr* pdptr, CUipcMemHandle handle, unsigned int Flags) {
  return cuIpcOpenMemHandle_v2(pdptr, handle, Flags);
}

SHIM_API CUresult cuIpcCloseMemHandle(CUdeviceptr) { return refuse("cuIpcCloseMemHandle"); }

SHIM_API CUresult cuIpcGetEventHandle(CUipcEventHandle* pHandle, CUevent) {
  if (!pHandle) return CUDA_ERROR_INVALID_VALUE;
  return refuse("cuIpcGetEventHandle");
}

SHIM_API CUresult cuIpcOpenEventHandle(CUevent* phEvent, CUipcEventHandle) {
  if (!phEvent) return CUDA_ERROR_INVALID_VALUE;
  return refuse("cuIpcOpenEventHandle");
}
