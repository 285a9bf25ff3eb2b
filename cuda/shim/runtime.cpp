// Driver API used by the CUDA runtime beyond the basics (cuda/README.md
// "Runtime API"): unified-address and 2D/3D copies, 2D memsets, managed and
// registered memory, pointer attributes, host callbacks, occupancy, and
// stream, context and device queries.
//
// Every stream is complete when a call returns (kernels run inside the
// launch), so a host callback runs when it is enqueued: everything before it
// in its stream has finished, as the API requires. It runs without the
// shim's lock, so it may call back into the driver.
#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

#include "cuda/shim/state.hpp"

using namespace shim;

namespace {

constexpr uint64_t kPage = 4096;

std::map<uint64_t, uint64_t>& managed() {  // base -> bytes (the host mapping is page-rounded)
  static auto* m = new std::map<uint64_t, uint64_t>;
  return *m;
}

// Page-locked host memory (cuMemHostAlloc, cuMemHostRegister): host base ->
// its range. A mapped range (DEVICEMAP) has a device copy at `dev` of
// `bytes` bytes, an interpreter allocation refreshed from the host before
// each launch and written back after it, as managed memory is. For
// cuMemHostAlloc the device copy has the host's address (`dev` == base: the
// host side is mmapped there), as the driver API gives under unified
// addressing; a registered range keeps its own address, so its copy is
// elsewhere (CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM is 0).
// Kernel accesses past `bytes` are outside the allocation: out of bounds.
struct HostRange {
  size_t bytes = 0;
  unsigned flags = 0;
  bool alloc = false;       // from cuMemHostAlloc (else registered)
  uint64_t dev = 0;         // the device copy, 0 when not mapped
  CUcontext ctx = nullptr;  // current when it was made
};

std::map<uintptr_t, HostRange>& host_ranges() {
  static auto* m = new std::map<uintptr_t, HostRange>;
  return *m;
}

// The range holding host address `p`, or end().
std::map<uintptr_t, HostRange>::iterator host_range(uintptr_t p) {
  auto& m = host_ranges();
  auto it = m.upper_bound(p);
  if (it == m.begin()) return m.end();
  --it;
  return p - it->first < it->second.bytes ? it : m.end();
}

// The host bytes behind n bytes at device address `dev` of a mapped
// range's device copy, or nullptr.
uint8_t* mapped_host(uint64_t dev, size_t n) {
  for (const auto& [h, r] : host_ranges())
    if (r.dev && dev - r.dev < r.bytes && n <= r.bytes - (dev - r.dev))
      return reinterpret_cast<uint8_t*>(h + (dev - r.dev));
  return nullptr;
}

// Host-accessible bytes at a unified address: a managed allocation (its
// host copy), device memory, or else host memory.
uint8_t* unified(State& s, uint64_t addr, size_t n, bool& device) {
  device = true;
  if (is_managed(s, addr, n)) return reinterpret_cast<uint8_t*>(addr);
  if (uint8_t* h = mapped_host(addr, n)) {  // mapped host memory: the host side is current between launches
    device = false;
    return h;
  }
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

// ---- managed memory --------------------------------------------------------------------

bool shim::is_managed(const State&, uint64_t addr, uint64_t n) {
  auto& m = managed();
  auto it = m.upper_bound(addr);
  if (it == m.begin()) return false;
  --it;
  return addr - it->first < it->second && n <= it->second - (addr - it->first);
}

uint8_t* shim::host_side(const State& s, uint64_t addr, uint64_t n) {
  if (is_managed(s, addr, n)) return reinterpret_cast<uint8_t*>(addr);
  return mapped_host(addr, n);
}

// Managed memory and mapped host memory alike: the host side is copied in
// before a launch and out after it.
void shim::managed_to_device(State& s) {
  for (const auto& [base, bytes] : managed())
    if (uint8_t* d = s.session->host_bytes(base, bytes)) std::memcpy(d, reinterpret_cast<void*>(base), bytes);
  for (const auto& [h, r] : host_ranges())
    if (r.dev)
      if (uint8_t* d = s.session->host_bytes(r.dev, r.bytes)) std::memcpy(d, reinterpret_cast<void*>(h), r.bytes);
}

void shim::managed_from_device(State& s) {
  for (const auto& [base, bytes] : managed())
    if (uint8_t* d = s.session->host_bytes(base, bytes)) std::memcpy(reinterpret_cast<void*>(base), d, bytes);
  for (const auto& [h, r] : host_ranges())
    if (r.dev)
      if (uint8_t* d = s.session->host_bytes(r.dev, r.bytes)) std::memcpy(reinterpret_cast<void*>(h), d, r.bytes);
}

// The device address is mapped at the same host address, so host code
// dereferences it directly; kernels see the interpreter's copy, refreshed
// from the host before each launch and written back after it.
SHIM_API CUresult cuMemAllocManaged(CUdeviceptr* dptr, size_t bytesize, unsigned int flags) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!dptr || bytesize == 0 || (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST))
    return CUDA_ERROR_INVALID_VALUE;
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  uint64_t mapped = (bytesize + kPage - 1) / kPage * kPage;
  uint64_t a = 0;
  try {
    a = s.session->alloc(mapped, kPage);
  } catch (const ptxcheck::LimitError&) {
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  void* p = mmap(reinterpret_cast<void*>(a), mapped, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (p != reinterpret_cast<void*>(a)) {
    if (p != MAP_FAILED) munmap(p, mapped);
    s.session->free(a);
    report("cuMemAllocManaged: host address 0x" + std::to_string(a) + " is taken; managed memory unavailable");
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  managed()[a] = mapped;
  c->allocs.insert(a);
  *dptr = a;
  return CUDA_SUCCESS;
}

void shim::release_managed(uint64_t a) {
  auto it = managed().find(a);
  if (it == managed().end()) return;
  munmap(reinterpret_cast<void*>(a), it->second);
  managed().erase(it);
}

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

// ---- page-locked and mapped host memory ------------------------------------------------
// Ordinary memory: nothing to pin. A mapped range (DEVICEMAP) gets its
// device copy (host_ranges above).

namespace {

// The device copy of a mapped range of n bytes at host address h: at the
// same address for cuMemHostAlloc (`same`: the host side is mmapped there),
// elsewhere for a registered range, at the same offset in its page as the
// host address (so aligned host data is aligned on the device too; the bytes
// of that page before the range are not copied). 0 when the device memory
// is full.
uint64_t map_range(State& s, uintptr_t h, size_t n, bool same) {
  const uint64_t off = same ? 0 : h % kPage;
  uint64_t a = 0;
  try {
    a = s.session->alloc(off + n, kPage);  // exactly: accesses past the range are out of bounds
  } catch (const ptxcheck::LimitError&) {
    return 0;
  }
  if (!same) std::memcpy(s.session->host_bytes(a + off, n), reinterpret_cast<void*>(h), n);
  return a + off;
}

// Frees the device copy of a mapped range at host address h.
void unmap_range(State& s, uintptr_t h, const HostRange& r) { s.session->free(r.dev - h % kPage); }

}  // namespace

// PORTABLE, DEVICEMAP and WRITECOMBINED. A DEVICEMAP allocation is
// addressed by the device at its host address (the driver API gives that
// under unified addressing): the device memory is taken first and the host
// side mmapped at its address, as for managed memory. Without DEVICEMAP the
// memory is not reachable from kernels (cuMemHostGetDevicePointer refuses it).
// Where the host address is taken (under ASan: its shadow gap), the
// allocation gets a device copy at another address instead.
SHIM_API CUresult cuMemHostAlloc(void** pp, size_t bytesize, unsigned int flags) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!pp || bytesize == 0 || (flags & ~0x7u)) return CUDA_ERROR_INVALID_VALUE;
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  const uint64_t rounded = (bytesize + kPage - 1) / kPage * kPage;
  HostRange r;
  r.bytes = bytesize;
  r.flags = flags;
  r.alloc = true;
  r.ctx = c;
  void* p = nullptr;
  if (flags & CU_MEMHOSTALLOC_DEVICEMAP) {
    uint64_t a = map_range(s, 0, bytesize, true);
    if (!a) return CUDA_ERROR_OUT_OF_MEMORY;
    p = mmap(reinterpret_cast<void*>(a), rounded, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (p == reinterpret_cast<void*>(a)) {
      r.dev = a;
    } else {  // the address is taken on the host (e.g. by ASan's shadow)
      if (p != MAP_FAILED) munmap(p, rounded);
      s.session->free(a);
      p = nullptr;
    }
  }
  if (!p) {
    p = std::aligned_alloc(kPage, rounded);
    if (!p) return CUDA_ERROR_OUT_OF_MEMORY;
    // DEVICEMAP where the same address was not free: a device copy at
    // another address, as for a registered range (the driver API's
    // WRITECOMBINED case, where the pointers may differ, too).
    if (flags & CU_MEMHOSTALLOC_DEVICEMAP) {
      r.dev = map_range(s, reinterpret_cast<uintptr_t>(p), bytesize, false);
      if (!r.dev) {
        std::free(p);
        return CUDA_ERROR_OUT_OF_MEMORY;
      }
    }
  }
  host_ranges()[reinterpret_cast<uintptr_t>(p)] = r;
  *pp = p;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuMemAllocHost_v2(void** pp, size_t bytesize) { return cuMemHostAlloc(pp, bytesize, 0); }

SHIM_API CUresult cuMemFreeHost(void* p) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  auto it = host_ranges().find(reinterpret_cast<uintptr_t>(p));
  if (it == host_ranges().end() || !it->second.alloc) return CUDA_ERROR_INVALID_VALUE;
  if (it->second.dev) unmap_range(s, it->first, it->second);
  if (it->second.dev == it->first)  // mmapped at its device address
    munmap(p, (it->second.bytes + kPage - 1) / kPage * kPage);
  else
    std::free(p);
  host_ranges().erase(it);
  return CUDA_SUCCESS;
}

// PORTABLE and DEVICEMAP. IOMEMORY and READ_ONLY are not supported
// (CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED is 0).
// Overlapping an earlier range is CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED.
SHIM_API CUresult cuMemHostRegister_v2(void* p, size_t bytesize, unsigned int Flags) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!p || !bytesize || (Flags & ~0xfu)) return CUDA_ERROR_INVALID_VALUE;
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  if (Flags & (CU_MEMHOSTREGISTER_IOMEMORY | CU_MEMHOSTREGISTER_READ_ONLY)) return CUDA_ERROR_NOT_SUPPORTED;
  const auto h = reinterpret_cast<uintptr_t>(p);
  if (h + bytesize < h) return CUDA_ERROR_INVALID_VALUE;
  auto& m = host_ranges();
  auto next = m.lower_bound(h);
  if (host_range(h) != m.end() || (next != m.end() && next->first < h + bytesize))
    return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
  HostRange r;
  r.bytes = bytesize;
  r.flags = Flags;
  r.ctx = c;
  if (Flags & CU_MEMHOSTREGISTER_DEVICEMAP) {
    r.dev = map_range(s, h, bytesize, false);
    if (!r.dev) return CUDA_ERROR_OUT_OF_MEMORY;
  }
  m[h] = r;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuMemHostUnregister(void* p) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  auto it = host_ranges().find(reinterpret_cast<uintptr_t>(p));
  if (it == host_ranges().end() || it->second.alloc) return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
  if (it->second.dev) unmap_range(s, it->first, it->second);
  host_ranges().erase(it);
  return CUDA_SUCCESS;
}

