// Driver API used by the CUDA runtime beyond the basics (cuda/README.md
// "Runtime API"): unified-address and 2D/3D copies, 2D memsets, pointer
// attributes, host callbacks, and stream, context and device queries
// (occupancy: occupancy.cpp). Managed, page-locked and registered host memory are in
// hostmem.cpp.
//
// A host callback runs when it is enqueued unless its stream waits for
// deferred work (streams.cpp): everything before it in its stream has
// finished then, as the API requires. Run when it is enqueued, it runs
// without the shim's lock; run later, by a synchronising call that holds it
// (a recursive lock: a callback may still call back into the driver).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cuda/shim/state.hpp"

using namespace shim;

namespace {

// Host-accessible bytes at a unified address: host-visible memory (managed,
// page-locked or registered: its host bytes), device memory, or else host
// memory.
uint8_t* unified(State& s, uint64_t addr, size_t n, bool& device) {
  device = true;
  if (uint8_t* h = host_side(s, addr, n)) return h;  // host-visible memory: the host bytes are current between launches
  uint64_t base = 0, size = 0;
  if (s.session->allocation(addr, base, size)) return s.session->host_bytes(addr, n);
  if (uint8_t* p = s.session->host_bytes(addr, n)) return p;  // a module's const bank
  device = false;
  return reinterpret_cast<uint8_t*>(addr);
}

uint8_t* side(State& s, CUmemorytype t, const void* host, CUdeviceptr dev, size_t off, size_t n, CUresult& err) {
  bool d = false;
  switch (t) {
    case CU_MEMORYTYPE_HOST: return host ? const_cast<uint8_t*>(static_cast<const uint8_t*>(host)) + off : nullptr;
    case CU_MEMORYTYPE_DEVICE: {
      if (uint8_t* h = host_side(s, dev + off, n)) return h;
      uint8_t* p = s.session->host_bytes(dev + off, n);
      if (!p) err = CUDA_ERROR_INVALID_VALUE;
      return p;
    }
    case CU_MEMORYTYPE_UNIFIED: return unified(s, dev + off, n, d);
    case CU_MEMORYTYPE_ARRAY: err = CUDA_ERROR_NOT_SUPPORTED; return nullptr;
  }
  err = CUDA_ERROR_INVALID_VALUE;
  return nullptr;
}

CUresult copy_linear(State& s, const CUDA_MEMCPY3D& c);

CUresult copy3d(const CUDA_MEMCPY3D& c, CUstream stream) {
  State& s = state();
  std::lock_guard lk(s.mu);
  CUcontext ctx = nullptr;
  if (CUresult r = current(s, ctx)) return r;
  if (!valid_stream(s, stream, ctx)) return CUDA_ERROR_INVALID_HANDLE;
  if (c.srcLOD || c.dstLOD) return CUDA_ERROR_INVALID_VALUE;
  if (capturing(stream)) {  // a memcpy node (graph.cpp)
    Work w;
    w.type = CU_GRAPH_NODE_TYPE_MEMCPY;
    w.ctx = ctx;
    w.copy = c;
    return capture_work(s, stream, std::move(w));
  }
  if (deferred_on(s, ctx, stream)) {  // after deferred work (streams.cpp)
    // A side in pageable host memory: the copy runs once that work is done
    // (the shim does not stage pitched host ranges).
    auto pageable = [&](CUmemorytype t, const void* host, CUdeviceptr dev) {
      bool d = false;
      if (t == CU_MEMORYTYPE_HOST) return !host_visible(s, host, 1);
      return t == CU_MEMORYTYPE_UNIFIED && (unified(s, dev, 1, d), !d);
    };
    if (pageable(c.srcMemoryType, c.srcHost, c.srcDevice) || pageable(c.dstMemoryType, c.dstHost, c.dstDevice)) {
      settle(s, ctx, stream);
      if (ctx->sticky) return ctx->sticky;
    } else {
      defer(s, ctx, stream, "cuMemcpy3DAsync", [c, stream] { return copy3d(c, stream); });
      return CUDA_SUCCESS;
    }
  }
  // An array side is its dense device memory (texture.cpp).
  CUDA_MEMCPY3D cp = c;
  if (c.srcMemoryType == CU_MEMORYTYPE_ARRAY) {
    if (!array_side(s, c.srcArray, cp.srcDevice, cp.srcPitch, cp.srcHeight)) return CUDA_ERROR_INVALID_HANDLE;
    cp.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  }
  if (c.dstMemoryType == CU_MEMORYTYPE_ARRAY) {
    if (!array_side(s, c.dstArray, cp.dstDevice, cp.dstPitch, cp.dstHeight)) return CUDA_ERROR_INVALID_HANDLE;
    cp.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  }
  return copy_linear(s, cp);
}

CUresult copy_linear(State& s, const CUDA_MEMCPY3D& c) {
  const size_t w = c.WidthInBytes, h = c.Height, d = c.Depth;
  if (!w || !h || !d) return CUDA_SUCCESS;
  if ((h > 1 || d > 1) && (c.srcPitch < w + c.srcXInBytes || c.dstPitch < w + c.dstXInBytes))
    return CUDA_ERROR_INVALID_VALUE;
  if (d > 1 && (c.srcHeight < h + c.srcY || c.dstHeight < h + c.dstY)) return CUDA_ERROR_INVALID_VALUE;
  for (size_t z = 0; z < d; ++z)
    for (size_t y = 0; y < h; ++y) {
      size_t so = ((c.srcZ + z) * c.srcHeight + c.srcY + y) * c.srcPitch + c.srcXInBytes;
      size_t doff = ((c.dstZ + z) * c.dstHeight + c.dstY + y) * c.dstPitch + c.dstXInBytes;
      CUresult err = CUDA_SUCCESS;
      const uint8_t* src = side(s, c.srcMemoryType, c.srcHost, c.srcDevice, so, w, err);
      uint8_t* dst = side(s, c.dstMemoryType, c.dstHost, c.dstDevice, doff, w, err);
      if (!src || !dst) return err ? err : CUDA_ERROR_INVALID_VALUE;
      std::memmove(dst, src, w);
    }
  return CUDA_SUCCESS;
}

CUDA_MEMCPY3D from2d(const CUDA_MEMCPY2D& c) {
  CUDA_MEMCPY3D m{};
  m.srcXInBytes = c.srcXInBytes;
  m.srcY = c.srcY;
  m.srcMemoryType = c.srcMemoryType;
  m.srcHost = c.srcHost;
  m.srcDevice = c.srcDevice;
  m.srcArray = c.srcArray;
  m.srcPitch = c.srcPitch;
  m.srcHeight = c.srcY + c.Height;
  m.dstXInBytes = c.dstXInBytes;
  m.dstY = c.dstY;
  m.dstMemoryType = c.dstMemoryType;
  m.dstHost = c.dstHost;
  m.dstDevice = c.dstDevice;
  m.dstArray = c.dstArray;
  m.dstPitch = c.dstPitch;
  m.dstHeight = c.dstY + c.Height;
  m.WidthInBytes = c.WidthInBytes;
  m.Height = c.Height;
  m.Depth = 1;
  return m;
}

template <class T>
CUresult fill2d(CUdeviceptr dst, size_t pitch, T v, size_t w, size_t h, CUstream stream) {
  State& s = state();
  std::lock_guard lk(s.mu);
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  if (!valid_stream(s, stream, c)) return CUDA_ERROR_INVALID_HANDLE;
  if (dst % sizeof(T) || (h > 1 && pitch < w * sizeof(T))) return CUDA_ERROR_INVALID_VALUE;
  if (capturing(stream)) {  // a memset node (graph.cpp)
    Work n;
    n.type = CU_GRAPH_NODE_TYPE_MEMSET;
    n.ctx = c;
    n.memset.dst = dst;
    n.memset.pitch = pitch;
    n.memset.value = v;
    n.memset.elementSize = sizeof(T);
    n.memset.width = w;
    n.memset.height = h;
    return capture_work(s, stream, std::move(n));
  }
  if (defer(s, c, stream, "cuMemsetD2DAsync", [=] { return fill2d<T>(dst, pitch, v, w, h, stream); }))
    return CUDA_SUCCESS;  // after deferred work (streams.cpp)
  for (size_t y = 0; y < h; ++y) {
    bool dev = false;
    uint8_t* p = unified(s, dst + y * pitch, w * sizeof(T), dev);
    if (!dev || !p) return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < w; ++i) std::memcpy(p + i * sizeof(T), &v, sizeof(T));
  }
  return CUDA_SUCCESS;
}

