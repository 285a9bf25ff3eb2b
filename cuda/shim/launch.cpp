// Driver API: kernel launches, function attributes, streams and events
// (cuda/README.md). A launch runs to completion inside cuLaunchKernel; a fault
// it reports becomes the context's sticky error, returned by every later
// call on the context (as after a GPU fault), while cuLaunchKernel itself
// returns CUDA_SUCCESS as an asynchronous launch would.
#include <cxxabi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <regex>

#include "cuda/shim/state.hpp"

using namespace shim;
namespace interp = ptxcheck::interp;

namespace {

constexpr uint32_t kDefaultSharedLimit = 48 * 1024;  // without the opt-in attribute

struct DiagCode {
  const char* kind;
  CUresult code;
  bool fatal;
};
constexpr DiagCode kDiagCodes[] = {
#define DIAG_KIND(id, spelling, code, fatal) {spelling, code, fatal},
#include "semantics/interp/diag_kinds.def"
#undef DIAG_KIND
};

const DiagCode* diag_code(const std::string& kind) {
  for (const auto& d : kDiagCodes)
    if (kind == d.kind) return &d;
  return nullptr;
}

std::string coords(const std::array<uint32_t, 3>& a) {
  return "(" + std::to_string(a[0]) + "," + std::to_string(a[1]) + "," + std::to_string(a[2]) + ")";
}

std::string json_str(const std::string& v) {
  std::string o = "\"";
  for (unsigned char ch : v) {
    if (ch == '"' || ch == '\\') o += '\\', o += static_cast<char>(ch);
    else if (ch < 0x20) {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", ch);
      o += b;
    } else o += static_cast<char>(ch);
  }
  return o + "\"";
}

std::string json_dim(const std::array<uint32_t, 3>& a) {
  return "[" + std::to_string(a[0]) + "," + std::to_string(a[1]) + "," + std::to_string(a[2]) + "]";
}

// The CUDA source position of a PTX line of `m` ("" when the PTX has no .loc).
// "file:line:col"; the column is the .loc's (0 when it gives none).
std::string cuda_pos(const CUmod_st& m, uint32_t line, std::string* file = nullptr, uint32_t* cline = nullptr,
                     uint32_t* ccol = nullptr) {
  if (line == 0 || line > m.loc.size()) return "";
  const CUmod_st::Loc& l = m.loc[line - 1];
  auto it = m.loc_files.find(l.file);
  if (l.line == 0 || it == m.loc_files.end()) return "";
  if (file) *file = it->second;
  if (cline) *cline = l.line;
  if (ccol) *ccol = l.col;
  return it->second + ":" + std::to_string(l.line) + ":" + std::to_string(l.col);
}

// A C++ kernel's source name ("scale(float*, float)" for _Z5scalePff).
std::string demangle(const std::string& n) {
  int st = 0;
  char* d = abi::__cxa_demangle(n.c_str(), nullptr, nullptr, &st);
  std::string out = st == 0 && d ? d : n;
  std::free(d);
  return out;
}

// "... at line 34, column 5 ..." (a PTX position in an interpreter message)
// gains the CUDA position of that line.
std::string with_cuda_lines(const CUmod_st& m, const std::string& msg) {
  if (m.loc.empty()) return msg;
  static const std::regex re("at line ([0-9]+)(, column [0-9]+)?");
  std::string out;
  auto it = std::sregex_iterator(msg.begin(), msg.end(), re);
  size_t last = 0;
  for (; it != std::sregex_iterator(); ++it) {
    const auto& mt = *it;
    std::string src = cuda_pos(m, static_cast<uint32_t>(std::stoul(mt[1].str())));
    out += msg.substr(last, mt.position(0) + mt.length(0) - last);
    if (!src.empty()) out += " (" + src + ")";
    last = mt.position(0) + mt.length(0);
  }
  return out + msg.substr(last);
}

// Prints the diagnostics (and appends them to PTXCHECK_SHIM_REPORT) and
// returns the CUresult of the first fatal one.
CUresult outcome(State& s, CUfunction f, const interp::LaunchConfig& cfg, const interp::RunResult& r) {
  CUresult code = CUDA_SUCCESS;
  const uint64_t launch_no = ++s.launches;
  std::string records;
  for (const auto& d : r.diagnostics) {
    const DiagCode* dc = diag_code(d.kind);
    bool fatal = d.severity == "error" && (!dc || dc->fatal);
    const bool first = fatal && code == CUDA_SUCCESS;
    if (first) code = dc ? dc->code : CUDA_ERROR_LAUNCH_FAILED;
    // A failed device assert (machine.cpp, __assertfail): the GPU prints
    // "<file>:<line>: <function>: block: [..], thread: [..] Assertion `<e>`
    // failed." to stderr and the launch fails with CUDA_ERROR_ASSERT.
    static constexpr std::string_view kAssert = "device-side assert: ";
    if (d.kind == interp::diag_kind_name(interp::DiagKind::Trap) && d.message.starts_with(kAssert)) {
      if (first) code = CUDA_ERROR_ASSERT;
      const std::string m = d.message.substr(kAssert.size());
      const size_t at = m.rfind(": Assertion `");
      if (at != std::string::npos) {
        auto br = [](const std::array<uint32_t, 3>& a) {
          return "[" + std::to_string(a[0]) + "," + std::to_string(a[1]) + "," + std::to_string(a[2]) + "]";
        };
        std::fflush(stdout);
        std::fprintf(stderr, "%s: block: %s, thread: %s%s\n", m.substr(0, at).c_str(), br(d.cta).c_str(),
                     br(d.thread).c_str(), m.substr(at + 1).c_str());
      }
    }
    std::string cfile;
    uint32_t cline = 0, ccol = 0;
    std::string src = cuda_pos(*f->mod, d.line, &cfile, &cline, &ccol);
    const std::string kernel = demangle(d.kernel), message = with_cuda_lines(*f->mod, d.message);
    if (!s.dev.report_path.empty())
      records += "{\"launch\":" + std::to_string(launch_no) + ",\"kernel\":" + json_str(kernel) +
                 ",\"kind\":" + json_str(d.kind) + ",\"severity\":" + json_str(d.severity) +
                 ",\"message\":" + json_str(message) + ",\"ptx_file\":" + json_str(d.file) +
                 ",\"ptx_line\":" + std::to_string(d.line) + ",\"ptx_col\":" + std::to_string(d.col) +
                 (src.empty() ? ""
                              : ",\"cuda_file\":" + json_str(cfile) + ",\"cuda_line\":" + std::to_string(cline) +
                                    ",\"cuda_col\":" + std::to_string(ccol)) +
                 ",\"cta\":" + json_dim(d.cta) + ",\"thread\":" + json_dim(d.thread) +
                 ",\"count\":" + std::to_string(d.count) + "}\n";
    if (d.severity != "error" && s.dev.quiet_warnings) continue;
    if (!s.dev.report_path.empty()) continue;  // ptxcheck exec prints the report
    std::string where = d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.col);
    report((src.empty() ? where : src) + ": " + d.severity + ": " + d.kind + ": " + message +
           " (kernel " + kernel + ", CTA " + coords(d.cta) + ", thread " + coords(d.thread) +
           (src.empty() ? "" : ", PTX " + where) + ")" + (d.count > 1 ? " [" + std::to_string(d.count) + " times]" : ""));
  }
  if (code == CUDA_SUCCESS && !r.ok && r.step_limit) code = CUDA_ERROR_LAUNCH_TIMEOUT;
  if (!s.dev.report_path.empty()) {
    std::string launch = "{\"launch\":" + std::to_string(launch_no) + ",\"kernel\":" + json_str(demangle(f->k->name)) +
                         ",\"grid\":" + json_dim(cfg.grid) + ",\"block\":" + json_dim(cfg.block) +
                         ",\"module\":" + json_str(f->mod->m->file) + ",\"result\":" + std::to_string(code) +
                         ",\"diagnostics\":" + std::to_string(r.diagnostics.size()) +
                         ",\"thread_instructions\":" + std::to_string(r.thread_instructions) + "}\n";
    if (std::FILE* out = std::fopen(s.dev.report_path.c_str(), "a")) {
      std::fputs((launch + records).c_str(), out);
      std::fclose(out);
    }
  }
  return code;
}

