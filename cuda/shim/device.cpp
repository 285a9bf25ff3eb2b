// Driver API: errors, initialisation, the device, contexts (cuda/README.md).
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cuda/shim/state.hpp"

namespace shim {

State& state() {
  static State* s = new State;  // never destroyed: calls may come from atexit handlers
  return *s;
}

// The calling thread's context stack. Its vector outlives the thread-local
// destructors that exit() runs before the static destructors (a program's
// global object may free device memory in its destructor, after main): a
// trivially destructible thread_local pointer, the vector freed by a guard
// when the thread ends and made again, empty, if a later destructor calls in.
std::vector<CUcontext>& ctx_stack() {
  thread_local std::vector<CUcontext>* st = nullptr;
  struct Guard {
    std::vector<CUcontext>** p;
    ~Guard() {
      delete *p;
      *p = nullptr;
    }
  };
  if (!st) {
    st = new std::vector<CUcontext>;
    thread_local Guard guard{&st};
    (void)guard;
  }
  return *st;
}

void report(const std::string& msg) { std::fprintf(stderr, "ptxcheck-shim: %s\n", msg.c_str()); }

CUresult current(State& s, CUcontext& c) {
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  auto& st = ctx_stack();
  if (st.empty() || !is_live(s, st.back(), Kind::Ctx)) return CUDA_ERROR_INVALID_CONTEXT;
  if (st.back()->primary && s.primary_refs == 0) return CUDA_ERROR_INVALID_CONTEXT;  // released
  c = st.back();
  return c->sticky;
}

CUresult current_sticky(State& s) {
  auto& st = ctx_stack();
  if (!s.initialized || st.empty() || !is_live(s, st.back(), Kind::Ctx)) return CUDA_SUCCESS;
  return st.back()->sticky;
}

bool valid_stream(State& s, CUstream st, CUcontext c) {
  if (st == nullptr || st == CU_STREAM_LEGACY || st == CU_STREAM_PER_THREAD) return true;
  return is_live(s, st, Kind::Stream) && st->ctx == c;
}

void release_resources(State& s, CUcontext c) {
  for (CUmodule m : c->modules) {
    for (CUfunction f : m->funcs) s.live.erase(f);
    drop_refs(s, m);
    unload_session_module(s, m->m, true);
    m->m = nullptr;
    s.live.erase(m);
  }
  for (uint64_t a : c->allocs) {
    s.session->free(a);
    release_managed(a);
  }
  release_host_ranges(s, c);
  for (CUarray a : c->arrays) {
    s.session->free(a->addr);
    s.live.erase(a);
  }
  for (CUmipmappedArray m : c->mipmaps) {
    s.session->free(m->addr);
    for (CUarray a : m->level_arrays) s.live.erase(a);
    s.live.erase(m);
  }
  c->mipmaps.clear();
  for (uint64_t t : c->textures) s.textures.erase(t);
  c->arrays.clear();
  c->textures.clear();
  for (CUstream st : c->streams) s.live.erase(st);
  for (CUevent e : c->events) s.live.erase(e);
  c->modules.clear();
  c->allocs.clear();
  c->streams.clear();
  c->events.clear();
  c->local_storage.clear();
  c->sticky = CUDA_SUCCESS;
  // The device heap of kernels' malloc (one per device here) goes with the
  // last context: cudaDeviceReset, or the last context destroyed.
  bool others = false;
  for (const auto& [h, k] : s.live)
    if (k == Kind::Ctx && h != c) {
      auto* o = static_cast<const CUctx_st*>(h);
      others |= !o->primary || s.primary_refs > 0;
    }
  if (!others) {
    s.session->reset_device_heap();
    reset_async_allocs(s);
  }
}

namespace {

// "90", "9.0", "sm_90", "sm_90a" -> 9, 0.
bool parse_sm(const char* v, int& major, int& minor) {
  std::string t = v;
  if (t.rfind("sm_", 0) == 0) t = t.substr(3);
  while (!t.empty() && std::isalpha(static_cast<unsigned char>(t.back()))) t.pop_back();
  if (auto dot = t.find('.'); dot != std::string::npos) t.erase(dot, 1);
  if (t.size() < 2 || t.size() > 3 || t.find_first_not_of("0123456789") != std::string::npos) return false;
  major = std::stoi(t.substr(0, t.size() - 1));
  minor = t.back() - '0';
  return major > 0;
}

void configure(Device& d) {
  for (const char* var : {"PTXCHECK_SHIM_SM", "PTXCHECK_DEVICE"})  // PTXCHECK_DEVICE wins
    if (const char* v = std::getenv(var); v && *v && !parse_sm(v, d.sm_major, d.sm_minor))
      report(std::string("ignoring ") + var + "='" + v + "' (expected e.g. sm_90, 90 or 9.0)");
  if (const char* v = std::getenv("PTXCHECK_SHIM_REPORT")) d.report_path = v;
  if (const char* v = std::getenv("PTXCHECK_SHIM_PTX_DIR")) d.ptx_dir = v;
  const char* trace = std::getenv("PTXCHECK_SHIM_TRACE");
  d.trace = trace && std::strcmp(trace, "1") == 0;
  if (const char* v = std::getenv("PTXCHECK_SHIM_MEM_MB"); v && *v) {
    char* end = nullptr;
    unsigned long long mb = std::strtoull(v, &end, 10);
    if (*end || mb == 0) report(std::string("ignoring PTXCHECK_SHIM_MEM_MB='") + v + "'");
    else d.total_mem = mb << 20;
  }
  // A whole program's launches: the budget counts the thread instructions
  // since a thread of the launch last exited (RunOptions::budget_since_exit),
  // so a long launch runs to its end and a hung one still stops.
  d.run.budget_since_exit = true;
  // PTXCHECK_SHIM_BUDGET=launch: the budget of the launch's total, as
  // ptxcheck run counts it (a fixed amount of work, for measurements).
  if (const char* v = std::getenv("PTXCHECK_SHIM_BUDGET"); v && std::strcmp(v, "launch") == 0)
    d.run.budget_since_exit = false;
  if (const char* v = std::getenv("PTXCHECK_SHIM_MAX_STEPS"); v && *v) {
    char* end = nullptr;
    unsigned long long n = std::strtoull(v, &end, 10);
    if (*end || n == 0) report(std::string("ignoring PTXCHECK_SHIM_MAX_STEPS='") + v + "'");
    else d.run.max_steps = n;
  }
  const char* races = std::getenv("PTXCHECK_SHIM_RACES");
  // "1": races as `ptxcheck run` reports them by default; "strict": a
  // warp-sync-race is an error too (--races=strict, docs/races.md).
  d.run.check_races = races && (std::strcmp(races, "1") == 0 || std::strcmp(races, "strict") == 0);
  d.run.strict_races = races && std::strcmp(races, "strict") == 0;
  // Worker threads for CTAs (docs/interpreter.md, CTAs on all cores).
  d.run.jobs = ptxcheck::interp::default_jobs();
  if (const char* v = std::getenv("PTXCHECK_JOBS"); v && *v && !ptxcheck::interp::parse_jobs(v, d.run.jobs))
    report(std::string("ignoring PTXCHECK_JOBS='") + v + "' (expected a number from 1 to 4096)");
  const char* quiet = std::getenv("PTXCHECK_SHIM_QUIET");
  d.quiet_warnings = quiet && std::strcmp(quiet, "1") == 0;
}

constexpr const char kDeviceName[] = "ptxcheck (reference interpreter)";

CUcontext new_ctx(State& s, bool primary, unsigned flags) {
  auto* c = make_handle<CUctx_st>(s, Kind::Ctx);
  c->primary = primary;
  c->flags = flags;
  return c;
}

}  // namespace

CUcontext primary_ctx(State& s) {
  if (!s.primary) s.primary = new_ctx(s, true, 0);
  return s.primary;
}

}  // namespace shim