CUresult check_stream(CUstream st, CUcontext* out = nullptr) {
  State& s = state();
  std::lock_guard lk(s.mu);
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  if (!valid_stream(s, st, c)) return CUDA_ERROR_INVALID_HANDLE;
  if (out) *out = c;
  return CUDA_SUCCESS;
}

}  // namespace

SHIM_API CUresult cuMemAllocPitch_v2(CUdeviceptr* dptr, size_t* pPitch, size_t WidthInBytes, size_t Height,
                                     unsigned int ElementSizeBytes) {
  if (!pPitch || !WidthInBytes || !Height || (ElementSizeBytes != 4 && ElementSizeBytes != 8 && ElementSizeBytes != 16))
    return CUDA_ERROR_INVALID_VALUE;
  size_t pitch = (WidthInBytes + 511) / 512 * 512;  // CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT multiple
  if (CUresult r = cuMemAlloc_v2(dptr, pitch * Height)) return r;
  *pPitch = pitch;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuMemGetAddressRange_v2(CUdeviceptr* pbase, size_t* psize, CUdeviceptr dptr) {
  State& s = state();
  std::lock_guard lk(s.mu);
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  uint64_t base = 0, size = 0;
  if (!s.session->allocation(dptr, base, size)) return CUDA_ERROR_NOT_FOUND;
  if (pbase) *pbase = base;
  if (psize) *psize = size;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuPointerGetAttribute(void* data, CUpointer_attribute attribute, CUdeviceptr ptr) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!data) return CUDA_ERROR_INVALID_VALUE;
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  CUresult res = CUDA_SUCCESS;
  if (host_pointer_attribute(s, data, attribute, ptr, res)) return res;  // page-locked or registered (hostmem.cpp)
  uint64_t base = 0, size = 0;
  const bool man = is_managed(s, ptr, 1);
  if (!s.session->allocation(ptr, base, size)) return CUDA_ERROR_INVALID_VALUE;  // host or unknown memory
  CUcontext owner = nullptr;
  for (const auto& [h, k] : s.live)
    if (k == Kind::Ctx) {
      auto* c = static_cast<CUcontext>(const_cast<void*>(h));
      if (c->allocs.count(base)) owner = c;
    }
  switch (attribute) {
    case CU_POINTER_ATTRIBUTE_CONTEXT: *static_cast<CUcontext*>(data) = owner; break;
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
      *static_cast<unsigned*>(data) = CU_MEMORYTYPE_DEVICE;  // managed memory too (IS_MANAGED tells)
      break;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER: *static_cast<CUdeviceptr*>(data) = ptr; break;
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
      if (!man) return CUDA_ERROR_INVALID_VALUE;
      *static_cast<void**>(data) = reinterpret_cast<void*>(ptr);
      break;
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS: *static_cast<int*>(data) = 1; break;
    case CU_POINTER_ATTRIBUTE_BUFFER_ID: *static_cast<unsigned long long*>(data) = base; break;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED: *static_cast<int*>(data) = man; break;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *static_cast<int*>(data) = 0; break;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: *static_cast<CUdeviceptr*>(data) = base; break;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE: *static_cast<size_t*>(data) = size; break;
    case CU_POINTER_ATTRIBUTE_MAPPED: *static_cast<int*>(data) = 1; break;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute* attributes, void** data,
                                         CUdeviceptr ptr) {
  if (!attributes || !data) return CUDA_ERROR_INVALID_VALUE;
  for (unsigned i = 0; i < numAttributes; ++i) {
    if (!data[i]) continue;
    CUresult r = cuPointerGetAttribute(data[i], attributes[i], ptr);
    if (r == CUDA_ERROR_INVALID_VALUE) {  // host memory: the documented "unregistered" answers
      switch (attributes[i]) {
        case CU_POINTER_ATTRIBUTE_CONTEXT: *static_cast<CUcontext*>(data[i]) = nullptr; break;
        case CU_POINTER_ATTRIBUTE_MEMORY_TYPE: *static_cast<unsigned*>(data[i]) = 0; break;
        case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *static_cast<int*>(data[i]) = -2; break;
        case CU_POINTER_ATTRIBUTE_IS_MANAGED:
        case CU_POINTER_ATTRIBUTE_MAPPED: *static_cast<int*>(data[i]) = 0; break;
        case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
        case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: *static_cast<CUdeviceptr*>(data[i]) = 0; break;
        case CU_POINTER_ATTRIBUTE_HOST_POINTER: *static_cast<void**>(data[i]) = nullptr; break;
        default: break;
      }
    } else if (r) {
      return r;
    }
  }
  return CUDA_SUCCESS;
}

// ---- copies and memsets ------------------------------------------------------------------

SHIM_API CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n) {
  SyncCall sync;  // after the deferred work it waits for (streams.cpp)
  return cuMemcpyAsync(dst, src, n, nullptr);
}