// The parameter buffer from kernelParams (one pointer per .param, sizes and
// offsets from the kernel's .param list) or from `extra`.
CUresult gather_params(const interp::Program& p, void** kernelParams, void** extra, std::vector<uint8_t>& out) {
  out.assign(p.kparam_bytes, 0);
  if (kernelParams && extra) return CUDA_ERROR_INVALID_VALUE;
  if (extra) {
    const void* buf = nullptr;
    const size_t* size = nullptr;
    for (size_t i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
      if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) buf = extra[i + 1];
      else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) size = static_cast<const size_t*>(extra[i + 1]);
      else return CUDA_ERROR_INVALID_VALUE;
    }
    if (!buf || !size) return p.kparam_bytes ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
    if (*size < p.kparam_bytes) return CUDA_ERROR_INVALID_VALUE;
    if (p.kparam_bytes) std::memcpy(out.data(), buf, p.kparam_bytes);
    return CUDA_SUCCESS;
  }
  if (p.kparams.empty()) return CUDA_SUCCESS;
  if (!kernelParams) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < p.kparams.size(); ++i) {
    if (!kernelParams[i]) return CUDA_ERROR_INVALID_VALUE;
    std::memcpy(out.data() + p.kparams[i].offset, kernelParams[i], p.kparams[i].size);
  }
  return CUDA_SUCCESS;
}

