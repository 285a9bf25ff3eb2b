// Host memory that kernels reach (cuda/README.md "Host memory"): managed
// memory (cuMemAllocManaged), page-locked memory (cuMemAllocHost,
// cuMemHostAlloc) and registered host ranges (cuMemHostRegister).
//
// The emulated device has unified addressing, so kernels reach all three at
// their host addresses: the CUDA driver API documents that all
// cuMemAllocHost and cuMemHostAlloc memory is accessible from every device
// with unified addressing "regardless of whether or not the flags
// CU_MEMHOSTALLOC_PORTABLE and CU_MEMHOSTALLOC_DEVICEMAP are specified", at
// the same pointer value as on the host (cuda.h, "Automatic Mapping of Host
// Allocated Host Memory"; the runtime's cudaMallocHost/cudaHostAlloc the
// same, https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__UNIFIED.html),
// and a registered range can be accessed from the device at its host
// pointer when CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM
// is 1 (cuMemHostRegister, cuMemHostGetDevicePointer), as it is here.
//
// One table holds them all ("host-visible ranges"). Each range has an
// interpreter allocation at its own host address and of its exact size
// (Session::alloc_fixed), so a kernel access past the range is out of
// bounds. The host bytes are the memory between launches: they are copied
// into the allocation before each launch, and host copies and memsets
// through the address use the host bytes. After the launch only the
// 256-byte blocks the launch changed are copied back: a registered range
// keeps the bytes it was given and is compared with them, so its host bytes
// that no kernel wrote are never overwritten, even when another host thread
// changed them meanwhile; managed and page-locked pages (the shim's own) are
// compared with the host bytes in place, which costs no second copy.
//
// Registered memory stays the program's: the Driver API says it "must be
// unregistered with cuMemHostUnregister()" (cuda.h, cuMemHostRegister), and
// freeing it before is undefined. The shim copies it with process_vm_readv
// and process_vm_writev on its own process, which fail (EFAULT) where a page
// is not mapped instead of faulting, so a buffer freed and unmapped without
// unregistering never crashes the shim: the range is reported and dropped.
// A freed buffer whose pages stay mapped (a small malloc block) cannot be
// told apart; it is copied in, and only bytes a kernel wrote are written back.
//
// cuCtxDestroy "destroys and cleans up all resources associated with the
// context", among them "memory allocations by cuMemAllocHost() [and]
// cuMemAllocManaged()" (cuda.h, cuCtxDestroy): a context's page-locked
// memory is freed with it and its registered ranges are unregistered
// (release_host_ranges), as its managed memory already was. Managed and
// page-locked memory get their host pages here with mmap at an address the
// kernel chooses (never inside ASan's shadow gap, which holds the session's
// own heap addresses); a registered range is the caller's memory. Managed
// memory counts against the device's memory, page-locked and registered
// memory do not.
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <sstream>

#include "cuda/shim/state.hpp"

using namespace shim;

namespace {

constexpr uint64_t kPage = 4096;

enum class HostKind : uint8_t { Managed, Pinned, Registered };

struct HostVisible {
  size_t bytes = 0;   // the range, also its device allocation's size
  size_t mapped = 0;  // the host pages mmapped here (managed and pinned memory), 0 for a registered range
  HostKind kind = HostKind::Managed;
  unsigned flags = 0;          // cuMemHostAlloc's or cuMemHostRegister's flags
  CUcontext ctx = nullptr;     // current when it was made
  std::vector<uint8_t> given;  // registered: the bytes copied in before the last launch (kept for the next)
  // Managed: per aligned 8-byte word, 1 while its contents are undefined (a
  // discard not followed by a write or prefetch; empty: none is).
  std::vector<uint8_t> undefined;
  const ptxcheck::interp::SessionModule* module = nullptr;  // managed: the module of a managed variable
};

// Host (= device) address -> range; ranges never overlap.
std::map<uint64_t, HostVisible>& visible() {
  static auto* m = new std::map<uint64_t, HostVisible>;
  return *m;
}

// The range holding all n bytes at `a`, or end().
std::map<uint64_t, HostVisible>::iterator range_of(uint64_t a, uint64_t n) {
  auto& m = visible();
  auto it = m.upper_bound(a);
  if (it == m.begin()) return m.end();
  --it;
  return a - it->first < it->second.bytes && n <= it->second.bytes - (a - it->first) ? it : m.end();
}

// True when [a, a + n) overlaps a range.
bool overlaps(uint64_t a, uint64_t n) {
  auto& m = visible();
  auto it = m.lower_bound(a);
  if (it != m.end() && it->first < a + n) return true;
  return it != m.begin() && std::prev(it)->first + std::prev(it)->second.bytes > a;
}

std::string hex(uint64_t a) {
  std::ostringstream o;
  o << "0x" << std::hex << a;
  return o.str();
}

// Host pages of `bytes` (rounded up to whole pages) with a device
// allocation at their address; 0 with `err` set when either fails.
uint64_t map_new(State& s, const char* api, size_t bytes, bool counted, size_t& mapped, CUresult& err) {
  mapped = (bytes + kPage - 1) / kPage * kPage;
  void* p = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  err = CUDA_ERROR_OUT_OF_MEMORY;
  if (p == MAP_FAILED) return 0;
  const auto a = reinterpret_cast<uint64_t>(p);
  try {
    if (s.session->alloc_fixed(a, bytes, counted)) return a;
    report(std::string(api) + ": host address " + hex(a) +
           " lies among the emulated device's own addresses; cannot map it for kernels");
  } catch (const ptxcheck::LimitError&) {}
  munmap(p, mapped);
  return 0;
}

}  // namespace

