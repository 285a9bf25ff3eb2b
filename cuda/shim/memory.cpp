// Driver API: device memory and modules (cuda/README.md). Device addresses are
// the interpreter's global addresses (semantics/interp/session.hpp).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "cuda/shim/state.hpp"

using namespace shim;

namespace {

// Host access to n bytes at a device address, or nullptr when they are not
// all inside one allocation.
uint8_t* device_bytes(State& s, CUdeviceptr p, size_t n) {
  if (uint8_t* h = host_side(s, p, n)) return h;  // managed or mapped host memory: current between launches
  return s.session->host_bytes(p, n);
}

CUresult copy(State& s, void* dst_host, CUdeviceptr dst_dev, const void* src_host, CUdeviceptr src_dev, size_t n,
              CUstream stream) {
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  if (!valid_stream(s, stream, c)) return CUDA_ERROR_INVALID_HANDLE;
  if (capturing(stream)) {  // a memcpy node (graph.cpp)
    Work w;
    w.type = CU_GRAPH_NODE_TYPE_MEMCPY;
    w.ctx = c;
    w.copy.srcMemoryType = src_host ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
    w.copy.srcHost = src_host;
    w.copy.srcDevice = src_dev;
    w.copy.dstMemoryType = dst_host ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
    w.copy.dstHost = dst_host;
    w.copy.dstDevice = dst_dev;
    w.copy.WidthInBytes = n;
    w.copy.Height = w.copy.Depth = 1;
    return capture_work(s, stream, std::move(w));
  }
  if (deferred_on(s, c, stream)) {  // after deferred work (streams.cpp)
    if (dst_host && !host_visible(s, dst_host, n)) {
      settle(s, c, stream);  // to pageable memory: returns once done
      if (c->sticky) return c->sticky;
    } else {
      std::shared_ptr<std::vector<uint8_t>> staged;  // from pageable memory: staged now
      if (src_host && !host_visible(s, src_host, n))
        staged = std::make_shared<std::vector<uint8_t>>(static_cast<const uint8_t*>(src_host),
                                                        static_cast<const uint8_t*>(src_host) + n);
      auto run = [=] {
        return copy(state(), dst_host, dst_dev, staged ? staged->data() : src_host, src_dev, n, stream);
      };
      defer(s, c, stream, "cuMemcpyAsync", std::move(run));
      return CUDA_SUCCESS;
    }
  }
  if (n == 0) return CUDA_SUCCESS;
  uint8_t* d = dst_host ? static_cast<uint8_t*>(dst_host) : device_bytes(s, dst_dev, n);
  const uint8_t* src = src_host ? static_cast<const uint8_t*>(src_host) : device_bytes(s, src_dev, n);
  if (!d || !src) return CUDA_ERROR_INVALID_VALUE;
  std::memmove(d, src, n);
  return CUDA_SUCCESS;
}

template <class T>
CUresult fill(CUdeviceptr dst, T value, size_t n) {
  SyncCall sync;
  State& s = state();
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  if (dst % sizeof(T)) return CUDA_ERROR_INVALID_VALUE;
  if (n == 0) return CUDA_SUCCESS;
  if (n > SIZE_MAX / sizeof(T)) return CUDA_ERROR_INVALID_VALUE;
  uint8_t* d = device_bytes(s, dst, n * sizeof(T));
  if (!d) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < n; ++i) std::memcpy(d + i * sizeof(T), &value, sizeof(T));
  return CUDA_SUCCESS;
}

// .file/.loc directives (PTX ISA 11.5.2, 11.5.3): which CUDA source line
// each PTX line belongs to.
void index_loc(CUmod_st& m, const std::string& text) {
  uint32_t file = 0, line = 0, col = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string_view l(text.data() + pos, end - pos);
    size_t i = l.find_first_not_of(" \t");
    if (i != std::string_view::npos && l.size() > i + 4 && l.substr(i, 4) == ".loc" &&
        std::isspace(static_cast<unsigned char>(l[i + 4]))) {
      unsigned f = 0, n = 0, c = 0;
      const int got = std::sscanf(std::string(l.substr(i + 4)).c_str(), "%u %u %u", &f, &n, &c);
      if (got >= 2) file = f, line = n, col = got == 3 ? c : 0;
    } else if (i != std::string_view::npos && l.substr(i, 5) == ".file") {
      unsigned f = 0;
      std::string rest(l.substr(i + 5));
      size_t q1 = rest.find('"'), q2 = rest.rfind('"');
      if (std::sscanf(rest.c_str(), "%u", &f) == 1 && q1 != std::string::npos && q2 > q1)
        m.loc_files[f] = rest.substr(q1 + 1, q2 - q1 - 1);
    }
    m.loc.push_back({file, line, col});  // m.loc[k] is PTX line k + 1
    pos = end + 1;
  }
  if (m.loc_files.empty()) m.loc.clear();
}