uint32_t dynamic_shared_limit(const CUfunc_st* f) {
  uint32_t stat = f->k->prog.static_shared_bytes;
  if (f->max_dynamic_shared >= 0) return static_cast<uint32_t>(f->max_dynamic_shared);
  return stat >= kDefaultSharedLimit ? 0 : kDefaultSharedLimit - stat;
}

}  // namespace

int shim::max_active_blocks(const CUfunc_st* f, int block_size, size_t dyn) {
  const interp::Program& p = f->k->prog;
  auto prod = [](const std::array<uint32_t, 3>& d) { return static_cast<int>(d[0] * d[1] * d[2]); };
  const int max_threads = p.reqntid[0] ? prod(p.reqntid) : p.maxntid[0] ? prod(p.maxntid) : 1024;
  const size_t stat = p.static_shared_bytes;
  if (block_size <= 0 || block_size > max_threads || stat + dyn > kOptinSharedLimit) return 0;
  const int warps = (block_size + 31) / 32;
  const int by_threads = kThreadsPerSm / (warps * 32);
  const int by_shared = static_cast<int>(kSharedPerSm / (stat + dyn + kReservedPerBlock));
  return std::min({by_threads, by_shared, kBlocksPerSm});
}

// The checks of a launch that do not depend on the stream, and its parameter
// buffer (lock held; f resolved).
CUresult shim::check_launch(State& s, CUcontext c, CUfunction f, const interp::LaunchConfig& cfg, void** kernelParams,
                            void** extra, std::vector<uint8_t>& params) {
  if (f->mod->ctx != c) return CUDA_ERROR_INVALID_HANDLE;
  const auto& g = cfg.grid;
  const auto& b = cfg.block;
  if (!g[0] || !g[1] || !g[2] || !b[0] || !b[1] || !b[2]) return launch_config_error();
  if (g[0] > 0x7fffffffu || g[1] > 65535 || g[2] > 65535 || b[0] > 1024 || b[1] > 1024 || b[2] > 64 ||
      uint64_t{b[0]} * b[1] * b[2] > 1024)
    return launch_config_error();
  if (cfg.cluster[0]) {
    uint64_t n = uint64_t{cfg.cluster[0]} * cfg.cluster[1] * cfg.cluster[2];
    if (s.dev.sm_major < 9) return CUDA_ERROR_NOT_SUPPORTED;  // clusters are sm_90+
    if (n == 0 || n > 8) return CUDA_ERROR_INVALID_CLUSTER_SIZE;  // the portable maximum
  }
  if (cfg.dynamic_shared_bytes > dynamic_shared_limit(f)) return CUDA_ERROR_INVALID_VALUE;
  if (cfg.cooperative) {
    // A cooperative grid must fit on the device at once (CUDA programming
    // guide, "Grid Synchronization": at most the occupancy calculator's
    // blocks per SM times the SM count; the emulated device has one SM).
    if (cfg.cluster[0] && uint64_t{cfg.cluster[0]} * cfg.cluster[1] * cfg.cluster[2] != 1) {
      report("cuLaunchKernelEx(" + f->k->name + "): a cooperative launch with clusters of more than one CTA is not supported");
      return CUDA_ERROR_NOT_SUPPORTED;
    }
    const uint64_t n = uint64_t{g[0]} * g[1] * g[2];
    const int fit = max_active_blocks(f, static_cast<int>(b[0] * b[1] * b[2]), cfg.dynamic_shared_bytes);
    if (n > static_cast<uint64_t>(fit)) {
      report("cooperative launch of " + f->k->name + ": " + std::to_string(n) + " CTAs cannot all be resident at once: " +
             std::to_string(fit) + " fit on the emulated device (1 SM; cudaOccupancyMaxActiveBlocksPerMultiprocessor x "
             "multiProcessorCount)");
      return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
    }
  }
  return gather_params(f->k->prog, kernelParams, extra, params);
}