// ---- the table, for copies and launches (state.hpp) ------------------------------------------

bool shim::is_managed(const State&, uint64_t addr, uint64_t n) {
  auto it = range_of(addr, n);
  return it != visible().end() && it->second.kind == HostKind::Managed;
}

uint8_t* shim::host_side(const State&, uint64_t addr, uint64_t n) {
  return range_of(addr, n) != visible().end() ? reinterpret_cast<uint8_t*>(addr) : nullptr;
}

namespace {

// Copies n bytes between this process's memory at `local` and at host
// address `remote` (read: remote -> local) without faulting: false when a
// page of `remote` is not mapped with the access needed. Where the kernel
// does not allow process_vm_readv/writev on this process, mincore checks
// that the pages are mapped and memcpy copies.
bool copy_host(void* local, uint64_t remote, size_t n, bool read) {
  iovec l{local, n}, r{reinterpret_cast<void*>(remote), n};
  const ssize_t got = read ? process_vm_readv(getpid(), &l, 1, &r, 1, 0) : process_vm_writev(getpid(), &l, 1, &r, 1, 0);
  if (got == static_cast<ssize_t>(n)) return true;
  if (got >= 0 || (errno != ENOSYS && errno != EPERM)) return false;
  const uint64_t first = remote / kPage * kPage;
  std::vector<unsigned char> vec((remote + n - first + kPage - 1) / kPage);
  if (mincore(reinterpret_cast<void*>(first), remote + n - first, vec.data()) != 0) return false;
  if (read)
    std::memcpy(local, reinterpret_cast<const void*>(remote), n);
  else
    std::memcpy(reinterpret_cast<void*>(remote), local, n);
  return true;
}

// Discarded words (discard_managed). A discard gives each aligned 8-byte
// word of the range fresh contents, a pattern of its address; a word that
// holds anything else at the next launch was written since (by the host, a
// copy or a memset; all write the host bytes). A write of exactly the
// pattern's 8 bytes cannot be told apart (the pattern is a 64-bit hash of
// the address, which no program computes). The words still undefined then
// are marked unwritten in the allocation's "written" map for the launch, so
// a load of them is the interpreter's uninitialised read; a word a kernel
// stores to (even a byte of it) is defined afterwards.
uint64_t pattern(uint64_t a) {
  uint64_t z = a + 0x9e3779b97f4a7c15ull;  // splitmix64
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void undefined_to_device(State& s, uint64_t base, HostVisible& r) {
  std::vector<uint8_t>* init = s.session->init_map(base, r.bytes);
  bool any = false;
  for (size_t w = 0; w < r.undefined.size(); ++w) {
    if (!r.undefined[w]) continue;
    uint64_t v = 0;
    std::memcpy(&v, reinterpret_cast<const void*>(base + 8 * w), 8);
    if (v != pattern(base + 8 * w))
      r.undefined[w] = 0;
    else
      any = true;
  }
  if (!any) r.undefined.clear();
  if (!init) return;
  init->clear();
  if (!any) return;
  init->assign(r.bytes, 1);
  for (size_t w = 0; w < r.undefined.size(); ++w)
    if (r.undefined[w]) std::memset(init->data() + 8 * w, 0, 8);
}

void undefined_from_device(State& s, uint64_t base, HostVisible& r) {
  std::vector<uint8_t>* init = s.session->init_map(base, r.bytes);
  if (!init || init->size() != r.bytes) return;
  for (size_t w = 0; w < r.undefined.size(); ++w) {
    if (!r.undefined[w]) continue;
    for (size_t b = 0; b < 8; ++b) r.undefined[w] &= ~(*init)[8 * w + b] & 1;
  }
  init->clear();
}

// Drops a range whose host pages are gone (lock held).
void drop_unmapped(State& s, std::map<uint64_t, HostVisible>::iterator it) {
  report("host memory at " + hex(it->first) + " + " + std::to_string(it->second.bytes) +
         " (registered with cuMemHostRegister) is no longer mapped: freed without cuMemHostUnregister? "
         "Kernels no longer reach it");
  s.session->free(it->first);
  visible().erase(it);
}

}  // namespace

void shim::host_ranges_to_device(State& s) {
  auto& m = visible();
  for (auto it = m.begin(); it != m.end();) {
    HostVisible& r = it->second;
    uint8_t* d = s.session->host_bytes(it->first, r.bytes);
    if (!d) {
      ++it;
      continue;
    }
    if (r.kind != HostKind::Registered) {  // the shim's own pages, compared in place after the launch
      std::memcpy(d, reinterpret_cast<const void*>(it->first), r.bytes);
      if (!r.undefined.empty()) undefined_to_device(s, it->first, r);
      ++it;
      continue;
    }
    r.given.resize(r.bytes);
    if (!copy_host(r.given.data(), it->first, r.bytes, true)) {
      drop_unmapped(s, it++);
      continue;
    }
    std::memcpy(d, r.given.data(), r.bytes);
    ++it;
  }
}

// Writes back the 256-byte blocks in which the device bytes differ from
// those given to the launch (registered ranges: the bytes read before it;
// the shim's own pages: the host bytes themselves).
void shim::host_ranges_from_device(State& s) {
  constexpr size_t kBlock = 256;
  auto& m = visible();
  for (auto it = m.begin(); it != m.end();) {
    HostVisible& r = it->second;
    const uint8_t* d = s.session->host_bytes(it->first, r.bytes);
    const bool own = r.kind != HostKind::Registered;
    const uint8_t* given = own ? reinterpret_cast<const uint8_t*>(it->first) : r.given.data();
    bool mapped = true;
    if (d && (own || r.given.size() == r.bytes))
      for (size_t off = 0; off < r.bytes && mapped;) {
        const size_t n = std::min(kBlock, r.bytes - off);
        if (std::memcmp(d + off, given + off, n) == 0) {
          off += n;
          continue;
        }
        size_t end = off + n;  // a run of changed blocks: one copy
        while (end < r.bytes) {
          const size_t k = std::min(kBlock, r.bytes - end);
          if (std::memcmp(d + end, given + end, k) == 0) break;
          end += k;
        }
        if (own)
          std::memcpy(reinterpret_cast<void*>(it->first + off), d + off, end - off);
        else
          mapped = copy_host(const_cast<uint8_t*>(d + off), it->first + off, end - off, false);
        off = end;
      }
    if (!mapped) {
      drop_unmapped(s, it++);
      continue;
    }
    if (!r.undefined.empty()) undefined_from_device(s, it->first, r);
    ++it;
  }
}

void shim::discard_managed(State&, uint64_t addr, uint64_t n) {
  auto it = range_of(addr, n);
  if (it == visible().end() || it->second.kind != HostKind::Managed) return;
  HostVisible& r = it->second;
  const uint64_t base = it->first, off = addr - base;
  if (r.undefined.empty()) r.undefined.assign((r.bytes + 7) / 8, 0);
  for (uint64_t w = (off + 7) / 8; 8 * w + 8 <= off + n; ++w) {
    const uint64_t v = pattern(base + 8 * w);
    std::memcpy(reinterpret_cast<void*>(base + 8 * w), &v, 8);
    r.undefined[w] = 1;
  }
}

void shim::prefetch_managed(State&, uint64_t addr, uint64_t n) {
  auto it = range_of(addr, n);
  if (it == visible().end() || it->second.undefined.empty()) return;
  HostVisible& r = it->second;
  const uint64_t off = addr - it->first;
  for (uint64_t w = off / 8; w < r.undefined.size() && 8 * w < off + n; ++w) r.undefined[w] = 0;
}

void shim::release_host_ranges(State& s, CUcontext c) {
  auto& m = visible();
  for (auto it = m.begin(); it != m.end();) {
    if (it->second.ctx != c || it->second.kind == HostKind::Managed) {  // managed: with c->allocs
      ++it;
      continue;
    }
    s.session->free(it->first);
    if (it->second.kind == HostKind::Pinned) munmap(reinterpret_cast<void*>(it->first), it->second.mapped);
    it = m.erase(it);
  }
}

// ---- managed memory ------------------------------------------------------------------------------

SHIM_API CUresult cuMemAllocManaged(CUdeviceptr* dptr, size_t bytesize, unsigned int flags) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!dptr || bytesize == 0 || (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST))
    return CUDA_ERROR_INVALID_VALUE;
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  HostVisible r;
  CUresult err = CUDA_SUCCESS;
  const uint64_t a = map_new(s, "cuMemAllocManaged", bytesize, true, r.mapped, err);
  if (!a) return err;
  r.bytes = bytesize;
  r.kind = HostKind::Managed;
  r.flags = flags;
  r.ctx = c;
  visible()[a] = r;
  c->allocs.insert(a);  // freed by cuMemFree, or with its context
  *dptr = a;
  return CUDA_SUCCESS;
}

