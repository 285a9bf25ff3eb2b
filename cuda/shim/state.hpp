// Internal state of the driver-API shim (libcuda.so.1 over the ptxcheck
// interpreter). Every exported function takes the one global lock, so the
// shim is thread-safe by serialisation; kernels run synchronously inside
// cuLaunchKernel, which makes every stream and event trivially complete.
//
// Handles are pointers to the structs below. A handle is only dereferenced
// after it is found in `live` (so a stale, foreign or garbage handle yields
// an error code, never a crash), and handle memory is never freed or reused,
// so a destroyed handle cannot alias a new one.
#pragma once
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "cuda/include/cuda.h"
#include "semantics/interp/session.hpp"

struct CUctx_st {
  bool primary = false;
  unsigned flags = 0;
  CUresult sticky = CUDA_SUCCESS;  // a fault of an earlier launch (GPU semantics)
  std::set<CUmodule> modules;
  std::set<uint64_t> allocs;
  std::set<CUstream> streams;
  std::set<CUevent> events;
};

struct CUmod_st {
  CUcontext ctx = nullptr;
  ptxcheck::interp::SessionModule* m = nullptr;
  std::vector<CUfunction> funcs;  // created on first cuModuleGetFunction
};

struct CUfunc_st {
  CUmodule mod = nullptr;
  ptxcheck::interp::SessionKernel* k = nullptr;
  int max_dynamic_shared = -1;  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES (-1: default)
};

struct CUstream_st {
  CUcontext ctx = nullptr;
  unsigned flags = 0;
};

struct CUevent_st {
  CUcontext ctx = nullptr;
  unsigned flags = 0;
  bool recorded = false;
  std::chrono::steady_clock::time_point when;
};

namespace shim {

enum class Kind : uint8_t { Ctx, Module, Function, Stream, Event };

struct Device {
  int sm_major = 9, sm_minor = 0;    // PTXCHECK_SHIM_SM ("90", "9.0", "sm_90")
  uint64_t total_mem = 4ull << 30;   // PTXCHECK_SHIM_MEM_MB
  ptxcheck::interp::RunOptions run;  // PTXCHECK_SHIM_MAX_STEPS, PTXCHECK_SHIM_RACES
  bool quiet_warnings = false;       // PTXCHECK_SHIM_QUIET=1: only fatal diagnostics
};

struct State {
  std::mutex mu;
  bool initialized = false;
  Device dev;
  std::unique_ptr<ptxcheck::interp::Session> session;
  std::unordered_map<const void*, Kind> live;
  CUcontext primary = nullptr;  // created on first retain, kept (reset on release to 0)
  int primary_refs = 0;
  uint32_t modules_loaded = 0;  // names "<module N>" for cuModuleLoadData
  std::vector<std::shared_ptr<void>> handles;  // every handle ever made (never freed, see above)
};

State& state();
std::vector<CUcontext>& ctx_stack();  // this thread's context stack; back() is current

template <class T>
bool is_live(const State& s, T* h, Kind k) {
  auto it = s.live.find(static_cast<const void*>(h));
  return h && it != s.live.end() && it->second == k;
}

// A new live handle of kind k.
template <class T>
T* make_handle(State& s, Kind k) {
  auto p = std::make_shared<T>();
  s.handles.push_back(p);
  s.live[p.get()] = k;
  return p.get();
}

// The current context, checked: NOT_INITIALIZED, INVALID_CONTEXT, or the
// context's sticky error.
CUresult current(State& s, CUcontext& c);
bool valid_stream(State& s, CUstream st, CUcontext c);
// Releases everything a context owns (modules, allocations, streams, events).
void release_resources(State& s, CUcontext c);
// Prints "ptxcheck-shim: " + msg to stderr.
void report(const std::string& msg);

}  // namespace shim

// Every exported entry point: C linkage, default visibility.
#define SHIM_API extern "C" __attribute__((visibility("default")))