namespace {

CUresult run_kernel(State& s, CUcontext c, CUfunction f, const interp::LaunchConfig& cfg, CUstream st,
                    std::vector<uint8_t> params, CUevent completion);

// Queues a launch as st's next operation (streams.cpp); `always`: the
// launch spun without effect when it ran now, and is the first of its
// stream's deferred work.
bool defer_launch(State& s, CUcontext c, CUfunction f, const interp::LaunchConfig& cfg, CUstream st,
                  const std::vector<uint8_t>& params, CUevent completion, bool always) {
  auto run = [f, cfg, st, params, completion]() {
    State& s2 = state();
    CUcontext c2 = nullptr;
    if (CUresult r = current(s2, c2)) return r;
    return run_kernel(s2, c2, f, cfg, st, params, completion);
  };
  return defer(s, c, st, "cuLaunchKernel", std::move(run), always) != nullptr;
}

// One launch; `cluster` is {0,0,0} unless the launch sets a cluster shape.
CUresult launch(CUfunction f, const interp::LaunchConfig& cfg, CUstream hStream, void** kernelParams, void** extra,
                CUevent completion) {
  State& s = state();
  std::lock_guard lk(s.mu);
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  if (CUresult r = resolve_function(s, f)) return r;
  if (f->mod->ctx != c) return CUDA_ERROR_INVALID_HANDLE;
  if (!valid_stream(s, hStream, c)) return CUDA_ERROR_INVALID_HANDLE;
  if (completion && !is_live(s, completion, Kind::Event)) return CUDA_ERROR_INVALID_HANDLE;
  std::vector<uint8_t> params;
  if (CUresult r = check_launch(s, c, f, cfg, kernelParams, extra, params)) return r;
  if (capturing(hStream)) {  // a kernel node instead (graph.cpp)
    if (completion) return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    Work w;
    w.type = CU_GRAPH_NODE_TYPE_KERNEL;
    w.ctx = c;
    w.func = f;
    w.cfg = cfg;
    w.params = std::move(params);
    return capture_work(s, hStream, std::move(w));
  }
  if (deferred_on(s, c, hStream) && defer_launch(s, c, f, cfg, hStream, params, completion, false))
    return CUDA_SUCCESS;
  return run_kernel(s, c, f, cfg, hStream, std::move(params), completion);
}

// Runs a checked launch now: its diagnostics are reported and a fatal one
// becomes the context's sticky error. A launch that spins without effect
// (RunResult::spin_without_effect) is deferred instead (streams.cpp): it
// reports nothing, and runs again from its start when its stream is
// synchronised; at its last attempt (final_attempt: nothing else can run)
// or inside a graph launch it reports its livelock.
CUresult run_kernel(State& s, CUcontext c, CUfunction f, const interp::LaunchConfig& cfg, CUstream st,
                    std::vector<uint8_t> params, CUevent completion) {
  std::vector<uint8_t> kept;
  if (defer_allowed()) kept = params;  // for the launch's next attempt
  interp::RunResult res;
  host_ranges_to_device(s);
  try {
    interp::RunOptions opt = s.dev.run;
    opt.textures = &s.textures;
    res = s.session->launch(*f->mod->m, *f->k, cfg, std::move(params), opt);
    host_ranges_from_device(s);
  } catch (const ptxcheck::InputError& e) {  // launch configuration the kernel refuses
    report("cuLaunchKernel(" + f->k->name + "): " + e.what());
    return std::string_view(e.what()).find("cluster") != std::string_view::npos ? CUDA_ERROR_INVALID_CLUSTER_SIZE
                                                                         : CUDA_ERROR_INVALID_VALUE;
  } catch (const ptxcheck::LimitError& e) {
    report("cuLaunchKernel(" + f->k->name + "): " + e.what());
    return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
  } catch (const std::bad_alloc&) {
    return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
  }
  if (res.spin_without_effect && defer_allowed()) {
    if (s.dev.trace)
      std::fprintf(stderr, "ptxcheck-shim: %s: spins before it changes anything; deferred until its stream is synchronised\n",
                   f->k->name.c_str());
    if (running_deferred())
      blocked();
    else
      defer_launch(s, c, f, cfg, st, kept, completion, true);
    return CUDA_SUCCESS;
  }
  if (!res.printf_output.empty()) std::fwrite(res.printf_output.data(), 1, res.printf_output.size(), stdout);
  if (s.dev.trace)
    std::fprintf(stderr, "ptxcheck-shim: %s: CTAs ran %s; %llu thread instructions\n", f->k->name.c_str(),
                 res.schedule.c_str(), static_cast<unsigned long long>(res.thread_instructions));
  c->sticky = outcome(s, f, cfg, res);
  if (completion) {
    completion->recorded = true;
    completion->when = std::chrono::steady_clock::now();
  }
  return CUDA_SUCCESS;
}

}  // namespace