void shim::release_managed(uint64_t a) {
  auto it = visible().find(a);
  if (it == visible().end() || it->second.kind != HostKind::Managed) return;
  munmap(reinterpret_cast<void*>(a), it->second.mapped);
  visible().erase(it);
}

// ---- managed module variables ----------------------------------------------------------------------

// A .global variable with .attribute(.managed) (PTX ISA 5.4.8, "the
// variable will be allocated at a location in the unified virtual memory
// environment where host and other devices in the system can reference the
// variable directly"; CUDA's __managed__) keeps the address the module's
// layout gave it: host pages are mapped at that address (the module slots,
// session.hpp, lie in the user half of the address space that Linux and ASan
// leave free), they hold the variable's initial value, and the variable is a
// managed host-visible range whose device side is the module's own memory.
// The runtime reads its address with cuLibraryGetManaged and the program
// dereferences it on the host. One copy per module: a library used in two
// contexts has a variable in each.
namespace {

std::map<const ptxcheck::interp::SessionModule*, std::vector<std::pair<uint64_t, size_t>>>& module_pages() {
  static auto* m = new std::map<const ptxcheck::interp::SessionModule*, std::vector<std::pair<uint64_t, size_t>>>;
  return *m;
}

// Pages of modules unloaded with their context (retire), kept mapped: the
// runtime keeps the address of a __managed__ variable it got at its first
// use, also across cudaDeviceReset, so a host access after the reset reads
// the old bytes instead of faulting. A module mapped later over them
// replaces them (map_module_managed).
std::map<uint64_t, size_t>& retired() {
  static auto* m = new std::map<uint64_t, size_t>;
  return *m;
}

void unmap_module_managed(const ptxcheck::interp::SessionModule* m, bool retire = false) {
  auto it = module_pages().find(m);
  if (it == module_pages().end()) return;
  for (const auto& [a, n] : it->second)
    if (retire)
      retired()[a] = n;
    else
      munmap(reinterpret_cast<void*>(a), n);
  module_pages().erase(it);
  std::erase_if(visible(), [m](const auto& kv) { return kv.second.module == m; });
}

}  // namespace

