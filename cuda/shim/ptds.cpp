// The per-thread-default-stream (_ptds/_ptsz) entry points of the runtime-API
// support functions (runtime.cpp), for binaries built with
// CUDA_API_PER_THREAD_DEFAULT_STREAM and for cuGetProcAddress's
// PER_THREAD_DEFAULT_STREAM look-ups. Every stream is the same synchronous
// queue on the shim (compat.cpp), so each forwards unchanged.
#include "cuda/shim/state.hpp"

SHIM_API CUresult cuMemcpy_ptds(CUdeviceptr d, CUdeviceptr s, size_t n) { return cuMemcpy(d, s, n); }
SHIM_API CUresult cuMemcpyAsync_ptsz(CUdeviceptr d, CUdeviceptr s, size_t n, CUstream st) {
  return cuMemcpyAsync(d, s, n, st);
}
SHIM_API CUresult cuMemcpyPeer_ptds(CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n) {
  return cuMemcpyPeer(d, dc, s, sc, n);
}
SHIM_API CUresult cuMemcpyPeerAsync_ptsz(CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n,
                                         CUstream st) {
  return cuMemcpyPeerAsync(d, dc, s, sc, n, st);
}
SHIM_API CUresult cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D* p) { return cuMemcpy2D_v2(p); }
SHIM_API CUresult cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D* p) { return cuMemcpy2DUnaligned_v2(p); }
SHIM_API CUresult cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D* p, CUstream st) { return cuMemcpy2DAsync_v2(p, st); }
SHIM_API CUresult cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D* p) { return cuMemcpy3D_v2(p); }
SHIM_API CUresult cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D* p, CUstream st) { return cuMemcpy3DAsync_v2(p, st); }
SHIM_API CUresult cuMemcpy3DPeer_ptds(const CUDA_MEMCPY3D_PEER* p) { return cuMemcpy3DPeer(p); }
SHIM_API CUresult cuMemcpy3DPeerAsync_ptsz(const CUDA_MEMCPY3D_PEER* p, CUstream st) { return cuMemcpy3DPeerAsync(p, st); }
SHIM_API CUresult cuMemsetD2D8_v2_ptds(CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h) {
  return cuMemsetD2D8_v2(d, p, v, w, h);
}
SHIM_API CUresult cuMemsetD2D16_v2_ptds(CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t h) {
  return cuMemsetD2D16_v2(d, p, v, w, h);
}
SHIM_API CUresult cuMemsetD2D32_v2_ptds(CUdeviceptr d, size_t p, unsigned int v, size_t w, size_t h) {
  return cuMemsetD2D32_v2(d, p, v, w, h);
}
SHIM_API CUresult cuMemsetD2D8Async_ptsz(CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t h, CUstream st) {
  return cuMemsetD2D8Async(d, p, v, w, h, st);
}
SHIM_API CUresult cuMemsetD2D16Async_ptsz(CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t h,
                                          CUstream st) {
  return cuMemsetD2D16Async(d, p, v, w, h, st);
}
SHIM_API CUresult cuMemsetD2D32Async_ptsz(CUdeviceptr d, size_t p, unsigned int v, size_t w, size_t h, CUstream st) {
  return cuMemsetD2D32Async(d, p, v, w, h, st);
}
SHIM_API CUresult cuMemPrefetchAsync_v2_ptsz(CUdeviceptr p, size_t n, CUmemLocation l, unsigned int f, CUstream st) {
  return cuMemPrefetchAsync_v2(p, n, l, f, st);
}
SHIM_API CUresult cuStreamGetPriority_ptsz(CUstream st, int* p) { return cuStreamGetPriority(st, p); }
SHIM_API CUresult cuStreamGetFlags_ptsz(CUstream st, unsigned int* f) { return cuStreamGetFlags(st, f); }
SHIM_API CUresult cuStreamGetCtx_ptsz(CUstream st, CUcontext* c) { return cuStreamGetCtx(st, c); }
SHIM_API CUresult cuStreamGetId_ptsz(CUstream st, unsigned long long* id) { return cuStreamGetId(st, id); }
SHIM_API CUresult cuStreamAddCallback_ptsz(CUstream st, CUstreamCallback cb, void* u, unsigned int f) {
  return cuStreamAddCallback(st, cb, u, f);
}
SHIM_API CUresult cuStreamAttachMemAsync_ptsz(CUstream st, CUdeviceptr p, size_t n, unsigned int f) {
  return cuStreamAttachMemAsync(st, p, n, f);
}
SHIM_API CUresult cuEventRecordWithFlags_ptsz(CUevent e, CUstream st, unsigned int f) {
  return cuEventRecordWithFlags(e, st, f);
}
SHIM_API CUresult cuLaunchHostFunc_ptsz(CUstream st, CUhostFn fn, void* u) { return cuLaunchHostFunc(st, fn, u); }
SHIM_API CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                                 unsigned by, unsigned bz, unsigned sh, CUstream st, void** p) {
  return cuLaunchCooperativeKernel(f, gx, gy, gz, bx, by, bz, sh, st, p);
}

