// Driver API entry points that are trivial on the interpreter: cache and limit
// preferences, and the per-thread-default-stream (_ptds/_ptsz) aliases that
// a host program built with CUDA_API_PER_THREAD_DEFAULT_STREAM calls. Every
// stream is the same synchronous queue, so the aliases forward unchanged.
#include <cstdlib>
#include <cstring>

#include "cuda/shim/state.hpp"

using namespace shim;

SHIM_API CUresult cuDeviceComputeCapability(int* major, int* minor, CUdevice dev) {
  if (!major || !minor) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = cuDeviceGetAttribute(major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev)) return r;
  return cuDeviceGetAttribute(minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
}

SHIM_API CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int* version) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!version) return CUDA_ERROR_INVALID_VALUE;
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!ctx) {
    auto& st = ctx_stack();
    if (st.empty()) return CUDA_ERROR_INVALID_CONTEXT;
    ctx = st.back();
  }
  if (!is_live(s, ctx, Kind::Ctx)) return CUDA_ERROR_INVALID_CONTEXT;
  *version = 3020;  // the context API level every current driver reports
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuCtxSetLimit(CUlimit limit, size_t value) {
  State& s = state();
  std::lock_guard lk(s.mu);
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  if (static_cast<unsigned>(limit) > CU_LIMIT_PERSISTING_L2_CACHE_SIZE) return CUDA_ERROR_INVALID_VALUE;
  if (limit == CU_LIMIT_MALLOC_HEAP_SIZE) {
    // The device heap's size is fixed once a kernel used it (CUDA C++
    // Programming Guide, "Heap Memory Allocation").
    if (!s.session) return CUDA_ERROR_INVALID_CONTEXT;
    return s.session->device_heap().set_limit(value) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  }
  (void)value;  // the interpreter's other limits are its own (docs/interpreter.md)
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuCtxGetLimit(size_t* pvalue, CUlimit limit) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!pvalue) return CUDA_ERROR_INVALID_VALUE;
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  switch (limit) {
    case CU_LIMIT_STACK_SIZE: *pvalue = 1u << 20; return CUDA_SUCCESS;  // per-thread local memory
    case CU_LIMIT_PRINTF_FIFO_SIZE: *pvalue = 1u << 20; return CUDA_SUCCESS;
    case CU_LIMIT_MALLOC_HEAP_SIZE:
      *pvalue = s.session ? s.session->device_heap().limit() : ptxcheck::interp::kDefaultMallocHeapBytes;
      return CUDA_SUCCESS;
    case CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH:
    case CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT:
    case CU_LIMIT_MAX_L2_FETCH_GRANULARITY:
    case CU_LIMIT_PERSISTING_L2_CACHE_SIZE: *pvalue = 0; return CUDA_SUCCESS;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
}

SHIM_API CUresult cuCtxSetCacheConfig(CUfunc_cache config) {
  State& s = state();
  std::lock_guard lk(s.mu);
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  return static_cast<unsigned>(config) <= CU_FUNC_CACHE_PREFER_EQUAL ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

SHIM_API CUresult cuCtxGetCacheConfig(CUfunc_cache* pconfig) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!pconfig) return CUDA_ERROR_INVALID_VALUE;
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  *pconfig = CU_FUNC_CACHE_PREFER_NONE;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuFuncSetCacheConfig(CUfunction f, CUfunc_cache config) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (CUresult r = resolve_function(s, f)) return r;
  return static_cast<unsigned>(config) <= CU_FUNC_CACHE_PREFER_EQUAL ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

// ---- stream-ordered extras ---------------------------------------------------------------