// The device address of host address p inside a mapped range (any offset).
SHIM_API CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr* pdptr, void* p, unsigned int Flags) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!pdptr || !p || Flags) return CUDA_ERROR_INVALID_VALUE;
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  auto it = host_range(reinterpret_cast<uintptr_t>(p));
  if (it == host_ranges().end() || !it->second.dev) return CUDA_ERROR_INVALID_VALUE;
  *pdptr = it->second.dev + (reinterpret_cast<uintptr_t>(p) - it->first);
  return CUDA_SUCCESS;
}

// The flags a cuMemHostAlloc allocation was made with (p anywhere in it).
SHIM_API CUresult cuMemHostGetFlags(unsigned int* pFlags, void* p) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!pFlags || !p) return CUDA_ERROR_INVALID_VALUE;
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  auto it = host_range(reinterpret_cast<uintptr_t>(p));
  if (it == host_ranges().end() || !it->second.alloc) return CUDA_ERROR_INVALID_VALUE;
  *pFlags = it->second.flags;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuPointerGetAttribute(void* data, CUpointer_attribute attribute, CUdeviceptr ptr) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!data) return CUDA_ERROR_INVALID_VALUE;
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  // Page-locked host memory, by its host address or (mapped) its device
  // address: host memory whose device pointer is its device copy's.
  auto hr = host_range(ptr);
  if (hr == host_ranges().end())
    for (auto it = host_ranges().begin(); it != host_ranges().end(); ++it)
      if (it->second.dev && ptr - it->second.dev < it->second.bytes) {
        hr = it;
        ptr = it->first + (ptr - it->second.dev);
      }
  if (hr != host_ranges().end()) {
    const HostRange& r = hr->second;
    const uint64_t off = ptr - hr->first;
    switch (attribute) {
      case CU_POINTER_ATTRIBUTE_CONTEXT: *static_cast<CUcontext*>(data) = s.live.count(r.ctx) ? r.ctx : nullptr; break;
      case CU_POINTER_ATTRIBUTE_MEMORY_TYPE: *static_cast<unsigned*>(data) = CU_MEMORYTYPE_HOST; break;
      case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
        if (!r.dev) return CUDA_ERROR_INVALID_VALUE;
        *static_cast<CUdeviceptr*>(data) = r.dev + off;
        break;
      case CU_POINTER_ATTRIBUTE_HOST_POINTER: *static_cast<void**>(data) = reinterpret_cast<void*>(ptr); break;
      case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS: *static_cast<int*>(data) = 1; break;
      case CU_POINTER_ATTRIBUTE_BUFFER_ID: *static_cast<unsigned long long*>(data) = hr->first; break;
      case CU_POINTER_ATTRIBUTE_IS_MANAGED: *static_cast<int*>(data) = 0; break;
      case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *static_cast<int*>(data) = 0; break;
      case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: *static_cast<CUdeviceptr*>(data) = hr->first; break;
      case CU_POINTER_ATTRIBUTE_RANGE_SIZE: *static_cast<size_t*>(data) = r.bytes; break;
      case CU_POINTER_ATTRIBUTE_MAPPED: *static_cast<int*>(data) = r.dev != 0; break;
      default: return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
  }
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

SHIM_API CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n) { return cuMemcpyAsync(dst, src, n, nullptr); }

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
  if (n == 0) return CUDA_SUCCESS;
  if (!dst || !src) return CUDA_ERROR_INVALID_VALUE;
  bool dd = false, sd = false;
  uint8_t* d = unified(s, dst, n, dd);
  const uint8_t* p = unified(s, src, n, sd);
  if (!d || !p) return CUDA_ERROR_INVALID_VALUE;  // device range overrunning its allocation
  std::memmove(d, p, n);
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D* p) {
  return p ? copy3d(from2d(*p), nullptr) : CUDA_ERROR_INVALID_VALUE;
}
SHIM_API CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D* p) { return cuMemcpy2D_v2(p); }
SHIM_API CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D* p, CUstream st) {
  return p ? copy3d(from2d(*p), st) : CUDA_ERROR_INVALID_VALUE;
}
SHIM_API CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D* p) { return p ? copy3d(*p, nullptr) : CUDA_ERROR_INVALID_VALUE; }
SHIM_API CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D* p, CUstream st) {
  return p ? copy3d(*p, st) : CUDA_ERROR_INVALID_VALUE;
}