// Whether PTX for `target` ("sm_90", "sm_90a", "sm_100f") runs on the
// emulated device of compute capability `dev` (90 for 9.0): plain targets
// run on their architecture and newer ones (the driver JIT-compiles them
// forward), "a" targets (architecture-specific features) only on their own
// architecture, "f" targets (family-specific) on their architecture and
// newer ones of the same major version. A driver's JIT refuses the rest
// (ptxas: "SM version specified by .target is higher than default SM
// version assumed"), which cuModuleLoadData reports as CUDA_ERROR_INVALID_PTX.
bool target_runs_on(const std::string& target, unsigned dev) {
  if (target.size() < 4 || target.compare(0, 3, "sm_") != 0) return true;  // no .target: nothing to check
  size_t i = 3;
  unsigned arch = 0;
  while (i < target.size() && std::isdigit(static_cast<unsigned char>(target[i])))
    arch = arch * 10 + unsigned(target[i++] - '0');
  const std::string suffix = target.substr(i);
  if (suffix == "a") return arch == dev;
  if (suffix == "f") return arch <= dev && arch / 10 == dev / 10;
  return arch <= dev;
}

std::string safe_name(const std::string& n) {
  std::string out;
  for (char ch : n) out += std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '-' ? ch : '_';
  return out;
}

// The device runtime's cudaGraphSetConditional(handle, value)
// (cuda_device_runtime_api.h), which nvcc leaves as an .extern .func: here
// the handle is the device address of the condition's value
// (cuGraphConditionalHandleCreate, graph.cpp), so the declaration becomes a
// function that stores the value there. The definition takes the
// declaration's lines (one line, then as many empty ones), so the PTX line
// numbers in diagnostics do not move.
std::string with_device_runtime(std::string text) {
  const std::string decl = ".extern .func cudaGraphSetConditional";
  size_t at = text.find(decl);
  if (at == std::string::npos) return text;
  size_t end = text.find(';', at);
  if (end == std::string::npos) return text;
  const auto lines = std::count(text.begin() + at, text.begin() + end, '\n');
  std::string def =
      ".func cudaGraphSetConditional(.param .b64 ptxcheck_handle, .param .b32 ptxcheck_value) { "
      ".reg .b64 %ptxcheck_h; .reg .b32 %ptxcheck_v; ld.param.b64 %ptxcheck_h, [ptxcheck_handle]; "
      "ld.param.b32 %ptxcheck_v, [ptxcheck_value]; st.global.u32 [%ptxcheck_h], %ptxcheck_v; ret; }";
  def += std::string(static_cast<size_t>(lines), '\n');
  return text.replace(at, end + 1 - at, def);
}

}  // namespace

// JIT log buffers (state.hpp).
void shim::write_log(unsigned n, CUjit_option* options, void** values, CUjit_option buf_opt, CUjit_option size_opt,
                     const std::string& text) {
  if (!options || !values) return;
  char* buf = nullptr;
  int size_idx = -1;
  for (unsigned i = 0; i < n; ++i) {
    if (options[i] == buf_opt) buf = static_cast<char*>(values[i]);
    if (options[i] == size_opt) size_idx = static_cast<int>(i);
  }
  if (!buf || size_idx < 0) return;
  size_t cap = static_cast<size_t>(reinterpret_cast<uintptr_t>(values[size_idx]));
  if (cap == 0) return;
  size_t len = std::min(text.size(), cap - 1);
  std::memcpy(buf, text.data(), len);
  buf[len] = '\0';
  values[size_idx] = reinterpret_cast<void*>(static_cast<uintptr_t>(len + 1));
}

std::string shim::write_ptx_file(const State& s, const std::string& label, const std::string& text) {
  if (s.dev.ptx_dir.empty()) return label;
  // a real file, so that diagnostics' PTX lines can be opened
  std::string name = s.dev.ptx_dir + "/" + safe_name(label);
  if (name.size() < 4 || name.substr(name.size() - 4) != ".ptx") name += ".ptx";
  std::ofstream(name, std::ios::binary) << text;
  return name;
}