CUresult shim::map_module_managed(State& s, const ptxcheck::interp::SessionModule& m) {
  std::vector<std::pair<uint64_t, uint64_t>> runs;  // page-aligned [lo, hi) of each managed variable
  for (const auto& v : m.vars)
    if (v.managed && v.size) runs.emplace_back(v.addr / kPage * kPage, (v.addr + v.size + kPage - 1) / kPage * kPage);
  if (runs.empty()) return CUDA_SUCCESS;
  std::sort(runs.begin(), runs.end());
  auto& pages = module_pages()[&m];
  for (size_t i = 0; i < runs.size();) {
    uint64_t lo = runs[i].first, hi = runs[i].second;
    for (++i; i < runs.size() && runs[i].first <= hi; ++i) hi = std::max(hi, runs[i].second);
    for (auto r = retired().begin(); r != retired().end();)
      if (r->first < hi && r->first + r->second > lo) {
        munmap(reinterpret_cast<void*>(r->first), r->second);
        r = retired().erase(r);
      } else {
        ++r;
      }
    void* want = reinterpret_cast<void*>(lo);
    void* p = mmap(want, hi - lo, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (p != want) {
      const int err = errno;
      if (p != MAP_FAILED) munmap(p, hi - lo);
      report(m.file + ": cannot map host pages for its managed variables at " + hex(lo) + " + " +
             std::to_string(hi - lo) + " (" +
             (p == MAP_FAILED ? std::strerror(err) : "the kernel chose another address") +
             "); the module is not loaded");
      unmap_module_managed(&m);
      return CUDA_ERROR_OUT_OF_MEMORY;
    }
    pages.emplace_back(lo, hi - lo);
  }
  for (const auto& v : m.vars) {
    if (!v.managed || !v.size) continue;
    if (const uint8_t* init = s.session->host_bytes(v.addr, v.size))
      std::memcpy(reinterpret_cast<void*>(v.addr), init, v.size);
    HostVisible r;
    r.bytes = v.size;
    r.kind = HostKind::Managed;
    r.flags = CU_MEM_ATTACH_GLOBAL;
    r.module = &m;
    visible()[v.addr] = r;
  }
  return CUDA_SUCCESS;
}

void shim::unload_session_module(State& s, ptxcheck::interp::SessionModule* m, bool retire) {
  unmap_module_managed(m, retire);
  s.session->unload_module(m);
}

// ---- page-locked and registered host memory ------------------------------------------------------

// PORTABLE, DEVICEMAP and WRITECOMBINED; kernels reach the memory at its
// host address whatever the flags (cuMemHostGetDevicePointer gives that
// address when DEVICEMAP was given).
SHIM_API CUresult cuMemHostAlloc(void** pp, size_t bytesize, unsigned int flags) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!pp || bytesize == 0 || (flags & ~0x7u)) return CUDA_ERROR_INVALID_VALUE;
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  HostVisible r;
  CUresult err = CUDA_SUCCESS;
  const uint64_t a = map_new(s, "cuMemHostAlloc", bytesize, false, r.mapped, err);
  if (!a) return err;
  r.bytes = bytesize;
  r.kind = HostKind::Pinned;
  r.flags = flags;
  r.ctx = c;
  visible()[a] = r;
  *pp = reinterpret_cast<void*>(a);
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuMemAllocHost_v2(void** pp, size_t bytesize) { return cuMemHostAlloc(pp, bytesize, 0); }