CUresult shim::launch_buffer(CUfunction f, const interp::LaunchConfig& cfg, CUstream st, std::vector<uint8_t> params) {
  size_t size = params.size();
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, params.data(), CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                   CU_LAUNCH_PARAM_END};
  return launch(f, cfg, st, nullptr, extra, nullptr);
}

SHIM_API CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
                                 unsigned int by, unsigned int bz, unsigned int sharedMemBytes, CUstream hStream,
                                 void** kernelParams, void** extra) {
  interp::LaunchConfig cfg;
  cfg.grid = {gx, gy, gz};
  cfg.block = {bx, by, bz};
  cfg.dynamic_shared_bytes = sharedMemBytes;
  return launch(f, cfg, hStream, kernelParams, extra, nullptr);
}

// Attributes: a cluster shape; hints (priority, access policy, scheduling and
// memory-synchronisation preferences) are accepted and ignored; programmatic
// dependent launch is trivially satisfied (every launch has finished before
// the next starts). A cooperative launch runs all its CTAs at once, with a
// grid workspace for grid-wide barriers (docs/interpreter.md).
SHIM_API CUresult cuLaunchKernelEx(const CUlaunchConfig* config, CUfunction f, void** kernelParams, void** extra) {
  if (!config || (config->numAttrs && !config->attrs)) return CUDA_ERROR_INVALID_VALUE;
  interp::LaunchConfig cfg;
  cfg.grid = {config->gridDimX, config->gridDimY, config->gridDimZ};
  cfg.block = {config->blockDimX, config->blockDimY, config->blockDimZ};
  cfg.dynamic_shared_bytes = config->sharedMemBytes;
  CUevent completion = nullptr;
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const CUlaunchAttribute& a = config->attrs[i];
    switch (a.id) {
      case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
        cfg.cluster = {a.value.clusterDim.x, a.value.clusterDim.y, a.value.clusterDim.z};
        if (!cfg.cluster[0] || !cfg.cluster[1] || !cfg.cluster[2]) return CUDA_ERROR_INVALID_CLUSTER_SIZE;
        break;
      case CU_LAUNCH_ATTRIBUTE_COOPERATIVE: cfg.cooperative = a.value.cooperative != 0; break;
      case CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT: completion = a.value.launchCompletionEvent.event; break;
      case CU_LAUNCH_ATTRIBUTE_IGNORE:
      case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
      case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
      case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
      case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION:
      case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT:
      case CU_LAUNCH_ATTRIBUTE_PRIORITY:
      case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
      case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
      case CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION: break;
      default: return CUDA_ERROR_INVALID_VALUE;
    }
  }
  return launch(f, cfg, config->hStream, kernelParams, extra, completion);
}

