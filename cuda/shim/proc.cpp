// Entry points by name and the runtime's private interfaces
// (cuda/README.md "Runtime API").
//
// libcudart (CUDA 12 and 13, static or shared) finds the driver through
// cuGetProcAddress: it asks for each entry point by base name with the CUDA
// version whose ABI it was built for (cuMemAlloc at 3020 is cuMemAlloc_v2,
// cuCtxGetDevice at 13000 is cuCtxGetDevice_v2) and, with
// CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, for the _ptds/_ptsz
// variants. The answer follows the driver API reference ("Driver Entry Point
// Access"): the newest variant introduced at or before the requested
// version; a per-thread variant only when asked for and present, else the
// legacy one. A name the shim does not provide answers CUDA_ERROR_NOT_FOUND
// with *pfn = NULL and symbolStatus SYMBOL_NOT_FOUND (VERSION_NOT_SUFFICIENT
// when only newer variants exist), so the runtime treats it as a driver
// without that feature and never calls through a bad pointer.
//
// cuGetExportTable hands out the undocumented tables the runtime uses for
// its bootstrap, keyed by UUID. Their layouts are public knowledge from
// independent driver reimplementations (ZLUDA and others): slot 0 holds the
// table's size in bytes where the runtime checks it; the slots the runtime
// calls are implemented below; every other slot reports itself and returns
// CUDA_ERROR_NOT_SUPPORTED, so a runtime that calls one fails with a message
// instead of jumping through a null pointer. Unknown UUIDs answer
// CUDA_ERROR_NOT_FOUND (the runtime probes some that a driver may lack).
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "cuda/shim/state.hpp"

using namespace shim;

namespace shim {
struct Proc {
  const char* name;
  int version;      // the CUDA version that introduced this variant
  bool per_thread;  // a _ptds/_ptsz variant
  void* fn;
};
extern const Proc kProcs[];
extern const size_t kNumProcs;
}  // namespace shim