SHIM_API CUresult cuMemsetD2D8_v2(CUdeviceptr d, size_t pitch, unsigned char v, size_t w, size_t h) {
  return fill2d<uint8_t>(d, pitch, v, w, h, nullptr);
}
SHIM_API CUresult cuMemsetD2D16_v2(CUdeviceptr d, size_t pitch, unsigned short v, size_t w, size_t h) {
  return fill2d<uint16_t>(d, pitch, v, w, h, nullptr);
}
SHIM_API CUresult cuMemsetD2D32_v2(CUdeviceptr d, size_t pitch, unsigned int v, size_t w, size_t h) {
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
SHIM_API CUresult cuMemPrefetchAsync_v2(CUdeviceptr p, size_t n, CUmemLocation, unsigned int flags, CUstream st) {
  if (flags) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = check_stream(st)) return r;
  State& s = state();
  std::lock_guard lk(s.mu);
  return is_managed(s, p, n) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
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

// ---- occupancy (one SM with sm_90's per-SM limits) ------------------------------------------------

namespace {
CUresult occupancy(int* numBlocks, CUfunction f, int blockSize, size_t dyn) {
  if (!numBlocks || blockSize <= 0) return CUDA_ERROR_INVALID_VALUE;
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (CUresult r = resolve_function(s, f)) return r;
  *numBlocks = max_active_blocks(f, blockSize, dyn);
  return CUDA_SUCCESS;
}
}  // namespace

SHIM_API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, CUfunction f, int blockSize,
                                                              size_t dynamicSMemSize) {
  return occupancy(numBlocks, f, blockSize, dynamicSMemSize);
}