SHIM_API CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream st) {
  State& s = state();
  std::lock_guard lk(s.mu);
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  if (!valid_stream(s, st, c)) return CUDA_ERROR_INVALID_HANDLE;
  if (capturing(st)) {  // a memcpy node between unified addresses (graph.cpp)
    Work w;
    w.type = CU_GRAPH_NODE_TYPE_MEMCPY;
    w.ctx = c;
    w.copy.srcMemoryType = w.copy.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
    w.copy.srcDevice = src;
    w.copy.dstDevice = dst;
    w.copy.WidthInBytes = n;
    w.copy.Height = w.copy.Depth = 1;
    return capture_work(s, st, std::move(w));
  }
  if (deferred_on(s, c, st) && n) {  // after deferred work (streams.cpp)
    bool dd = false, sd = false;
    unified(s, dst, n, dd);
    unified(s, src, n, sd);
    if (!dd) {  // to pageable host memory: returns once done
      settle(s, c, st);
      if (c->sticky) return c->sticky;
    } else {
      std::shared_ptr<std::vector<uint8_t>> staged;  // from pageable host memory: staged now
      if (!sd && src)
        staged = std::make_shared<std::vector<uint8_t>>(reinterpret_cast<const uint8_t*>(src),
                                                        reinterpret_cast<const uint8_t*>(src) + n);
      auto run = [=] {
        return cuMemcpyAsync(dst, staged ? reinterpret_cast<CUdeviceptr>(staged->data()) : src, n, st);
      };
      defer(s, c, st, "cuMemcpyAsync", std::move(run));
      return CUDA_SUCCESS;
    }
  }
  if (n == 0) return CUDA_SUCCESS;
  if (!dst || !src) return CUDA_ERROR_INVALID_VALUE;
  bool dd = false, sd = false;
  uint8_t* d = unified(s, dst, n, dd);
  const uint8_t* p = unified(s, src, n, sd);
  if (!d || !p) return CUDA_ERROR_INVALID_VALUE;  // device range overrunning its allocation
  std::memmove(d, p, n);
  return CUDA_SUCCESS;
}