// ---- function attributes -------------------------------------------------------------

SHIM_API CUresult cuFuncGetAttribute(int* pi, CUfunction_attribute attrib, CUfunction f) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!pi) return CUDA_ERROR_INVALID_VALUE;
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (CUresult r = resolve_function(s, f)) return r;
  const interp::Program& p = f->k->prog;
  const interp::Function& kf = p.funcs[p.kernel];
  auto prod = [](const std::array<uint32_t, 3>& d) { return static_cast<int>(d[0] * d[1] * d[2]); };
  switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
      *pi = p.reqntid[0] ? prod(p.reqntid) : p.maxntid[0] ? prod(p.maxntid) : 1024;
      break;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = static_cast<int>(p.static_shared_bytes); break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *pi = static_cast<int>(p.const_bytes.size()); break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *pi = static_cast<int>(kf.frame_bytes); break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *pi = static_cast<int>(kf.nregs); break;  // interpreter slots
    case CU_FUNC_ATTRIBUTE_PTX_VERSION: *pi = static_cast<int>(f->mod->m->ptx_version); break;
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *pi = s.dev.sm_major * 10 + s.dev.sm_minor; break;
    case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *pi = 0; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *pi = static_cast<int>(dynamic_shared_limit(f)); break;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *pi = -1; break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET: *pi = p.explicitcluster; break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH: *pi = static_cast<int>(p.reqnctapercluster[0]); break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT: *pi = static_cast<int>(p.reqnctapercluster[1]); break;
    case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH: *pi = static_cast<int>(p.reqnctapercluster[2]); break;
    case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED: *pi = 0; break;
    case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE: *pi = 0; break;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute attrib, int value) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (CUresult r = resolve_function(s, f)) return r;
  switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
      if (value < 0 || uint64_t(value) + f->k->prog.static_shared_bytes > kOptinSharedLimit)
        return CUDA_ERROR_INVALID_VALUE;
      f->max_dynamic_shared = value;
      return CUDA_SUCCESS;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
      return value >= -1 && value <= 100 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
}

// ---- streams -------------------------------------------------------------------------------

SHIM_API CUresult cuStreamCreate(CUstream* ph, unsigned int flags) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!ph) return CUDA_ERROR_INVALID_VALUE;
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  if (flags & ~static_cast<unsigned>(CU_STREAM_NON_BLOCKING)) return CUDA_ERROR_INVALID_VALUE;
  auto* st = make_handle<CUstream_st>(s, Kind::Stream);
  st->ctx = c;
  st->flags = flags;
  c->streams.insert(st);
  *ph = st;
  return CUDA_SUCCESS;
}

namespace {
CUresult stream_done(CUstream h, bool sync) {
  State& s = state();
  std::lock_guard lk(s.mu);
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  if (!valid_stream(s, h, c)) return CUDA_ERROR_INVALID_HANDLE;
  if (capturing(h)) {  // not legal while capturing; it invalidates the capture (CUDA graphs guide)
    h->capture->invalidated = true;
    return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  }
  // Deferred work of the stream runs now (streams.cpp); a query that finds
  // some left answers NOT_READY, a synchronisation reports a hang.
  if (!drain_stream(s, c, h, sync)) return CUDA_ERROR_NOT_READY;
  if (c->sticky) return c->sticky;
  if (sync) release_pools(s);  // memory pools release memory above their threshold (mempool.cpp)
  return CUDA_SUCCESS;
}
}  // namespace

SHIM_API CUresult cuStreamSynchronize(CUstream h) { return stream_done(h, true); }
SHIM_API CUresult cuStreamQuery(CUstream h) { return stream_done(h, false); }