SHIM_API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, CUfunction f, int blockSize,
                                                                       size_t dynamicSMemSize, unsigned int flags) {
  if (flags & ~1u) return CUDA_ERROR_INVALID_VALUE;
  return occupancy(numBlocks, f, blockSize, dynamicSMemSize);
}

SHIM_API CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t* size, CUfunction f, int numBlocks, int blockSize) {
  if (!size || numBlocks <= 0 || blockSize <= 0) return CUDA_ERROR_INVALID_VALUE;
  int stat = 0;
  if (CUresult r = cuFuncGetAttribute(&stat, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f)) return r;
  size_t per_block = kSharedPerSm / static_cast<size_t>(numBlocks);
  per_block = per_block > kReservedPerBlock ? per_block - kReservedPerBlock : 0;
  per_block = std::min(per_block, size_t{kOptinSharedLimit});
  *size = per_block > static_cast<size_t>(stat) ? per_block - stat : 0;
  return CUDA_SUCCESS;
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
  release_pools(s);
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuCtxResetPersistingL2Cache(void) { return CUDA_SUCCESS; }

SHIM_API CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
  if (flags & ~static_cast<unsigned>(CU_CTX_FLAGS_MASK)) return CUDA_ERROR_INVALID_VALUE;
  primary_ctx(s)->flags = flags;
  return CUDA_SUCCESS;
}

// A fixed UUID: "ptxcheck" + the emulated architecture.
SHIM_API CUresult cuDeviceGetUuid_v2(CUuuid* uuid, CUdevice dev) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!uuid) return CUDA_ERROR_INVALID_VALUE;
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
  std::memset(uuid->bytes, 0, 16);
  std::memcpy(uuid->bytes, "ptxcheck", 8);
  uuid->bytes[8] = static_cast<char>(device_arch(s));
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