// A batch of pointer-to-pointer copies (CUDA 12.8; the 12.8 ABI also reports the failing copy in *failIdx, SIZE_MAX
// when the error is not one copy's). As documented: attrsIdxs starts at 0 and increases, numAttrs <= count, each
// copy's attributes name a source access order, and the legacy NULL stream is refused. Every order is satisfied by
// copying in stream order, one cuMemcpyAsync per copy (so a captured batch is memcpy nodes).
CUresult shim::copy_batch(CUdeviceptr* dsts, CUdeviceptr* srcs, size_t* sizes, size_t count, CUmemcpyAttributes* attrs,
                          size_t* idxs, size_t num_attrs, size_t* fail, CUstream st) {
  if (fail) *fail = SIZE_MAX;
  if (!dsts || !srcs || !sizes || !count || !attrs || !idxs || !num_attrs || num_attrs > count)
    return CUDA_ERROR_INVALID_VALUE;
  if (st == nullptr || st == CU_STREAM_LEGACY) return CUDA_ERROR_INVALID_VALUE;
  for (size_t a = 0; a < num_attrs; ++a) {
    if (a == 0 ? idxs[0] != 0 : idxs[a] <= idxs[a - 1] || idxs[a] >= count) return CUDA_ERROR_INVALID_VALUE;
    const CUmemcpySrcAccessOrder o = attrs[a].srcAccessOrder;
    if (o != CU_MEMCPY_SRC_ACCESS_ORDER_STREAM && o != CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL &&
        o != CU_MEMCPY_SRC_ACCESS_ORDER_ANY)
      return CUDA_ERROR_INVALID_VALUE;
  }
  for (size_t i = 0; i < count; ++i)
    if (CUresult r = cuMemcpyAsync(dsts[i], srcs[i], sizes[i], st)) {
      if (fail) *fail = i;
      return r;
    }
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuMemcpyBatchAsync_v2(CUdeviceptr* dsts, CUdeviceptr* srcs, size_t* sizes, size_t count,
                                        CUmemcpyAttributes* attrs, size_t* attrsIdxs, size_t numAttrs, CUstream st) {
  return shim::copy_batch(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, nullptr, st);
}

SHIM_API CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D* p) {
  SyncCall sync;
  return p ? copy3d(from2d(*p), nullptr) : CUDA_ERROR_INVALID_VALUE;
}
SHIM_API CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D* p) { return cuMemcpy2D_v2(p); }
SHIM_API CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D* p, CUstream st) {
  return p ? copy3d(from2d(*p), st) : CUDA_ERROR_INVALID_VALUE;
}
SHIM_API CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D* p) {
  SyncCall sync;
  return p ? copy3d(*p, nullptr) : CUDA_ERROR_INVALID_VALUE;
}
SHIM_API CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D* p, CUstream st) {
  return p ? copy3d(*p, st) : CUDA_ERROR_INVALID_VALUE;
}