CUresult shim::load_ptx(CUmodule* module, const std::string& text, const std::string& label, unsigned nopt,
                        CUjit_option* options, void** values, CUcontext into) {
  State& s = state();
  CUcontext c = into;
  if (!c)
    if (CUresult r = current(s, c)) return r;
  const std::string name = write_ptx_file(s, label, text);
  try {
    ptxcheck::interp::SessionModule& m = s.session->load_module(with_device_runtime(text), name);
    if (!target_runs_on(m.target, device_arch(s))) {
      const std::string dev = "sm_" + std::to_string(device_arch(s));
      std::string msg = name + ": .target " + m.target + " is newer than the emulated device " + dev +
                        " (PTXCHECK_DEVICE); a driver's PTX JIT refuses it: build for " + dev +
                        " or emulate a newer device";
      if (m.target.back() == 'a' || m.target.back() == 'f')
        msg = name + ": .target " + m.target +
              " (architecture- or family-specific) does not run on the emulated device " + dev +
              " (PTXCHECK_DEVICE); a driver's PTX JIT refuses it";
      unload_session_module(s, &m);
      report(msg);
      write_log(nopt, options, values, CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, msg);
      return CUDA_ERROR_INVALID_PTX;
    }
    if (CUresult r = map_module_managed(s, m)) {  // __managed__ variables (hostmem.cpp)
      unload_session_module(s, &m);
      return r;
    }
    auto* h = make_handle<CUmod_st>(s, Kind::Module);
    index_loc(*h, text);
    h->ctx = c;
    h->m = &m;
    c->modules.insert(h);
    *module = h;
    write_log(nopt, options, values, CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, "");
    write_log(nopt, options, values, CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, "");
    return CUDA_SUCCESS;
  } catch (const ptxcheck::InputError& e) {
    std::string msg = ptxcheck::format_error(e.file(), e.pos(), e.what());
    report(msg);
    write_log(nopt, options, values, CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, msg);
    return CUDA_ERROR_INVALID_PTX;
  } catch (const ptxcheck::LimitError& e) {
    report(name + ": " + e.what());
    return CUDA_ERROR_OUT_OF_MEMORY;
  } catch (const std::bad_alloc&) {
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
}

// ---- memory -------------------------------------------------------------------------

SHIM_API CUresult cuMemGetInfo_v2(size_t* free, size_t* total) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!free || !total) return CUDA_ERROR_INVALID_VALUE;
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  *total = s.session->capacity();
  // Memory pools' and graphs' reserved but unused bytes count as used.
  const uint64_t taken = s.session->used() + pools_idle(s);
  *free = taken < s.session->capacity() ? s.session->capacity() - taken : 0;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuMemAlloc_v2(CUdeviceptr* dptr, size_t bytesize) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!dptr) return CUDA_ERROR_INVALID_VALUE;
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  if (bytesize == 0) return CUDA_ERROR_INVALID_VALUE;
  try {
    uint64_t a = s.session->alloc(bytesize);
    c->allocs.insert(a);
    *dptr = a;
    return CUDA_SUCCESS;
  } catch (const ptxcheck::LimitError&) {
    return CUDA_ERROR_OUT_OF_MEMORY;
  } catch (const std::bad_alloc&) {
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
}

// cuMemFree synchronises: deferred work of the context (which may use the
// memory) runs first (streams.cpp).
SHIM_API CUresult cuMemFree_v2(CUdeviceptr dptr) {
  State& s = state();
  std::lock_guard lk(s.mu);
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  drain_ctx(s, c, true);
  if (c->sticky) return c->sticky;
  if (dptr == 0) return CUDA_SUCCESS;
  if (free_async_alloc(s, dptr)) return CUDA_SUCCESS;  // a stream-ordered or graph allocation (mempool.cpp)
  if (!c->allocs.erase(dptr)) return CUDA_ERROR_INVALID_VALUE;
  s.session->free(dptr);
  release_managed(dptr);
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void* src, size_t n) {
  SyncCall sync;  // after the deferred work it waits for (streams.cpp)
  State& s = state();
  if (!src && n) return CUDA_ERROR_INVALID_VALUE;
  return copy(s, nullptr, dst, src ? src : "", 0, n, nullptr);
}

SHIM_API CUresult cuMemcpyDtoH_v2(void* dst, CUdeviceptr src, size_t n) {
  SyncCall sync;  // after the deferred work it waits for (streams.cpp)
  State& s = state();
  if (!dst && n) return CUDA_ERROR_INVALID_VALUE;
  char dummy;
  return copy(s, dst ? dst : &dummy, 0, nullptr, src, n, nullptr);
}

SHIM_API CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n) {
  SyncCall sync;  // after the deferred work it waits for (streams.cpp)
  State& s = state();
  return copy(s, nullptr, dst, nullptr, src, n, nullptr);
}

SHIM_API CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void* src, size_t n, CUstream st) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!src && n) return CUDA_ERROR_INVALID_VALUE;
  return copy(s, nullptr, dst, src ? src : "", 0, n, st);
}