// A 1D memset in a stream is a one-row 2D memset (runtime.cpp), which a
// capturing stream records as a memset node and a stream with deferred work
// queues (streams.cpp).
SHIM_API CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUstream st) {
  return cuMemsetD2D8Async(d, n, v, n, 1, st);
}
SHIM_API CUresult cuMemsetD16Async(CUdeviceptr d, unsigned short v, size_t n, CUstream st) {
  if (n > SIZE_MAX / 2) return CUDA_ERROR_INVALID_VALUE;
  return cuMemsetD2D16Async(d, n * 2, v, n, 1, st);
}
SHIM_API CUresult cuMemsetD32Async(CUdeviceptr d, unsigned int v, size_t n, CUstream st) {
  if (n > SIZE_MAX / 4) return CUDA_ERROR_INVALID_VALUE;
  return cuMemsetD2D32Async(d, n * 4, v, n, 1, st);
}

// Work of an earlier record has finished: waiting is checking the handles,
// unless the event was recorded in a capture (graph.cpp).
SHIM_API CUresult cuStreamWaitEvent(CUstream st, CUevent e, unsigned int flags) {
  if (flags > 1) return CUDA_ERROR_INVALID_VALUE;
  return stream_wait_event(st, e, flags);
}

// ---- per-thread default stream aliases ---------------------------------------------------

SHIM_API CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr d, const void* s, size_t n) { return cuMemcpyHtoD_v2(d, s, n); }
SHIM_API CUresult cuMemcpyDtoH_v2_ptds(void* d, CUdeviceptr s, size_t n) { return cuMemcpyDtoH_v2(d, s, n); }
SHIM_API CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr d, CUdeviceptr s, size_t n) { return cuMemcpyDtoD_v2(d, s, n); }
SHIM_API CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr d, const void* s, size_t n, CUstream st) {
  return cuMemcpyHtoDAsync_v2(d, s, n, st);
}
SHIM_API CUresult cuMemcpyDtoHAsync_v2_ptsz(void* d, CUdeviceptr s, size_t n, CUstream st) {
  return cuMemcpyDtoHAsync_v2(d, s, n, st);
}
SHIM_API CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st) {
  return cuMemcpyDtoDAsync_v2(d, s, n, st);
}
SHIM_API CUresult cuMemsetD8_v2_ptds(CUdeviceptr d, unsigned char v, size_t n) { return cuMemsetD8_v2(d, v, n); }
SHIM_API CUresult cuMemsetD16_v2_ptds(CUdeviceptr d, unsigned short v, size_t n) { return cuMemsetD16_v2(d, v, n); }
SHIM_API CUresult cuMemsetD32_v2_ptds(CUdeviceptr d, unsigned int v, size_t n) { return cuMemsetD32_v2(d, v, n); }
SHIM_API CUresult cuMemsetD8Async_ptsz(CUdeviceptr d, unsigned char v, size_t n, CUstream st) {
  return cuMemsetD8Async(d, v, n, st);
}
SHIM_API CUresult cuMemsetD16Async_ptsz(CUdeviceptr d, unsigned short v, size_t n, CUstream st) {
  return cuMemsetD16Async(d, v, n, st);
}
SHIM_API CUresult cuMemsetD32Async_ptsz(CUdeviceptr d, unsigned int v, size_t n, CUstream st) {
  return cuMemsetD32Async(d, v, n, st);
}
SHIM_API CUresult cuStreamSynchronize_ptsz(CUstream st) { return cuStreamSynchronize(st); }
SHIM_API CUresult cuStreamQuery_ptsz(CUstream st) { return cuStreamQuery(st); }
SHIM_API CUresult cuStreamWaitEvent_ptsz(CUstream st, CUevent e, unsigned int flags) {
  return cuStreamWaitEvent(st, e, flags);
}
SHIM_API CUresult cuEventRecord_ptsz(CUevent e, CUstream st) { return cuEventRecord(e, st); }
SHIM_API CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
                                      unsigned int by, unsigned int bz, unsigned int shmem, CUstream st, void** params,
                                      void** extra) {
  return cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shmem, st, params, extra);
}
SHIM_API CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig* config, CUfunction f, void** params, void** extra) {
  return cuLaunchKernelEx(config, f, params, extra);
}