SHIM_API CUresult cuMemFreeHost(void* p) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  drain_all(s);  // deferred work that may use it runs first (streams.cpp)
  auto it = visible().find(reinterpret_cast<uint64_t>(p));
  if (it == visible().end() || it->second.kind != HostKind::Pinned) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = current_sticky(s)) return r;  // after a fault, as every call doing work (cuda/README.md)
  s.session->free(it->first);
  munmap(p, it->second.mapped);
  visible().erase(it);
  return CUDA_SUCCESS;
}

// Any host range, with PORTABLE and DEVICEMAP. IOMEMORY and READ_ONLY are
// not supported (CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED is
// 0). Overlapping an earlier range (registered, managed or page-locked) is
// CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED. A range inside the addresses
// the emulated device keeps for itself (Session::alloc_fixed; under ASan and
// on ordinary Linux layouts no host memory lies there) is refused with
// CUDA_ERROR_NOT_SUPPORTED and a message.
SHIM_API CUresult cuMemHostRegister_v2(void* p, size_t bytesize, unsigned int Flags) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!p || !bytesize || (Flags & ~0xfu)) return CUDA_ERROR_INVALID_VALUE;
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  if (Flags & (CU_MEMHOSTREGISTER_IOMEMORY | CU_MEMHOSTREGISTER_READ_ONLY)) return CUDA_ERROR_NOT_SUPPORTED;
  const auto h = reinterpret_cast<uint64_t>(p);
  if (h + bytesize < h) return CUDA_ERROR_INVALID_VALUE;
  if (overlaps(h, bytesize)) return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
  if (!s.session->alloc_fixed(h, bytesize, false)) {
    report("cuMemHostRegister: host range " + hex(h) + " + " + std::to_string(bytesize) +
           " lies among the emulated device's own addresses; cannot map it for kernels");
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  HostVisible r;
  r.bytes = bytesize;
  r.kind = HostKind::Registered;
  r.flags = Flags;
  r.ctx = c;
  visible()[h] = r;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuMemHostUnregister(void* p) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  drain_all(s);  // deferred work that may use it runs first (streams.cpp)
  auto it = visible().find(reinterpret_cast<uint64_t>(p));
  if (it == visible().end() || it->second.kind != HostKind::Registered) return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
  if (CUresult r = current_sticky(s)) return r;
  s.session->free(it->first);
  visible().erase(it);
  return CUDA_SUCCESS;
}