SHIM_API CUresult cuMemcpyDtoHAsync_v2(void* dst, CUdeviceptr src, size_t n, CUstream st) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!dst && n) return CUDA_ERROR_INVALID_VALUE;
  char dummy;
  return copy(s, dst ? dst : &dummy, 0, nullptr, src, n, st);
}

SHIM_API CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream st) {
  State& s = state();
  std::lock_guard lk(s.mu);
  return copy(s, nullptr, dst, nullptr, src, n, st);
}

// Peer copies (cuMemcpyPeer, cudaMemcpyPeer): the contexts of the one device
// share its address space (one session), so a copy between two live contexts
// is a device-to-device copy ordered in `st`, a stream of the current
// context. A context that is not live is CUDA_ERROR_INVALID_CONTEXT.
SHIM_API CUresult cuMemcpyPeerAsync(CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src, CUcontext src_ctx, size_t n,
                                    CUstream st) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!is_live(s, dst_ctx, Kind::Ctx) || !is_live(s, src_ctx, Kind::Ctx)) return CUDA_ERROR_INVALID_CONTEXT;
  return copy(s, nullptr, dst, nullptr, src, n, st);
}

SHIM_API CUresult cuMemcpyPeer(CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src, CUcontext src_ctx, size_t n) {
  SyncCall sync;
  return cuMemcpyPeerAsync(dst, dst_ctx, src, src_ctx, n, nullptr);
}

SHIM_API CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char v, size_t n) { return fill<uint8_t>(dst, v, n); }
SHIM_API CUresult cuMemsetD16_v2(CUdeviceptr dst, unsigned short v, size_t n) { return fill<uint16_t>(dst, v, n); }
SHIM_API CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned int v, size_t n) { return fill<uint32_t>(dst, v, n); }

// ---- modules ---------------------------------------------------------------------------

SHIM_API CUresult cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned int numOptions,
                                     CUjit_option* options, void** optionValues) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!module || !image || (numOptions && (!options || !optionValues))) return CUDA_ERROR_INVALID_VALUE;
  return load_image(s, module, image, "<module " + std::to_string(++s.modules_loaded) + ">", numOptions, options,
                    optionValues);
}

SHIM_API CUresult cuModuleLoadData(CUmodule* module, const void* image) {
  return cuModuleLoadDataEx(module, image, 0, nullptr, nullptr);
}

SHIM_API CUresult cuModuleLoad(CUmodule* module, const char* fname) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!module || !fname) return CUDA_ERROR_INVALID_VALUE;
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  std::ifstream in(fname, std::ios::binary);
  if (!in) return CUDA_ERROR_FILE_NOT_FOUND;
  std::ostringstream text;
  text << in.rdbuf();
  ++s.modules_loaded;
  std::string bytes = text.str();
  if (bytes.size() < 16) bytes.resize(16, '\0');  // room for the image-kind check; PTX stays NUL-terminated
  return load_image(s, module, bytes.c_str(), fname, 0, nullptr, nullptr);
}

SHIM_API CUresult cuModuleUnload(CUmodule hmod) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!is_live(s, hmod, Kind::Module)) return CUDA_ERROR_INVALID_HANDLE;
  drain_ctx(s, hmod->ctx, true);  // deferred launches of its kernels run first (streams.cpp)
  for (CUfunction f : hmod->funcs) s.live.erase(f);
  drop_refs(s, hmod);
  unload_session_module(s, hmod->m);
  hmod->m = nullptr;
  hmod->ctx->modules.erase(hmod);
  s.live.erase(hmod);
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuModuleGetFunction(CUfunction* hfunc, CUmodule hmod, const char* name) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!hfunc || !name) return CUDA_ERROR_INVALID_VALUE;
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!is_live(s, hmod, Kind::Module)) return CUDA_ERROR_INVALID_HANDLE;
  for (CUfunction f : hmod->funcs)
    if (f->k->name == name) {
      *hfunc = f;
      return CUDA_SUCCESS;
    }
  ptxcheck::interp::SessionKernel* k = hmod->m->kernel(name);
  if (!k) return CUDA_ERROR_NOT_FOUND;
  auto* f = make_handle<CUfunc_st>(s, Kind::Function);
  f->mod = hmod;
  f->k = k;
  hmod->funcs.push_back(f);
  *hfunc = f;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuModuleGetGlobal_v2(CUdeviceptr* dptr, size_t* bytes, CUmodule hmod, const char* name) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!name) return CUDA_ERROR_INVALID_VALUE;
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!is_live(s, hmod, Kind::Module)) return CUDA_ERROR_INVALID_HANDLE;
  const auto* v = hmod->m->var(name);
  if (!v) return CUDA_ERROR_NOT_FOUND;
  if (dptr) *dptr = v->addr;
  if (bytes) *bytes = v->size;
  return CUDA_SUCCESS;
}