// Older ABIs of entry points the runtime may still ask for by version.
#undef cuDevicePrimaryCtxRelease
#undef cuDevicePrimaryCtxReset
SHIM_API CUresult cuDevicePrimaryCtxRelease(CUdevice dev) { return cuDevicePrimaryCtxRelease_v2(dev); }
SHIM_API CUresult cuDevicePrimaryCtxReset(CUdevice dev) { return cuDevicePrimaryCtxReset_v2(dev); }
#undef cuDevicePrimaryCtxSetFlags
SHIM_API CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags) {
  return cuDevicePrimaryCtxSetFlags_v2(dev, flags);
}
namespace {
CUmemLocation device_location(CUdevice d) {
  CUmemLocation l{};
  l.type = d == -1 ? CU_MEM_LOCATION_TYPE_HOST : CU_MEM_LOCATION_TYPE_DEVICE;  // CU_DEVICE_CPU is -1
  l.id = d;
  return l;
}
}  // namespace
#undef cuMemPrefetchAsync
#undef cuMemAdvise
SHIM_API CUresult cuMemPrefetchAsync(CUdeviceptr p, size_t n, CUdevice d, CUstream st) {
  return cuMemPrefetchAsync_v2(p, n, device_location(d), 0, st);
}
SHIM_API CUresult cuMemPrefetchAsync_ptsz(CUdeviceptr p, size_t n, CUdevice d, CUstream st) {
  return cuMemPrefetchAsync(p, n, d, st);
}
SHIM_API CUresult cuMemAdvise(CUdeviceptr p, size_t n, CUmem_advise a, CUdevice d) {
  return cuMemAdvise_v2(p, n, a, device_location(d));
}
// cuMemcpyBatchAsync: the CUDA 12.8 ABI (with failIdx) and CUDA 13's _v2; a
// _ptsz call's stream 0 is the per-thread stream, not the refused legacy one.
#undef cuMemcpyBatchAsync
SHIM_API CUresult cuMemcpyBatchAsync(CUdeviceptr* d, CUdeviceptr* s, size_t* n, size_t count, CUmemcpyAttributes* a,
                                     size_t* ai, size_t na, size_t* fail, CUstream st) {
  return shim::copy_batch(d, s, n, count, a, ai, na, fail, st);
}
SHIM_API CUresult cuMemcpyBatchAsync_ptsz(CUdeviceptr* d, CUdeviceptr* s, size_t* n, size_t count,
                                          CUmemcpyAttributes* a, size_t* ai, size_t na, size_t* fail, CUstream st) {
  return shim::copy_batch(d, s, n, count, a, ai, na, fail, st ? st : CU_STREAM_PER_THREAD);
}
SHIM_API CUresult cuMemcpyBatchAsync_v2_ptsz(CUdeviceptr* d, CUdeviceptr* s, size_t* n, size_t count,
                                             CUmemcpyAttributes* a, size_t* ai, size_t na, CUstream st) {
  return shim::copy_batch(d, s, n, count, a, ai, na, nullptr, st ? st : CU_STREAM_PER_THREAD);
}