// The device address of host address p inside memory allocated or
// registered with DEVICEMAP (any offset): p itself. Without DEVICEMAP it
// fails, as documented, though kernels reach the memory at p all the same.
SHIM_API CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr* pdptr, void* p, unsigned int Flags) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!pdptr || !p || Flags) return CUDA_ERROR_INVALID_VALUE;
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  // Page-locked allocations are mapped whatever their flags: cuda.h's
  // cuMemAllocHost and cuMemHostAlloc say such memory is "immediately
  // accessible to all contexts on all devices which support unified
  // addressing" (the emulated device does), at a device pointer "always
  // equal to the returned host pointer", and that with WRITECOMBINED
  // cuMemHostGetDevicePointer "must be used ... even if the context supports
  // unified addressing". The older sentence that the call fails without
  // CU_MEMHOSTALLOC_DEVICEMAP describes devices without unified addressing
  // (cudaMallocHost memory in UnifiedMemoryPerf's zero-copy mode). A
  // registered range still needs CU_MEMHOSTREGISTER_DEVICEMAP.
  auto it = range_of(reinterpret_cast<uint64_t>(p), 1);
  if (it == visible().end() || it->second.kind == HostKind::Managed ||
      (it->second.kind != HostKind::Pinned && !(it->second.flags & CU_MEMHOSTREGISTER_DEVICEMAP)))
    return CUDA_ERROR_INVALID_VALUE;
  *pdptr = reinterpret_cast<uint64_t>(p);
  return CUDA_SUCCESS;
}

// The flags a cuMemHostAlloc allocation was made with (p anywhere in it).
SHIM_API CUresult cuMemHostGetFlags(unsigned int* pFlags, void* p) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!pFlags || !p) return CUDA_ERROR_INVALID_VALUE;
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  auto it = range_of(reinterpret_cast<uint64_t>(p), 1);
  if (it == visible().end() || it->second.kind != HostKind::Pinned) return CUDA_ERROR_INVALID_VALUE;
  *pFlags = it->second.flags;
  return CUDA_SUCCESS;
}

// cuPointerGetAttribute for page-locked and registered memory: host memory
// whose device pointer is its host pointer. False for other addresses.
bool shim::host_pointer_attribute(State& s, void* data, CUpointer_attribute attribute, uint64_t ptr, CUresult& res) {
  auto it = range_of(ptr, 1);
  if (it == visible().end() || it->second.kind == HostKind::Managed) return false;
  const HostVisible& r = it->second;
  res = CUDA_SUCCESS;
  switch (attribute) {
    case CU_POINTER_ATTRIBUTE_CONTEXT: *static_cast<CUcontext*>(data) = s.live.count(r.ctx) ? r.ctx : nullptr; break;
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE: *static_cast<unsigned*>(data) = CU_MEMORYTYPE_HOST; break;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER: *static_cast<CUdeviceptr*>(data) = ptr; break;
    case CU_POINTER_ATTRIBUTE_HOST_POINTER: *static_cast<void**>(data) = reinterpret_cast<void*>(ptr); break;
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS: *static_cast<int*>(data) = 1; break;
    case CU_POINTER_ATTRIBUTE_BUFFER_ID: *static_cast<unsigned long long*>(data) = it->first; break;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED: *static_cast<int*>(data) = 0; break;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *static_cast<int*>(data) = 0; break;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: *static_cast<CUdeviceptr*>(data) = it->first; break;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE: *static_cast<size_t*>(data) = r.bytes; break;
    case CU_POINTER_ATTRIBUTE_MAPPED: *static_cast<int*>(data) = 1; break;
    default: res = CUDA_ERROR_INVALID_VALUE;
  }
  return true;
}
