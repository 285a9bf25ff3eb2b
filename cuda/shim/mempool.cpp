// Stream-ordered allocation and memory pools (CUDA Driver API reference,
// "Stream Ordered Memory Allocator"; CUDA C++ Programming Guide,
// "Stream-Ordered Memory Allocator").
//
// The shim runs every stream operation when it is issued, so an allocation
// operation has completed when cuMemAllocAsync returns and a free when
// cuMemFreeAsync returns: the allocation is usable by every later operation,
// in its stream or another (the stream order that a GPU needs an event for
// holds trivially), and a use after the free is an out-of-bounds diagnostic,
// since each allocation takes a fresh address (Session: addresses are never
// reused). Pools account for their backing memory as the driver documents it:
// an allocation reuses freed bytes still reserved by its pool before reserving
// more; a synchronisation (stream, event, context) releases the reserved
// bytes above the pool's release threshold, and cuMemPoolTrimTo down to a
// given size; outstanding allocations are never released. Our accounting is
// byte exact (a driver reserves in larger chunks), and the reuse policies are
// kept and read back, but every free has completed before any later
// allocation, so reuse never waits for a dependency. IPC (export handles) and
// host-memory pools are not provided: CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES
// is 0, and pools for them are refused as the driver refuses them on a device
// without the feature.
#include <algorithm>
#include <cstring>

#include "cuda/shim/state.hpp"

using namespace shim;

namespace {

CUmemoryPool new_pool(State& s, const CUmemPoolProps& props, bool is_default) {
  auto* p = make_handle<CUmemPoolHandle_st>(s, Kind::MemPool);
  p->props = props;
  p->is_default = is_default;
  return p;
}

bool live_pool(const State& s, CUmemoryPool p) { return is_live(s, p, Kind::MemPool); }

// The checks of an entry point that names a pool, under the lock: `r` is
// NOT_INITIALIZED before cuInit, INVALID_VALUE for a pool handle that is not
// live, else CUDA_SUCCESS.
struct PoolEntry : Locked {
  CUresult r;
  explicit PoolEntry(CUmemoryPool pool)
      : r(!s.initialized        ? CUDA_ERROR_NOT_INITIALIZED
          : !live_pool(s, pool) ? CUDA_ERROR_INVALID_VALUE
                                : CUDA_SUCCESS) {}
};

void note_used(CUmemoryPool p, uint64_t bytes) {
  const uint64_t idle = p->reserved - p->used;
  if (idle < bytes) p->reserved += bytes - idle;
  p->used += bytes;
  p->reserved_high = std::max(p->reserved_high, p->reserved);
  p->used_high = std::max(p->used_high, p->used);
}

// Releases reserved, unused bytes down to `keep` (never below what is used).
void trim(CUmemoryPool p, uint64_t keep) {
  if (p->reserved > keep) p->reserved = std::max(p->used, keep);
}

CUresult pool_alloc(State& s, CUmemoryPool p, size_t bytes, CUdeviceptr* dptr) {
  if (p->props.maxSize && (bytes > p->props.maxSize || p->used > p->props.maxSize - bytes))
    return CUDA_ERROR_OUT_OF_MEMORY;
  try {
    const uint64_t a = s.session->alloc(bytes);
    s.pool_allocs[a] = {p, bytes};
    note_used(p, bytes);
    *dptr = a;
    return CUDA_SUCCESS;
  } catch (const ptxcheck::LimitError&) {
    return CUDA_ERROR_OUT_OF_MEMORY;
  } catch (const std::bad_alloc&) {
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
}

CUresult alloc_async(CUdeviceptr* dptr, size_t bytes, CUmemoryPool pool, CUstream st) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!dptr) return CUDA_ERROR_INVALID_VALUE;
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  if (!valid_stream(s, st, c)) return CUDA_ERROR_INVALID_HANDLE;
  if (pool && !live_pool(s, pool)) return CUDA_ERROR_INVALID_VALUE;
  if (bytes == 0) return CUDA_ERROR_INVALID_VALUE;
  if (!pool) pool = s.current_pool ? s.current_pool : default_pool(s);
  if (capturing(st)) return capture_alloc(s, st, pool, bytes, dptr);
  return pool_alloc(s, pool, bytes, dptr);
}