SHIM_API CUresult cuStreamDestroy_v2(CUstream h) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!is_live(s, h, Kind::Stream)) return CUDA_ERROR_INVALID_HANDLE;
  if (h->ctx->sticky) return h->ctx->sticky;  // a faulted context keeps its streams and events
  // Work of the stream that is deferred still runs; the stream is released
  // when it is done (streams.cpp), as the driver releases it "once the
  // device has completed all work in hStream".
  if (has_deferred_work(s, h)) {
    h->destroyed = true;
    return CUDA_SUCCESS;
  }
  h->ctx->streams.erase(h);
  s.live.erase(h);
  return CUDA_SUCCESS;
}

// ---- events (host time: the work before a record has finished when it is taken) -------------

SHIM_API CUresult cuEventCreate(CUevent* ph, unsigned int flags) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!ph) return CUDA_ERROR_INVALID_VALUE;
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  if (flags & ~0x7u) return CUDA_ERROR_INVALID_VALUE;
  auto* e = make_handle<CUevent_st>(s, Kind::Event);
  e->ctx = c;
  e->flags = flags;
  c->events.insert(e);
  *ph = e;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuEventRecord(CUevent e, CUstream h) {
  State& s = state();
  std::lock_guard lk(s.mu);
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  if (!is_live(s, e, Kind::Event) || !valid_stream(s, h, c)) return CUDA_ERROR_INVALID_HANDLE;
  if (capturing(h)) {  // the event marks the capture point; a stream waiting on it joins the capture
    if (h->capture->invalidated) return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    e->capture = h->capture;
    e->capture_deps = h->capture_deps;
    return CUDA_SUCCESS;
  }
  e->capture.reset();
  e->capture_deps.clear();
  // After deferred work of the stream: the event completes with it.
  if (auto p = defer(s, c, h, "cuEventRecord", [] { return CUDA_SUCCESS; })) {
    p->records = e;
    e->pending = p;
    return CUDA_SUCCESS;
  }
  e->pending.reset();
  e->recorded = true;
  e->when = std::chrono::steady_clock::now();
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuEventQuery(CUevent e) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!is_live(s, e, Kind::Event)) return CUDA_ERROR_INVALID_HANDLE;
  if (!drain_event(s, e, false)) return e->ctx->sticky ? e->ctx->sticky : CUDA_ERROR_NOT_READY;
  return e->ctx->sticky;
}

SHIM_API CUresult cuEventSynchronize(CUevent e) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!is_live(s, e, Kind::Event)) return CUDA_ERROR_INVALID_HANDLE;
  if (e->ctx->sticky) return e->ctx->sticky;
  drain_event(s, e, true);
  if (e->ctx->sticky) return e->ctx->sticky;
  release_pools(s);
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuEventElapsedTime_v2(float* ms, CUevent start, CUevent end) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!ms) return CUDA_ERROR_INVALID_VALUE;
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!is_live(s, start, Kind::Event) || !is_live(s, end, Kind::Event)) return CUDA_ERROR_INVALID_HANDLE;
  if ((start->flags | end->flags) & CU_EVENT_DISABLE_TIMING) return CUDA_ERROR_INVALID_HANDLE;
  // "If cuEventRecord() has been called on either event but the event has
  // not yet been completed, this function returns CUDA_ERROR_NOT_READY."
  if ((start->pending && !start->pending->done) || (end->pending && !end->pending->done)) return CUDA_ERROR_NOT_READY;
  if (!start->recorded || !end->recorded) return CUDA_ERROR_INVALID_HANDLE;
  *ms = std::chrono::duration<float, std::milli>(end->when - start->when).count();
  return CUDA_SUCCESS;
}

// The CUDA <= 12 name of the same entry point.
#undef cuEventElapsedTime
SHIM_API CUresult cuEventElapsedTime(float* ms, CUevent start, CUevent end) {
  return cuEventElapsedTime_v2(ms, start, end);
}

SHIM_API CUresult cuEventDestroy_v2(CUevent e) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!is_live(s, e, Kind::Event)) return CUDA_ERROR_INVALID_HANDLE;
  if (e->ctx->sticky) return e->ctx->sticky;
  e->ctx->events.erase(e);
  s.live.erase(e);
  return CUDA_SUCCESS;
}