// A 3D peer copy (cuMemcpy3DPeer): as cuMemcpyPeer, the one device's
// contexts share its address space, so it is the 3D copy of its fields once
// each side's context (ignored for an array side) is live.
namespace {
CUresult copy3d_peer(const CUDA_MEMCPY3D_PEER* p, CUstream st) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  {
    State& s = state();
    std::lock_guard lk(s.mu);
    if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
    if ((p->srcMemoryType != CU_MEMORYTYPE_ARRAY && !is_live(s, p->srcContext, Kind::Ctx)) ||
        (p->dstMemoryType != CU_MEMORYTYPE_ARRAY && !is_live(s, p->dstContext, Kind::Ctx)))
      return CUDA_ERROR_INVALID_CONTEXT;
  }
  CUDA_MEMCPY3D c{};
  c.srcXInBytes = p->srcXInBytes, c.srcY = p->srcY, c.srcZ = p->srcZ, c.srcLOD = p->srcLOD;
  c.srcMemoryType = p->srcMemoryType, c.srcHost = p->srcHost, c.srcDevice = p->srcDevice;
  c.srcArray = p->srcArray, c.srcPitch = p->srcPitch, c.srcHeight = p->srcHeight;
  c.dstXInBytes = p->dstXInBytes, c.dstY = p->dstY, c.dstZ = p->dstZ, c.dstLOD = p->dstLOD;
  c.dstMemoryType = p->dstMemoryType, c.dstHost = p->dstHost, c.dstDevice = p->dstDevice;
  c.dstArray = p->dstArray, c.dstPitch = p->dstPitch, c.dstHeight = p->dstHeight;
  c.WidthInBytes = p->WidthInBytes, c.Height = p->Height, c.Depth = p->Depth;
  return copy3d(c, st);
}
}  // namespace
SHIM_API CUresult cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER* p) {
  SyncCall sync;
  return copy3d_peer(p, nullptr);
}
SHIM_API CUresult cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER* p, CUstream st) { return copy3d_peer(p, st); }