CUresult free_async(CUdeviceptr dptr, CUstream st) {
  State& s = state();
  std::lock_guard lk(s.mu);
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  if (!valid_stream(s, st, c)) return CUDA_ERROR_INVALID_HANDLE;
  if (capturing(st)) return capture_free(s, st, dptr);
  if (defer(s, c, st, "cuMemFreeAsync", [dptr, st] { return free_async(dptr, st); }))
    return CUDA_SUCCESS;               // after deferred work that may use it (streams.cpp)
  if (dptr == 0) return CUDA_SUCCESS;  // as cuMemFree (our choice: the reference does not say)
  if (free_async_alloc(s, dptr)) return CUDA_SUCCESS;
  // cuMemAlloc memory may be freed in stream order too; it has no pool.
  if (!c->allocs.erase(dptr)) return CUDA_ERROR_INVALID_VALUE;  // never allocated, or freed already
  s.session->free(dptr);
  release_managed(dptr);
  return CUDA_SUCCESS;
}

// A device location: device 0, the only one.
CUresult device_location(const CUmemLocation& l) {
  if (l.type != CU_MEM_LOCATION_TYPE_DEVICE) return CUDA_ERROR_INVALID_VALUE;
  return l.id == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

}  // namespace

CUmemoryPool shim::default_pool(State& s) {
  if (!s.default_pool) {
    CUmemPoolProps props{};
    props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    props.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
    props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    props.location.id = 0;
    s.default_pool = new_pool(s, props, true);
  }
  return s.default_pool;
}

bool shim::free_async_alloc(State& s, uint64_t addr) {
  auto it = s.pool_allocs.find(addr);
  if (it == s.pool_allocs.end()) return graph_free_now(s, addr);
  auto [pool, bytes] = it->second;
  pool->used -= bytes;  // the bytes stay reserved for reuse
  s.pool_allocs.erase(it);
  s.session->free(addr);
  return true;
}

void shim::release_pools(State& s) {
  for (const auto& [h, k] : s.live)
    if (k == Kind::MemPool) {
      auto* p = static_cast<CUmemPoolHandle_st*>(const_cast<void*>(h));
      trim(p, p->threshold);
    }
}

void shim::reset_async_allocs(State& s) {
  for (const auto& [a, pb] : s.pool_allocs) {
    s.session->free(a);
    pb.first->used -= pb.second;
  }
  s.pool_allocs.clear();
  for (auto& [a, g] : s.graph_allocs)
    if (g.live) {
      s.session->free(a);
      g.live = false;
    }
  for (const auto& [h, k] : s.live)
    if (k == Kind::MemPool) {
      auto* p = static_cast<CUmemPoolHandle_st*>(const_cast<void*>(h));
      p->reserved = p->reserved_high = p->used = p->used_high = 0;
    }
  s.graph_live = s.graph_used_high = s.graph_reserved = s.graph_reserved_high = 0;
  s.current_pool = nullptr;
}

uint64_t shim::pools_idle(const State& s) {
  uint64_t idle = s.graph_reserved - s.graph_live;
  for (const auto& [h, k] : s.live)
    if (k == Kind::MemPool) {
      auto* p = static_cast<const CUmemPoolHandle_st*>(h);
      idle += p->reserved - p->used;
    }
  return idle;
}

// ---- allocation -------------------------------------------------------------------------

#undef cuMemAllocAsync
#undef cuMemAllocFromPoolAsync
#undef cuMemFreeAsync
SHIM_API CUresult cuMemAllocAsync(CUdeviceptr* dptr, size_t bytes, CUstream st) {
  return alloc_async(dptr, bytes, nullptr, st);
}
SHIM_API CUresult cuMemAllocAsync_ptsz(CUdeviceptr* dptr, size_t bytes, CUstream st) {
  return alloc_async(dptr, bytes, nullptr, st);
}
SHIM_API CUresult cuMemAllocFromPoolAsync(CUdeviceptr* dptr, size_t bytes, CUmemoryPool pool, CUstream st) {
  if (!pool) return CUDA_ERROR_INVALID_VALUE;
  return alloc_async(dptr, bytes, pool, st);
}
SHIM_API CUresult cuMemAllocFromPoolAsync_ptsz(CUdeviceptr* dptr, size_t bytes, CUmemoryPool pool, CUstream st) {
  return cuMemAllocFromPoolAsync(dptr, bytes, pool, st);
}
SHIM_API CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream st) { return free_async(dptr, st); }
SHIM_API CUresult cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream st) { return free_async(dptr, st); }

// ---- pools ------------------------------------------------------------------------------