using namespace shim;

// ---- errors -------------------------------------------------------------------

SHIM_API CUresult cuGetErrorName(CUresult error, const char** pStr) {
  if (!pStr) return CUDA_ERROR_INVALID_VALUE;
  switch (static_cast<int>(error)) {
#define SHIM_ERROR(name, value, text) \
  case value: *pStr = #name; return CUDA_SUCCESS;
#include "cuda/shim/errors.def"
#undef SHIM_ERROR
  }
  *pStr = nullptr;
  return CUDA_ERROR_INVALID_VALUE;
}

SHIM_API CUresult cuGetErrorString(CUresult error, const char** pStr) {
  if (!pStr) return CUDA_ERROR_INVALID_VALUE;
  switch (static_cast<int>(error)) {
#define SHIM_ERROR(name, value, text) \
  case value: *pStr = text; return CUDA_SUCCESS;
#include "cuda/shim/errors.def"
#undef SHIM_ERROR
  }
  *pStr = nullptr;
  return CUDA_ERROR_INVALID_VALUE;
}

// ---- initialisation and the device ------------------------------------------

SHIM_API CUresult cuInit(unsigned int Flags) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (Flags != 0) return CUDA_ERROR_INVALID_VALUE;
  if (!s.initialized) {
    configure(s.dev);
    s.session = std::make_unique<ptxcheck::interp::Session>(s.dev.total_mem);
    s.initialized = true;
  }
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuDriverGetVersion(int* driverVersion) {
  if (!driverVersion) return CUDA_ERROR_INVALID_VALUE;
  *driverVersion = CUDA_VERSION;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuDeviceGetCount(int* count) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!count) return CUDA_ERROR_INVALID_VALUE;
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  *count = 1;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!device) return CUDA_ERROR_INVALID_VALUE;
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
  *device = 0;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuDeviceGetName(char* name, int len, CUdevice dev) {
  if (!name || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  DeviceEntry e(dev);
  if (e.r) return e.r;
  size_t n = std::min(sizeof kDeviceName - 1, static_cast<size_t>(len) - 1);
  std::memcpy(name, kDeviceName, n);
  name[n] = '\0';
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuDeviceTotalMem_v2(size_t* bytes, CUdevice dev) {
  if (!bytes) return CUDA_ERROR_INVALID_VALUE;
  DeviceEntry e(dev);
  if (e.r) return e.r;
  *bytes = e.s.dev.total_mem;
  return CUDA_SUCCESS;
}

// Attributes of an sm_90-class part, except those the interpreter fixes
// (one SM: %nsmid is 1; see docs/interpreter.md).
SHIM_API CUresult cuDeviceGetAttribute(int* pi, CUdevice_attribute attrib, CUdevice dev) {
  if (!pi) return CUDA_ERROR_INVALID_VALUE;
  DeviceEntry e(dev);
  if (e.r) return e.r;
  const Device& d = e.s.dev;
  int v = 0;
  switch (attrib) {
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: v = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: v = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: v = 64; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: v = 0x7fffffff; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: v = 65535; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: v = 48 * 1024; break;
    case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY: v = 64 * 1024; break;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE: v = 32; break;
    case CU_DEVICE_ATTRIBUTE_MAX_PITCH: v = 0x7fffffff; break;
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK:
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR: v = 65536; break;
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: v = 1000000; break;  // kHz; %clock counts instructions
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: v = 1; break;
    case CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT: v = 0; break;
    case CU_DEVICE_ATTRIBUTE_INTEGRATED: v = 0; break;
    // Page-locked host memory (hostmem.cpp): kernels reach it at its host
    // address, through a device copy refreshed around each launch.
    case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY: v = 1; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_MODE: v = 0; break;
    case CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS: v = 0; break;
    case CU_DEVICE_ATTRIBUTE_ECC_ENABLED: v = 0; break;
    case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID:
    case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID:
    case CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID: v = 0; break;
    case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: v = 1000000; break;
    case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: v = 64; break;
    case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: v = 0; break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: v = 2048; break;
    case CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT: v = 0; break;
    case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING: v = 1; break;  // device and host addresses never overlap
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: v = d.sm_major; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: v = d.sm_minor; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: v = 228 * 1024; break;
    case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY: v = 1; break;
    case CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH: v = 1; break;  // all CTAs of a cooperative launch run at once
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: v = 227 * 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR: v = 32; break;
    case CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH: v = d.sm_major >= 9; break;
    case CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED: v = 1; break;  // stream-ordered allocation (mempool.cpp)
    case CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES: v = CU_MEM_HANDLE_TYPE_NONE; break;  // no IPC
    default: {
      // The rest of the CUDA 13 attributes (1..147), read by
      // cudaGetDeviceProperties: limits of an sm_90-class part, and 0 for
      // features the shim does not provide.
      int a = static_cast<int>(attrib);
      switch (a) {
        case 14: v = 512; break;                             // TEXTURE_ALIGNMENT
        case 21: case 22: case 69: case 70: v = 131072; break;  // 1D/2D texture widths
        case 23: case 71: v = 65536; break;                  // 2D heights
        case 24: case 25: case 26: v = 16384; break;         // 3D
        case 27: case 42: v = 32768; break;                  // layered widths
        case 28: v = 32768; break;
        case 29: case 43: v = 2048; break;                   // layers
        case 30: v = 512; break;                             // SURFACE_ALIGNMENT
        case 51: v = 32; break;                              // TEXTURE_PITCH_ALIGNMENT
        case 72: v = 2097120; break;                         // 2D linear pitch
        case 55: case 56: case 58: case 61: case 63: v = 32768; break;
        case 57: case 59: case 60: case 64: v = 65536; break;
        case 52: case 53: case 66: case 67: v = 32768; break;
        case 54: case 62: case 65: case 68: v = 2048; break;
        case 73: case 74: case 77: v = 32768; break;
        case 78: v = 1; break;                               // STREAM_PRIORITIES_SUPPORTED
        case 79: case 80: v = 1; break;                      // L1 caches
        case 87: v = 2; break;                               // SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO
        case 111: v = 1024; break;                           // RESERVED_SHARED_MEMORY_PER_BLOCK
        case 99: v = 1; break;                               // HOST_REGISTER_SUPPORTED
        // Stream memory operations (memops.cpp), 64-bit and NOR waits included;
        // 98 CAN_FLUSH_REMOTE_WRITES stays 0.
        case 92: case 93: case 94: case 122: case 123: v = 1; break;
        // 113 READ_ONLY_HOST_REGISTER_SUPPORTED stays 0 (the device's writes
        // to such a range would have to fault): cuMemHostRegister refuses
        // READ_ONLY with CUDA_ERROR_NOT_SUPPORTED, as documented for 0.
        // CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM: kernels reach a
        // registered range at its host address (hostmem.cpp), and
        // cuMemHostGetDevicePointer gives that address, as the driver API
        // documents for 1 (a GPU on an x86 Linux system reports 1 too).
        case 91: v = 1; break;
        case 126: v = d.sm_major >= 9 ? 4 : 1; break;        // MEM_SYNC_DOMAIN_COUNT
        case 127: v = d.sm_major >= 9; break;                // TENSOR_MAP_ACCESS_SUPPORTED
        case 131: case 134: v = -1; break;                   // NUMA ids
        default:
          if (a < 1 || a > 147) return CUDA_ERROR_INVALID_VALUE;
          v = 0;
      }
    }
  }
  *pi = v;
  return CUDA_SUCCESS;
}

// ---- contexts ---------------------------------------------------------------------

SHIM_API CUresult cuDevicePrimaryCtxRetain(CUcontext* pctx, CUdevice dev) {
  if (!pctx) return CUDA_ERROR_INVALID_VALUE;
  DeviceEntry e(dev);
  if (e.r) return e.r;
  primary_ctx(e.s);
  ++e.s.primary_refs;
  *pctx = e.s.primary;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev) {
  DeviceEntry e(dev);
  if (e.r) return e.r;
  if (e.s.primary_refs == 0) return CUDA_ERROR_INVALID_CONTEXT;
  // The last release destroys the primary context's resources; the handle
  // stays valid and the next retain finds a fresh context.
  if (e.s.primary_refs == 1) drain_ctx(e.s, e.s.primary, true);  // deferred work runs first (streams.cpp)
  if (--e.s.primary_refs == 0) release_resources(e.s, e.s.primary);
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev) {
  DeviceEntry e(dev);
  if (e.r) return e.r;
  if (e.s.primary) {
    drain_ctx(e.s, e.s.primary, true);  // deferred work runs first (streams.cpp)
    release_resources(e.s, e.s.primary);
  }
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int* flags, int* active) {
  if (!flags || !active) return CUDA_ERROR_INVALID_VALUE;
  DeviceEntry e(dev);
  if (e.r) return e.r;
  *flags = e.s.primary ? e.s.primary->flags : 0;
  *active = e.s.primary_refs > 0;
  return CUDA_SUCCESS;
}

namespace {
CUresult create_ctx(CUcontext* pctx, unsigned flags, CUdevice dev) {
  if (!pctx) return CUDA_ERROR_INVALID_VALUE;
  DeviceEntry e(dev);
  if (e.r) return e.r;
  if (flags & ~static_cast<unsigned>(CU_CTX_FLAGS_MASK)) return CUDA_ERROR_INVALID_VALUE;
  CUcontext c = new_ctx(e.s, false, flags);
  ctx_stack().push_back(c);  // the new context becomes current
  *pctx = c;
  return CUDA_SUCCESS;
}
}  // namespace

SHIM_API CUresult cuCtxCreate_v4(CUcontext* pctx, CUctxCreateParams* params, unsigned int flags, CUdevice dev) {
  (void)params;  // execution affinity and CIG do not apply to the interpreter
  return create_ctx(pctx, flags, dev);
}

// The CUDA 4..12 ABI of cuCtxCreate, for binaries built against older headers.
SHIM_API CUresult cuCtxCreate_v2(CUcontext* pctx, unsigned int flags, CUdevice dev) {
  return create_ctx(pctx, flags, dev);
}

SHIM_API CUresult cuCtxDestroy_v2(CUcontext ctx) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!is_live(s, ctx, Kind::Ctx) || ctx->primary) return CUDA_ERROR_INVALID_CONTEXT;
  drain_ctx(s, ctx, true);  // deferred work runs first (streams.cpp)
  release_resources(s, ctx);
  s.live.erase(ctx);
  auto& st = ctx_stack();
  std::erase(st, ctx);
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuCtxSetCurrent(CUcontext ctx) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  auto& st = ctx_stack();
  if (!ctx) {
    if (!st.empty()) st.pop_back();
    return CUDA_SUCCESS;
  }
  if (!is_live(s, ctx, Kind::Ctx)) return CUDA_ERROR_INVALID_CONTEXT;
  if (st.empty()) st.push_back(ctx);
  else st.back() = ctx;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuCtxGetCurrent(CUcontext* pctx) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!pctx) return CUDA_ERROR_INVALID_VALUE;
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  auto& st = ctx_stack();
  *pctx = st.empty() || !is_live(s, st.back(), Kind::Ctx) ? nullptr : st.back();
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuCtxPushCurrent_v2(CUcontext ctx) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!is_live(s, ctx, Kind::Ctx)) return CUDA_ERROR_INVALID_CONTEXT;
  ctx_stack().push_back(ctx);
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuCtxPopCurrent_v2(CUcontext* pctx) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  auto& st = ctx_stack();
  if (st.empty()) return CUDA_ERROR_INVALID_CONTEXT;
  if (pctx) *pctx = st.back();
  st.pop_back();
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuCtxGetDevice(CUdevice* device) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!device) return CUDA_ERROR_INVALID_VALUE;
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  *device = 0;
  return CUDA_SUCCESS;
}

// Kernels ran to completion inside cuLaunchKernel; what is left to report
// is a fault of an earlier launch.
SHIM_API CUresult cuCtxSynchronize(void) {
  State& s = state();
  std::lock_guard lk(s.mu);
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  drain_ctx(s, c, true);  // deferred work runs (streams.cpp)
  if (c->sticky) return c->sticky;
  release_pools(s);
  return CUDA_SUCCESS;
}