SHIM_API CUresult cuMemsetD2D8_v2(CUdeviceptr d, size_t pitch, unsigned char v, size_t w, size_t h) {
  SyncCall sync;
  return fill2d<uint8_t>(d, pitch, v, w, h, nullptr);
}
SHIM_API CUresult cuMemsetD2D16_v2(CUdeviceptr d, size_t pitch, unsigned short v, size_t w, size_t h) {
  SyncCall sync;
  return fill2d<uint16_t>(d, pitch, v, w, h, nullptr);
}
SHIM_API CUresult cuMemsetD2D32_v2(CUdeviceptr d, size_t pitch, unsigned int v, size_t w, size_t h) {
  SyncCall sync;
  return fill2d<uint32_t>(d, pitch, v, w, h, nullptr);
}
SHIM_API CUresult cuMemsetD2D8Async(CUdeviceptr d, size_t pitch, unsigned char v, size_t w, size_t h, CUstream st) {
  return fill2d<uint8_t>(d, pitch, v, w, h, st);
}
SHIM_API CUresult cuMemsetD2D16Async(CUdeviceptr d, size_t pitch, unsigned short v, size_t w, size_t h, CUstream st) {
  return fill2d<uint16_t>(d, pitch, v, w, h, st);
}
SHIM_API CUresult cuMemsetD2D32Async(CUdeviceptr d, size_t pitch, unsigned int v, size_t w, size_t h, CUstream st) {
  return fill2d<uint32_t>(d, pitch, v, w, h, st);
}