SHIM_API CUresult cuMemPoolCreate(CUmemoryPool* pool, const CUmemPoolProps* props) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!pool || !props) return CUDA_ERROR_INVALID_VALUE;
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (props->allocType != CU_MEM_ALLOCATION_TYPE_PINNED || props->win32SecurityAttributes)
    return CUDA_ERROR_INVALID_VALUE;
  for (unsigned char b : props->reserved)
    if (b) return CUDA_ERROR_INVALID_VALUE;
  const CUmemLocationType lt = props->location.type;
  if (lt == CU_MEM_LOCATION_TYPE_HOST || lt == CU_MEM_LOCATION_TYPE_HOST_NUMA ||
      lt == CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT)
    return CUDA_ERROR_NOT_SUPPORTED;  // CU_DEVICE_ATTRIBUTE_HOST_(NUMA_)MEMORY_POOLS_SUPPORTED is 0
  if (CUresult r = device_location(props->location)) return r;
  if (props->handleTypes != CU_MEM_HANDLE_TYPE_NONE)
    return CUDA_ERROR_NOT_SUPPORTED;                  // CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES is 0
  if (props->usage) return CUDA_ERROR_NOT_SUPPORTED;  // hardware decompression
  *pool = new_pool(s, *props, false);
  return CUDA_SUCCESS;
}

// A pool with outstanding allocations goes once they are freed: its handle
// is invalid at once, its allocations stay valid until freed.
SHIM_API CUresult cuMemPoolDestroy(CUmemoryPool pool) {
  PoolEntry e(pool);
  if (e.r) return e.r;
  if (pool->is_default) return CUDA_ERROR_INVALID_VALUE;
  if (e.s.current_pool == pool) e.s.current_pool = nullptr;  // the default pool is current again
  e.s.live.erase(pool);
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuDeviceGetDefaultMemPool(CUmemoryPool* pool, CUdevice dev) {
  if (!pool) return CUDA_ERROR_INVALID_VALUE;
  DeviceEntry e(dev);
  if (e.r) return e.r;
  *pool = default_pool(e.s);
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuDeviceGetMemPool(CUmemoryPool* pool, CUdevice dev) {
  if (!pool) return CUDA_ERROR_INVALID_VALUE;
  DeviceEntry e(dev);
  if (e.r) return e.r;
  *pool = e.s.current_pool ? e.s.current_pool : default_pool(e.s);
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool) {
  DeviceEntry e(dev);
  if (e.r) return e.r;
  if (!live_pool(e.s, pool)) return CUDA_ERROR_INVALID_VALUE;
  e.s.current_pool = pool->is_default ? nullptr : pool;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void* value) {
  PoolEntry e(pool);
  if (e.r) return e.r;
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  int i = 0;
  cuuint64_t u = 0;
  std::memcpy(&i, value, sizeof i);
  switch (attr) {
    case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES: pool->reuse_follow = i != 0; return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC: pool->reuse_opportunistic = i != 0; return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES: pool->reuse_internal = i != 0; return CUDA_SUCCESS;
    default: break;
  }
  std::memcpy(&u, value, sizeof u);
  switch (attr) {
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD: pool->threshold = u; return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:  // only a reset (to the current value) is allowed
      if (u) return CUDA_ERROR_INVALID_VALUE;
      pool->reserved_high = pool->reserved;
      return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
      if (u) return CUDA_ERROR_INVALID_VALUE;
      pool->used_high = pool->used;
      return CUDA_SUCCESS;
    default: return CUDA_ERROR_INVALID_VALUE;  // the current amounts are read-only
  }
}

SHIM_API CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void* value) {
  PoolEntry e(pool);
  if (e.r) return e.r;
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  int i = 0;
  cuuint64_t u = 0;
  switch (attr) {
    case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES: i = pool->reuse_follow; break;
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC: i = pool->reuse_opportunistic; break;
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES: i = pool->reuse_internal; break;
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD: u = pool->threshold; break;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT: u = pool->reserved; break;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH: u = pool->reserved_high; break;
    case CU_MEMPOOL_ATTR_USED_MEM_CURRENT: u = pool->used; break;
    case CU_MEMPOOL_ATTR_USED_MEM_HIGH: u = pool->used_high; break;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
  if (attr <= CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES)
    std::memcpy(value, &i, sizeof i);
  else
    std::memcpy(value, &u, sizeof u);
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t keep) {
  PoolEntry e(pool);
  if (e.r) return e.r;
  trim(pool, keep);
  return CUDA_SUCCESS;
}

// The pool's own device always has read-write access; there is no other
// device to grant access to.
SHIM_API CUresult cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc* map, size_t count) {
  PoolEntry e(pool);
  if (e.r) return e.r;
  if (count && !map) return CUDA_ERROR_INVALID_VALUE;
  for (size_t k = 0; k < count; ++k) {
    if (CUresult r = device_location(map[k].location)) return r;
    if (map[k].flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE) return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuMemPoolGetAccess(CUmemAccess_flags* flags, CUmemoryPool pool, CUmemLocation* location) {
  PoolEntry e(pool);
  if (e.r) return e.r;
  if (!flags || !location) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = device_location(*location)) return r;
  *flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  return CUDA_SUCCESS;
}