namespace {

bool trace_on() {
  static const bool on = [] {
    const char* v = std::getenv("PTXCHECK_SHIM_TRACE");
    return v && std::strcmp(v, "1") == 0;
  }();
  return on;
}

// ---- private interfaces --------------------------------------------------------------

struct Table {
  const char* name;
  unsigned char uuid[16];
  const void* const* slots;
};

template <int T, int S>
CUresult unknown_slot() {
  static const char* const names[] = {"cudart interface", "tools runtime callback hooks", "context local storage",
                                      "tools TLS", "context checks"};
  report(std::string("the CUDA runtime called slot ") + std::to_string(S) + " of the private " + names[T] +
         " table, which the shim does not implement");
  return CUDA_ERROR_NOT_SUPPORTED;
}

// cudart interface, slot 2: the primary context of a device (not retained).
CUresult cudart_primary_ctx(CUcontext* pctx, CUdevice dev) {
  if (!pctx) return CUDA_ERROR_INVALID_VALUE;
  DeviceEntry e(dev);
  if (e.r) return e.r;
  *pctx = primary_ctx(e.s);
  return CUDA_SUCCESS;
}

// Callback hooks, slots 2 and 6: scratch buffers the runtime fills with
// tool-callback state (nothing reads them on the shim).
void hooks_buffer_a(void** p, size_t* n) {
  static uint64_t buf[1024];
  if (p) *p = buf;
  if (n) *n = sizeof buf / sizeof buf[0];
}
void hooks_buffer_b(void** p, size_t* n) {
  static uint8_t buf[64];
  if (p) *p = buf;
  if (n) *n = 14;
}

// Context local storage: the runtime keeps its per-context state here. A null
// context means the calling thread's current one; a thread with none (a new
// host thread) has no storage, so the runtime makes the primary context
// current there (cuDevicePrimaryCtxRetain + cuCtxSetCurrent) before it
// launches, instead of using another thread's state without a context.
CUcontext storage_ctx(State& s, CUcontext c) {
  if (c) return is_live(s, c, Kind::Ctx) ? c : nullptr;
  auto& st = ctx_stack();
  if (!st.empty() && is_live(s, st.back(), Kind::Ctx)) return st.back();
  return nullptr;
}

CUresult storage_put(CUcontext c, void* key, void* value, void* dtor) {
  (void)dtor;  // the runtime's state is dropped with the context, not destroyed through it
  State& s = state();
  std::lock_guard lk(s.mu);
  c = storage_ctx(s, c);
  if (!c || !key) return CUDA_ERROR_INVALID_VALUE;
  for (auto& kv : c->local_storage)
    if (kv.first == key) {
      kv.second = value;
      return CUDA_SUCCESS;
    }
  c->local_storage.emplace_back(key, value);
  return CUDA_SUCCESS;
}

CUresult storage_delete(CUcontext c, void* key) {
  State& s = state();
  std::lock_guard lk(s.mu);
  c = storage_ctx(s, c);
  if (!c) return CUDA_ERROR_INVALID_VALUE;
  std::erase_if(c->local_storage, [&](const auto& kv) { return kv.first == key; });
  return CUDA_SUCCESS;
}

CUresult storage_get(void** value, CUcontext c, void* key) {
  if (!value) return CUDA_ERROR_INVALID_VALUE;
  *value = nullptr;
  State& s = state();
  std::lock_guard lk(s.mu);
  c = storage_ctx(s, c);
  if (!c) return CUDA_ERROR_INVALID_CONTEXT;
  for (const auto& kv : c->local_storage)
    if (kv.first == key) {
      *value = kv.second;
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_INVALID_HANDLE;
}

CUresult tools_current_ctx(CUcontext* c) { return cuCtxGetCurrent(c); }

CUresult context_check(CUcontext, unsigned* flags, const void** detail) {
  if (flags) *flags = 0;
  if (detail) *detail = nullptr;
  return CUDA_SUCCESS;
}
unsigned context_check_all() { return 0; }

#define SLOT(t, i) reinterpret_cast<const void*>(&unknown_slot<t, i>)
#define FN(f) reinterpret_cast<const void*>(&f)
#define SIZE(n) reinterpret_cast<const void*>(uintptr_t{(n) * sizeof(void*)})

const void* const kCudartInterface[] = {SIZE(13),    SLOT(0, 1),  FN(cudart_primary_ctx), SLOT(0, 3), SLOT(0, 4),
                                        SLOT(0, 5),  SLOT(0, 6),  SLOT(0, 7),               SLOT(0, 8), SLOT(0, 9),
                                        SLOT(0, 10), SLOT(0, 11), SLOT(0, 12)};
const void* const kCallbackHooks[] = {SIZE(7),    SLOT(1, 1), FN(hooks_buffer_a), SLOT(1, 3),
                                      SLOT(1, 4), SLOT(1, 5), FN(hooks_buffer_b)};
const void* const kLocalStorage[] = {FN(storage_put), FN(storage_delete), FN(storage_get), SLOT(2, 3)};
const void* const kToolsTls[] = {SIZE(4), SLOT(3, 1), FN(tools_current_ctx), SLOT(3, 3)};
const void* const kContextChecks[] = {SLOT(4, 0), SLOT(4, 1), FN(context_check), FN(context_check_all)};

const Table kTables[] = {
    {"cudart interface",
     {0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9},
     kCudartInterface},
    {"tools runtime callback hooks",
     {0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66},
     kCallbackHooks},
    {"context local storage",
     {0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93},
     kLocalStorage},
    {"tools TLS",
     {0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc},
     kToolsTls},
    {"context checks",
     {0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e},
     kContextChecks},
    {"integrity check",
     {0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2},
     nullptr},
};

}  // namespace

const void* const* shim::cudart_interface() { return kCudartInterface; }

namespace {
std::atomic<bool> g_runtime_attached{false};
}  // namespace

bool shim::runtime_attached() { return g_runtime_attached.load(std::memory_order_relaxed); }

// cudaErrorInvalidConfiguration's value; the runtime passes the driver's code
// through unchanged (cudaError_t and CUresult share their values), and
// `kernel<<<1, 1025>>>` gives it on a GPU. No CUresult name has this value.
CUresult shim::launch_config_error() {
  return runtime_attached() ? static_cast<CUresult>(9) : CUDA_ERROR_INVALID_VALUE;
}

namespace {

std::string hex(const unsigned char* b) {
  char out[33];
  for (int i = 0; i < 16; ++i) std::snprintf(out + 2 * i, 3, "%02x", b[i]);
  return out;
}

}  // namespace

SHIM_API CUresult cuGetProcAddress_v2(const char* symbol, void** pfn, int cudaVersion, uint64_t flags,
                                      CUdriverProcAddressQueryResult* symbolStatus) {
  if (!symbol || !pfn) return CUDA_ERROR_INVALID_VALUE;
  *pfn = nullptr;
  if (symbolStatus) *symbolStatus = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  if (flags & ~uint64_t{CU_GET_PROC_ADDRESS_LEGACY_STREAM | CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM})
    return CUDA_ERROR_INVALID_VALUE;
  const bool per_thread = flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
  const Proc* legacy = nullptr;
  const Proc* pt = nullptr;
  bool known = false;
  for (size_t i = 0; i < kNumProcs; ++i) {
    const Proc& p = kProcs[i];
    if (std::strcmp(p.name, symbol) != 0) continue;
    known = true;
    if (p.version > cudaVersion) continue;
    const Proc*& best = p.per_thread ? pt : legacy;
    if (!best || p.version > best->version) best = &p;
  }
  const Proc* hit = per_thread && pt ? pt : legacy;
  if (trace_on())
    std::fprintf(stderr, "ptxcheck-shim: cuGetProcAddress(%s, %d, %llu): %s\n", symbol, cudaVersion,
                 static_cast<unsigned long long>(flags), hit ? "found" : known ? "version not sufficient" : "not found");
  if (!hit) {
    if (symbolStatus && known) *symbolStatus = CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
    return CUDA_ERROR_NOT_FOUND;
  }
  *pfn = hit->fn;
  if (symbolStatus) *symbolStatus = CU_GET_PROC_ADDRESS_SUCCESS;
  return CUDA_SUCCESS;
}

// The CUDA 11.3 ABI: no status.
#undef cuGetProcAddress
SHIM_API CUresult cuGetProcAddress(const char* symbol, void** pfn, int cudaVersion, uint64_t flags) {
  return cuGetProcAddress_v2(symbol, pfn, cudaVersion, flags, nullptr);
}

SHIM_API CUresult cuGetExportTable(const void** ppExportTable, const CUuuid* pExportTableId) {
  if (!ppExportTable || !pExportTableId) return CUDA_ERROR_INVALID_VALUE;
  *ppExportTable = nullptr;
  const auto* id = reinterpret_cast<const unsigned char*>(pExportTableId->bytes);
  for (const auto& t : kTables)
    if (std::memcmp(t.uuid, id, 16) == 0) {
      if (trace_on()) std::fprintf(stderr, "ptxcheck-shim: cuGetExportTable(%s): %s\n", hex(id).c_str(), t.name);
      *ppExportTable = t.slots ? t.slots : integrity_table();
      if (t.slots == kCudartInterface) g_runtime_attached.store(true, std::memory_order_relaxed);
      return CUDA_SUCCESS;
    }
  if (trace_on()) std::fprintf(stderr, "ptxcheck-shim: cuGetExportTable(%s): not found\n", hex(id).c_str());
  return CUDA_ERROR_NOT_FOUND;
}