// Hints about where managed memory should live: there is one memory.
// A prefetch moves nothing (managed memory is coherent between calls here);
// it undoes a discard of the range (hostmem.cpp), in stream order.
SHIM_API CUresult cuMemPrefetchAsync_v2(CUdeviceptr p, size_t n, CUmemLocation loc, unsigned int flags, CUstream st) {
  if (flags) return CUDA_ERROR_INVALID_VALUE;
  CUcontext c = nullptr;
  if (CUresult r = check_stream(st, &c)) return r;
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!is_managed(s, p, n)) return CUDA_ERROR_INVALID_VALUE;
  if (defer(s, c, st, "cuMemPrefetchAsync", [=] { return cuMemPrefetchAsync_v2(p, n, loc, flags, st); }))
    return CUDA_SUCCESS;  // after deferred work (streams.cpp)
  prefetch_managed(s, p, n);
  return CUDA_SUCCESS;
}
SHIM_API CUresult cuMemAdvise_v2(CUdeviceptr p, size_t n, CUmem_advise advice, CUmemLocation) {
  if (advice < CU_MEM_ADVISE_SET_READ_MOSTLY || advice > CU_MEM_ADVISE_UNSET_ACCESSED_BY)
    return CUDA_ERROR_INVALID_VALUE;
  State& s = state();
  std::lock_guard lk(s.mu);
  return is_managed(s, p, n) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
SHIM_API CUresult cuStreamAttachMemAsync(CUstream st, CUdeviceptr, size_t, unsigned int flags) {
  if (flags & ~0x7u) return CUDA_ERROR_INVALID_VALUE;
  return check_stream(st);
}

// ---- host callbacks ---------------------------------------------------------------------------

SHIM_API CUresult cuLaunchHostFunc(CUstream st, CUhostFn fn, void* userData) {
  if (!fn) return CUDA_ERROR_INVALID_VALUE;
  {
    State& s = state();
    std::lock_guard lk(s.mu);
    CUcontext c = nullptr;
    if (CUresult r = current(s, c)) return r;
    if (!valid_stream(s, st, c)) return CUDA_ERROR_INVALID_HANDLE;
    if (capturing(st)) {  // a host node (graph.cpp)
      Work w;
      w.type = CU_GRAPH_NODE_TYPE_HOST;
      w.ctx = c;
      w.fn = fn;
      w.user = userData;
      return capture_work(s, st, std::move(w));
    }
    auto run = [fn, userData] {
      fn(userData);
      return CUDA_SUCCESS;
    };
    if (defer(s, c, st, "cuLaunchHostFunc", std::move(run))) return CUDA_SUCCESS;  // after deferred work (streams.cpp)
  }
  fn(userData);
  return CUDA_SUCCESS;
}

// The callback gets the stream's status: the context's error, if a launch
// before it failed.
SHIM_API CUresult cuStreamAddCallback(CUstream st, CUstreamCallback cb, void* userData, unsigned int flags) {
  if (!cb || flags) return CUDA_ERROR_INVALID_VALUE;
  CUcontext c = nullptr;
  {
    State& s = state();
    std::lock_guard lk(s.mu);
    if (CUresult r = current(s, c)) return r;
    if (!valid_stream(s, st, c)) return CUDA_ERROR_INVALID_HANDLE;
    if (capturing(st)) {  // a host node that calls the callback with the stream (graph.cpp)
      Work w;
      w.type = CU_GRAPH_NODE_TYPE_HOST;
      w.ctx = c;
      w.callback = cb;
      w.user = userData;
      return capture_work(s, st, std::move(w));
    }
    auto run = [c, cb, st, userData] {
      cb(st, c->sticky, userData);
      return CUDA_SUCCESS;
    };
    if (defer(s, c, st, "cuStreamAddCallback", std::move(run))) return CUDA_SUCCESS;  // after deferred work
  }
  CUresult status = c->sticky;
  cb(st, status, userData);
  return CUDA_SUCCESS;
}

// ---- cooperative launches -----------------------------------------------------------------------

// cuLaunchKernelEx with CU_LAUNCH_ATTRIBUTE_COOPERATIVE (launch.cpp checks
// that the grid fits on the device at once).
SHIM_API CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                            unsigned by, unsigned bz, unsigned sharedMemBytes, CUstream st,
                                            void** kernelParams) {
  CUlaunchAttribute attr{};
  attr.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
  attr.value.cooperative = 1;
  CUlaunchConfig cfg{};
  cfg.gridDimX = gx, cfg.gridDimY = gy, cfg.gridDimZ = gz;
  cfg.blockDimX = bx, cfg.blockDimY = by, cfg.blockDimZ = bz;
  cfg.sharedMemBytes = sharedMemBytes;
  cfg.hStream = st;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  return cuLaunchKernelEx(&cfg, f, kernelParams, nullptr);
}

// ---- streams, events, contexts, device --------------------------------------------------------------

SHIM_API CUresult cuStreamCreateWithPriority(CUstream* ph, unsigned int flags, int priority) {
  if (CUresult r = cuStreamCreate(ph, flags)) return r;
  (*ph)->priority = std::clamp(priority, -5, 0);  // cuCtxGetStreamPriorityRange
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuStreamGetPriority(CUstream st, int* priority) {
  if (!priority) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = check_stream(st)) return r;
  *priority = st && st != CU_STREAM_LEGACY && st != CU_STREAM_PER_THREAD ? st->priority : 0;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuStreamGetFlags(CUstream st, unsigned int* flags) {
  if (!flags) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = check_stream(st)) return r;
  *flags = st && st != CU_STREAM_LEGACY && st != CU_STREAM_PER_THREAD ? st->flags : 0;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuStreamGetCtx(CUstream st, CUcontext* pctx) {
  if (!pctx) return CUDA_ERROR_INVALID_VALUE;
  CUcontext c = nullptr;
  if (CUresult r = check_stream(st, &c)) return r;
  *pctx = st && st != CU_STREAM_LEGACY && st != CU_STREAM_PER_THREAD ? st->ctx : c;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuStreamGetId(CUstream st, unsigned long long* id) {
  if (!id) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = check_stream(st)) return r;
  *id = st == nullptr || st == CU_STREAM_LEGACY ? 1 : st == CU_STREAM_PER_THREAD ? 2 : reinterpret_cast<uintptr_t>(st);
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuEventRecordWithFlags(CUevent e, CUstream st, unsigned int flags) {
  if (flags & ~1u) return CUDA_ERROR_INVALID_VALUE;
  return cuEventRecord(e, st);
}

SHIM_API CUresult cuCtxGetStreamPriorityRange(int* least, int* greatest) {
  if (least) *least = 0;
  if (greatest) *greatest = -5;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuCtxGetFlags(unsigned int* flags) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!flags) return CUDA_ERROR_INVALID_VALUE;
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  *flags = c->flags;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuCtxGetId(CUcontext ctx, unsigned long long* id) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!id) return CUDA_ERROR_INVALID_VALUE;
  if (!ctx) {
    CUcontext c = nullptr;
    if (CUresult r = current(s, c)) return r;
    ctx = c;
  }
  if (!is_live(s, ctx, Kind::Ctx)) return CUDA_ERROR_INVALID_CONTEXT;
  *id = reinterpret_cast<uintptr_t>(ctx);
  return CUDA_SUCCESS;
}

// The CUDA 13 forms taking an explicit context (NULL: the current one).
SHIM_API CUresult cuCtxGetDevice_v2(CUdevice* device, CUcontext ctx) {
  if (!ctx) return cuCtxGetDevice(device);
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!device) return CUDA_ERROR_INVALID_VALUE;
  if (!is_live(s, ctx, Kind::Ctx)) return CUDA_ERROR_INVALID_CONTEXT;
  *device = 0;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuCtxSynchronize_v2(CUcontext ctx) {
  if (!ctx) return cuCtxSynchronize();
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!is_live(s, ctx, Kind::Ctx)) return CUDA_ERROR_INVALID_CONTEXT;
  if (ctx->sticky) return ctx->sticky;
  drain_ctx(s, ctx, true);  // deferred work runs (streams.cpp)
  if (ctx->sticky) return ctx->sticky;
  release_pools(s);
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuCtxResetPersistingL2Cache(void) { return CUDA_SUCCESS; }

SHIM_API CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags) {
  DeviceEntry e(dev);
  if (e.r) return e.r;
  if (flags & ~static_cast<unsigned>(CU_CTX_FLAGS_MASK)) return CUDA_ERROR_INVALID_VALUE;
  primary_ctx(e.s)->flags = flags;
  return CUDA_SUCCESS;
}

// A fixed UUID: "ptxcheck" + the emulated architecture.
SHIM_API CUresult cuDeviceGetUuid_v2(CUuuid* uuid, CUdevice dev) {
  DeviceEntry e(dev);
  if (!uuid) return CUDA_ERROR_INVALID_VALUE;
  if (e.r) return e.r;
  std::memset(uuid->bytes, 0, 16);
  std::memcpy(uuid->bytes, "ptxcheck", 8);
  uuid->bytes[8] = static_cast<char>(device_arch(e.s));
  return CUDA_SUCCESS;
}
#undef cuDeviceGetUuid  // the CUDA 9.2 name, same signature
SHIM_API CUresult cuDeviceGetUuid(CUuuid* uuid, CUdevice dev) { return cuDeviceGetUuid_v2(uuid, dev); }

SHIM_API CUresult cuDeviceGetPCIBusId(char* id, int len, CUdevice dev) {
  if (!id || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
  std::snprintf(id, static_cast<size_t>(len), "0000:00:00.0");
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuDeviceCanAccessPeer(int* can, CUdevice dev, CUdevice peer) {
  if (!can) return CUDA_ERROR_INVALID_VALUE;
  if (dev != 0 || peer != 0) return CUDA_ERROR_INVALID_DEVICE;
  *can = 0;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuProfilerStart(void) { return CUDA_SUCCESS; }
SHIM_API CUresult cuProfilerStop(void) { return CUDA_SUCCESS; }
