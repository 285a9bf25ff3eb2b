// Internal state of the driver-API shim (libcuda.so.1 over the ptxcheck
// interpreter). Every exported function takes the one global lock (a
// recursive one: deferred work runs through the entry points while a
// synchronising call holds it), so the shim is thread-safe by serialisation.
// Work runs synchronously when it is issued, unless its stream waits for
// deferred work (streams.cpp): a launch that spins without effect, a stream
// wait whose condition does not hold yet, and the work queued behind them.
//
// Handles are pointers to the structs below. A handle is only dereferenced
// after it is found in `live` (so a stale, foreign or garbage handle yields
// an error code, never a crash), and handle memory is never freed or reused,
// so a destroyed handle cannot alias a new one.
#pragma once
#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "cuda/include/cuda.h"
#include "semantics/interp/session.hpp"
#include "semantics/interp/texture.hpp"

struct CUctx_st {
  bool primary = false;
  unsigned flags = 0;
  CUresult sticky = CUDA_SUCCESS;  // a fault of an earlier launch (GPU semantics)
  std::set<CUmodule> modules;
  std::set<uint64_t> allocs;
  std::set<CUstream> streams;
  std::set<CUevent> events;
  std::vector<std::pair<void*, void*>> local_storage;  // libcudart's per-context state (key, value)
  std::set<CUarray> arrays;
  std::set<CUmipmappedArray> mipmaps;
  std::set<uint64_t> textures;  // texture and surface object handles (State::textures)
  unsigned attached = 0;        // cuCtxAttach calls not yet matched by cuCtxDetach (legacy.cpp)
};

// A CUDA array (cuArrayCreate, cuArray3DCreate): a dense global allocation,
// rows of Width * element bytes, Height rows per slice, Depth slices (or
// layers).
struct CUarray_st {
  CUcontext ctx = nullptr;
  CUDA_ARRAY3D_DESCRIPTOR desc{};
  uint64_t addr = 0, elem = 0, pitch = 0, slice = 0;
  CUmipmappedArray owner = nullptr;  // a level of this mipmapped array (freed with it)
};

// A mipmapped array (cuMipmappedArrayCreate): one dense global allocation
// holding its levels one after another (semantics/interp/texture.hpp
// tex_mip_levels); each level is also a CUarray (cuMipmappedArrayGetLevel).
struct CUmipmappedArray_st {
  CUcontext ctx = nullptr;
  CUDA_ARRAY3D_DESCRIPTOR desc{};  // level 0
  uint64_t addr = 0;
  std::vector<ptxcheck::interp::TexLevel> levels;
  std::vector<CUarray> level_arrays;
};

// A module's .texref or .surfref variable (cuModuleGetTexRef,
// cuModuleGetSurfRef): the state the deprecated cuTexRefSet*/cuSurfRefSet*
// calls give it. Once a resource is bound, State::textures holds `desc`
// under the variable's address, which is how the interpreter finds it
// (semantics/interp/texture.hpp).
struct CUref_st {
  CUmodule mod = nullptr;
  uint64_t var = 0;    // the variable's global address
  bool bound = false;  // a resource is set
  ptxcheck::interp::TexDesc desc;
  unsigned flags = 0;            // CU_TRSF_*
  int format = 0, channels = 0;  // cuTexRefSetFormat (0: not set)
  CUDA_RESOURCE_DESC res{};      // the bound resource (cuTexRefGet*, cuSurfRefGetArray)
  unsigned max_aniso = 0;        // cuTexRefSetMaxAnisotropy (0 or 1; more is refused)
};
struct CUtexref_st : CUref_st {};
struct CUsurfref_st : CUref_st {};

struct CUmod_st {
  CUcontext ctx = nullptr;
  ptxcheck::interp::SessionModule* m = nullptr;
  std::vector<CUref_st*> refs;    // made on first cuModuleGetTexRef/SurfRef
  std::vector<CUfunction> funcs;  // created on first cuModuleGetFunction
  // CUDA source positions from the PTX's .loc/.file directives (nvcc
  // -lineinfo or -G): for each PTX line, the .file index and line of the
  // .loc in force there (index 0: none), and its column (0: not given).
  struct Loc {
    uint32_t file = 0, line = 0, col = 0;
  };
  std::vector<Loc> loc;
  std::map<uint32_t, std::string> loc_files;
};

struct CUfunc_st {
  CUmodule mod = nullptr;
  ptxcheck::interp::SessionKernel* k = nullptr;
  int max_dynamic_shared = -1;  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES (-1: default)
  // The deprecated execution control (legacy.cpp): cuFuncSetBlockShape,
  // cuFuncSetSharedSize and the parameter bytes of cuParamSet*, which
  // cuLaunchGrid passes as CU_LAUNCH_PARAM_BUFFER_POINTER.
  unsigned block[3] = {0, 0, 0};
  unsigned shared_bytes = 0;
  std::vector<uint8_t> params;
};

namespace shim {
struct Capture;
// An operation of a stream deferred until the work it waits for can finish
// (streams.cpp): its stream (CU_STREAM_LEGACY for the NULL stream), the
// deferred operations it waits for, and what it does, run later through the
// same entry point with the lock held.
struct Pending {
  CUcontext ctx = nullptr;
  CUstream stream = nullptr;
  std::thread::id thread;  // the issuing thread (CU_STREAM_PER_THREAD is each thread's own)
  std::vector<std::shared_ptr<Pending>> deps;
  std::function<CUresult()> run;
  CUevent records = nullptr;  // an event record: the event completes with it
  std::string what;           // the entry point, for messages
  bool done = false;
};
}  // namespace shim

struct CUstream_st {
  CUcontext ctx = nullptr;
  unsigned flags = 0;
  int priority = 0;
  unsigned long long id = 0;
  // Stream capture (graph.cpp): the capture sequence this stream takes part
  // in, and the nodes the next captured operation depends on.
  std::shared_ptr<shim::Capture> capture;
  std::vector<CUgraphNode> capture_deps;
  bool destroyed = false;  // cuStreamDestroy while work of it is deferred: released when that is done
};

// A library (cuLibraryLoadData): context-independent code, loaded as a
// module into each context that uses it (on first use there).
struct CUlib_st {
  std::string ptx;   // the PTX the interpreter runs (chosen from a fatbin)
  std::string name;  // module name in diagnostics
  std::vector<std::pair<CUcontext, CUmodule>> per_ctx;
  std::vector<CUkernel> kernels;  // created on first cuLibraryGetKernel
  std::vector<std::string> kernel_names;
};

// A pending JIT link (link.cpp): its PTX inputs and the output options of
// cuLinkCreate, which stay the caller's until cuLinkDestroy.
struct CUlinkState_st {
  CUcontext ctx = nullptr;
  std::vector<CUjit_option> options;
  void** values = nullptr;                                  // the caller's (the driver writes logs and wall time there)
  std::vector<std::pair<std::string, std::string>> inputs;  // (name, PTX text)
  std::vector<std::unique_ptr<std::string>> images;         // what cuLinkComplete returned, until cuLinkDestroy
  std::string info_log, error_log;
  uintptr_t info_cap = 0, error_cap = 0;  // the log buffers' sizes given to cuLinkCreate
  double ms = 0;                          // time spent linking (CU_JIT_WALL_TIME)
};

struct CUkern_st {
  CUlibrary lib = nullptr;
  std::string name;
};

struct CUevent_st {
  CUcontext ctx = nullptr;
  unsigned flags = 0;
  bool recorded = false;
  std::chrono::steady_clock::time_point when;
  // Last recorded in a capturing stream (graph.cpp): that capture and the
  // nodes a stream waiting on the event joins at.
  std::shared_ptr<shim::Capture> capture;
  std::vector<CUgraphNode> capture_deps;
  // Last recorded in a stream whose work is deferred: that record, until it
  // is done (streams.cpp).
  std::shared_ptr<shim::Pending> pending;
};

namespace shim {
// The work of a graph node (graph.cpp): what the operation would have done
// when it was issued to a stream, with its arguments copied.
struct Work {
  CUgraphNodeType type = CU_GRAPH_NODE_TYPE_EMPTY;
  CUcontext ctx = nullptr;
  // kernel
  CUfunction func = nullptr;
  ptxcheck::interp::LaunchConfig cfg;
  std::vector<uint8_t> params;  // the kernel's parameter buffer
  // memcpy
  CUDA_MEMCPY3D copy{};
  // memset
  CUDA_MEMSET_NODE_PARAMS memset{};
  // host function (a stream callback keeps its own signature)
  CUhostFn fn = nullptr;
  CUstreamCallback callback = nullptr;
  void* user = nullptr;
  // child graph, event record/wait
  CUgraph child = nullptr;
  CUevent event = nullptr;
  // memory allocation (alloc.dptr: the address fixed when the node was made;
  // access: the node's copy of alloc.accessDescs) and free (free_ptr)
  CUDA_MEM_ALLOC_NODE_PARAMS alloc{};
  std::vector<CUmemAccessDesc> access;
  CUdeviceptr free_ptr = 0;
  // conditional (graph.cpp): cond.phGraph_out is unused here; the bodies are
  // graphs the node owns
  CUDA_CONDITIONAL_NODE_PARAMS cond{};
  std::vector<CUgraph> bodies;
};
}  // namespace shim

struct CUgraphNode_st {
  CUgraph graph = nullptr;
  shim::Work work;
  std::vector<CUgraphNode> deps;  // incoming edges, in the order added
  CUgraphNode cloned_from = nullptr;
  std::vector<void*> param_ptrs;  // cuGraphKernelNodeGetParams: one pointer per kernel parameter
};

struct CUgraph_st {
  CUcontext ctx = nullptr;
  std::vector<CUgraphNode> nodes;  // creation order
  CUgraph cloned_from = nullptr;
};

// An instantiated graph: its nodes' work in a topological order (ties in
// creation order), fixed at instantiation; a child graph node carries its
// graph instantiated, a conditional node its bodies.
struct CUgraphExec_st {
  struct Step {
    CUgraphNode node = nullptr;  // the node of the instantiated graph (for cuGraphExec*SetParams)
    shim::Work work;
    std::shared_ptr<CUgraphExec_st> child;
    std::vector<std::shared_ptr<CUgraphExec_st>> bodies;  // a conditional node's bodies, instantiated
    // The topology at instantiation (cuGraphExecUpdate pairs nodes by it): the
    // node's place in its graph's creation order, and the steps it depended
    // on (indices into `order`), in edge order.
    size_t created = 0;
    std::vector<size_t> deps;
  };
  CUcontext ctx = nullptr;
  CUgraph graph = nullptr;  // the graph instantiated
  std::vector<Step> order;
  cuuint64_t flags = 0;  // CUDA_GRAPH_INSTANTIATE_FLAG_*
};

// A memory pool (mempool.cpp): the device's default pool or one made by
// cuMemPoolCreate. Stream-ordered allocations take fresh addresses (so a use
// after cuMemFreeAsync is an out-of-bounds diagnostic); the pool accounts for
// its backing memory as the driver documents: freed bytes stay reserved for
// reuse until a synchronisation releases what exceeds the release threshold,
// or cuMemPoolTrimTo.
struct CUmemPoolHandle_st {
  CUmemPoolProps props{};
  bool is_default = false;
  cuuint64_t threshold = 0;  // CU_MEMPOOL_ATTR_RELEASE_THRESHOLD
  int reuse_follow = 1, reuse_opportunistic = 1, reuse_internal = 1;
  cuuint64_t reserved = 0, reserved_high = 0, used = 0, used_high = 0;
};

namespace shim {

enum class Kind : uint8_t {
  Ctx,
  Module,
  Function,
  Stream,
  Event,
  Library,
  Kernel,
  Array,
  Mipmap,
  TexRef,
  SurfRef,
  Graph,
  GraphNode,
  GraphExec,
  MemPool,
  Link
};

struct Device {
  int sm_major = 9, sm_minor = 0;    // PTXCHECK_SHIM_SM ("90", "9.0", "sm_90")
  uint64_t total_mem = 4ull << 30;   // PTXCHECK_SHIM_MEM_MB
  ptxcheck::interp::RunOptions run;  // PTXCHECK_SHIM_MAX_STEPS, PTXCHECK_SHIM_RACES
  bool quiet_warnings = false;       // PTXCHECK_SHIM_QUIET=1: only fatal diagnostics
  bool trace = false;                // PTXCHECK_SHIM_TRACE=1: log entry-point look-ups
  std::string report_path;           // PTXCHECK_SHIM_REPORT: JSON lines per launch (ptxcheck exec)
  std::string ptx_dir;               // PTXCHECK_SHIM_PTX_DIR: write each module's PTX there
};

struct State {
  std::recursive_mutex mu;
  bool initialized = false;
  Device dev;
  std::unique_ptr<ptxcheck::interp::Session> session;
  std::unordered_map<const void*, Kind> live;
  CUcontext primary = nullptr;  // created on first retain, kept (reset on release to 0)
  int primary_refs = 0;
  uint32_t modules_loaded = 0;                 // names "<module N>" for cuModuleLoadData
  uint64_t launches = 0;                       // numbers launches in reports
  std::vector<std::shared_ptr<void>> handles;  // every handle ever made (never freed, see above)
  ptxcheck::interp::TexTable textures;         // live texture and surface objects (texture.cpp)
  uint64_t next_texture = 1;                   // handles are never reused
  // Stream-ordered allocation (mempool.cpp): the device's default and
  // current pools, and each live allocation's pool and size.
  CUmemoryPool default_pool = nullptr, current_pool = nullptr;
  std::map<uint64_t, std::pair<CUmemoryPool, uint64_t>> pool_allocs;
  // Graph allocations (graph.cpp), by address, and the device's graph memory
  // (CU_GRAPH_MEM_ATTR_*): the bytes of live graph allocations, and the
  // physical memory associated with graphs (at least those; what a launch
  // mapped stays with the graphs for their next launches until
  // cuDeviceGraphMemTrim). Launches never overlap here, so the memory
  // associated with graphs (USED) is all the graph allocator holds (RESERVED).
  struct GraphAlloc {
    uint64_t bytes = 0;
    CUgraph owner = nullptr;       // the graph of its allocation node
    CUgraphNode node = nullptr;    // that node
    bool freed_in_owner = false;   // a free node in the owning graph
    bool freed_elsewhere = false;  // a free node in another graph
    bool live = false;             // allocated by a launch and not freed since
  };
  std::map<uint64_t, GraphAlloc> graph_allocs;
  cuuint64_t graph_live = 0, graph_used_high = 0, graph_reserved = 0, graph_reserved_high = 0;
  std::vector<std::shared_ptr<Pending>> pending;  // deferred work in issue order (streams.cpp)
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
// The calling thread's current context's sticky error; CUDA_SUCCESS when it
// has none or no context is current. For the calls that release memory
// without naming a context (cuMemFreeHost, cuMemHostUnregister).
CUresult current_sticky(State& s);
// The state and its lock, held by an entry point while it runs.
struct Locked {
  State& s = state();
  std::lock_guard<std::recursive_mutex> lk{s.mu};
};
// The checks of an entry point that names a device, under the lock: `r` is
// NOT_INITIALIZED before cuInit, INVALID_DEVICE for a device other than 0
// (the only one), else CUDA_SUCCESS.
struct DeviceEntry : Locked {
  CUresult r;
  explicit DeviceEntry(CUdevice dev)
      : r(!s.initialized ? CUDA_ERROR_NOT_INITIALIZED
          : dev != 0     ? CUDA_ERROR_INVALID_DEVICE
                         : CUDA_SUCCESS) {}
};
bool valid_stream(State& s, CUstream st, CUcontext c);
// Releases everything a context owns (modules, allocations, streams, events).
void release_resources(State& s, CUcontext c);
// Prints "ptxcheck-shim: " + msg to stderr.
void report(const std::string& msg);
// MD2 (RFC 1319), for the runtime's integrity check (integrity.cpp).
class Md2 {
 public:
  void update(const void* data, size_t n);
  std::array<uint8_t, 16> digest();  // pads and finishes; the object is spent

 private:
  void compress();
  uint8_t state_[16] = {}, checksum_[16] = {}, block_[16] = {};
  uint8_t last_ = 0;
  unsigned fill_ = 0;
};
// The private tables of cuGetExportTable (proc.cpp, integrity.cpp).
const void* const* cudart_interface();
// Whether the CUDA runtime (libcudart) drives this process: it asked for the
// "cudart interface" export table (proc.cpp). NVIDIA's driver gives the
// runtime's launches with impossible dimensions the code the runtime reports
// as cudaErrorInvalidConfiguration (9), and driver-API callers
// CUDA_ERROR_INVALID_VALUE; launch_config_error() picks between them.
bool runtime_attached();
CUresult launch_config_error();
const void* const* integrity_table();

// The device's primary context, created (not retained) on first use.
CUcontext primary_ctx(State& s);
// The device's architecture number (90 for sm_90).
inline unsigned device_arch(const State& s) { return unsigned(s.dev.sm_major * 10 + s.dev.sm_minor); }
// With PTXCHECK_SHIM_PTX_DIR (exec --ptx-dir): writes the PTX there and
// returns that file's path, so that messages name a file that can be opened;
// else returns label.
std::string write_ptx_file(const State& s, const std::string& label, const std::string& text);
// Loads PTX text as a module of context `into`, or of the current context
// when it is null (lock held).
CUresult load_ptx(CUmodule* module, const std::string& text, const std::string& name, unsigned nopt,
                  CUjit_option* options, void** values, CUcontext into = nullptr);
// The PTX the interpreter runs for a module image (PTX text, fatbin container
// or wrapper), or an error code (the reason is reported; library.cpp).
CUresult image_ptx(const State& s, const void* image, const std::string& name, std::string& ptx, std::string& label);
// The JIT log options of cuModuleLoadDataEx and cuLinkCreate: writes `text`
// (cut to fit, NUL-terminated) into the (buffer, size in/out) pair named by
// buf_opt and size_opt, and the bytes written, NUL included, into the size's
// value (memory.cpp).
void write_log(unsigned n, CUjit_option* options, void** values, CUjit_option buf_opt, CUjit_option size_opt,
               const std::string& text);
// Loads PTX text, a fatbin container or wrapper (choosing its PTX), into the
// current context (lock held). `name` names the module in diagnostics.
CUresult load_image(State& s, CUmodule* module, const void* image, const std::string& name, unsigned nopt,
                    CUjit_option* options, void** values);
// A kernel handle passed where a CUfunction is expected (CUDA 12 allows
// that): the function of the kernel in the current context (lock held).
CUresult resolve_function(State& s, CUfunction& f);
// Occupancy on the emulated device, one SM with sm_90's per-SM limits
// (launch.cpp): the CTAs of `f` with `block_size` threads and `dyn` bytes of
// dynamic shared memory that fit on an SM at once; 0 when one does not fit.
int max_active_blocks(const CUfunc_st* f, int block_size, size_t dyn);
inline constexpr int kThreadsPerSm = 2048, kBlocksPerSm = 32;
inline constexpr size_t kSharedPerSm = 228 * 1024, kReservedPerBlock = 1024;
inline constexpr uint32_t kOptinSharedLimit = 227 * 1024;  // sm_90 opt-in maximum per block
// Host-visible memory (hostmem.cpp): managed, page-locked and registered
// host memory, which kernels reach at its host address. Its host bytes are
// copied into the interpreter's allocation at the same address before each
// launch, and the bytes the launch changed are copied back after it; a
// registered range whose host pages are gone is dropped with a message.
void host_ranges_to_device(State& s);
void host_ranges_from_device(State& s);
bool is_managed(const State& s, uint64_t addr, uint64_t n);
// The host bytes behind n device bytes at `addr` when they lie in
// host-visible memory (current between launches); nullptr otherwise.
uint8_t* host_side(const State& s, uint64_t addr, uint64_t n);
// cuPointerGetAttribute for page-locked or registered memory: true, with
// the answer in `res`, when `ptr` lies in such memory.
bool host_pointer_attribute(State& s, void* data, CUpointer_attribute attribute, uint64_t ptr, CUresult& res);
// The device memory of a live array for a 2D/3D copy: its address, row
// pitch and rows per slice (texture.cpp); false for anything else.
bool array_side(State& s, CUarray a, CUdeviceptr& dev, size_t& pitch, size_t& height);
// Forgets a module's texture and surface references (texture.cpp).
void drop_refs(State& s, CUmodule m);
// Unmaps the host side of a managed allocation (no-op for other addresses).
void release_managed(uint64_t addr);
// Discarded managed memory (cuMemDiscardBatchAsync: "Reading from a
// discarded range, without a subsequent write or prefetch to that part of the
// range, will return an indeterminate value"; hostmem.cpp): the aligned
// 8-byte words inside [addr, addr + n) get fresh contents (a pattern), and
// until a write (by a kernel, a copy, a memset or the host) or a prefetch
// reaches them, a kernel's load of them is an uninitialised read.
void discard_managed(State& s, uint64_t addr, uint64_t n);
void prefetch_managed(State& s, uint64_t addr, uint64_t n);
// Frees the page-locked memory and unregisters the registered ranges that
// context c made (its managed memory goes with c->allocs).
void release_host_ranges(State& s, CUcontext c);
// A module's managed variables (.global with .attribute(.managed), CUDA's
// __managed__; PTX ISA 5.4.8): host pages are mapped at each variable's
// device address and hold its initial value, and the variable is a managed
// host-visible range (hostmem.cpp). CUDA_ERROR_OUT_OF_MEMORY with a message
// when the pages cannot be mapped there (lock held).
CUresult map_module_managed(State& s, const ptxcheck::interp::SessionModule& m);
// Unloads a module from the session, first unmapping its managed variables
// (every module unload goes through here; lock held). With `retire` (its
// context is destroyed: cuCtxDestroy, cudaDeviceReset) their host pages stay
// mapped until a later module is mapped over them (hostmem.cpp).
void unload_session_module(State& s, ptxcheck::interp::SessionModule* m, bool retire = false);

// ---- stream-ordered allocation (mempool.cpp) ---------------------------------
// The device's default pool, made on first use (lock held).
CUmemoryPool default_pool(State& s);
// Frees a stream-ordered or graph allocation at `addr` (lock held); false if
// `addr` is neither.
bool free_async_alloc(State& s, uint64_t addr);
// A synchronisation (stream, event, context): each pool releases the
// reserved memory above its release threshold.
void release_pools(State& s);
// A device reset: every stream-ordered and graph allocation is freed and the
// pools' and graphs' memory counters start again.
void reset_async_allocs(State& s);
// Idle reserved memory of all pools and graphs (counted as used by
// cuMemGetInfo).
uint64_t pools_idle(const State& s);

// ---- stream capture (graph.cpp) --------------------------------------------
// A capture sequence: cuStreamBeginCapture on `origin` until
// cuStreamEndCapture there; streams join it by waiting on an event recorded in
// it.
struct Capture {
  CUgraph graph = nullptr;
  CUstream origin = nullptr;
  CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_GLOBAL;
  uint64_t id = 0;
  bool invalidated = false;
  bool into_graph = false;     // cuStreamBeginCaptureToGraph: the caller's graph
  std::set<CUstream> streams;  // every stream taking part, origin included
};
// Whether work issued to `st` is captured rather than run (lock held).
inline bool capturing(CUstream st) { return st && st != CU_STREAM_LEGACY && st != CU_STREAM_PER_THREAD && st->capture; }
// Adds `w` to st's capture graph after the stream's current dependencies,
// which become the new node (lock held). The error of an invalidated capture.
CUresult capture_work(State& s, CUstream st, Work w);
// Whether `st` is a live capturing stream (takes the lock).
bool stream_capturing(CUstream st);
// cuMemAllocAsync and cuMemFreeAsync on a capturing stream: an allocation
// node with the pool's properties, a free node of a graph allocation (lock
// held).
CUresult capture_alloc(State& s, CUstream st, CUmemoryPool pool, size_t bytes, CUdeviceptr* dptr);
CUresult capture_free(State& s, CUstream st, CUdeviceptr dptr);
// Backs or frees a graph allocation (lock held).
CUresult graph_alloc_now(State& s, uint64_t addr);
bool graph_free_now(State& s, uint64_t addr);
// cuStreamWaitEvent: joins st to the capture the event was recorded in, or
// checks the handles (takes the lock).
CUresult stream_wait_event(CUstream st, CUevent e, unsigned flags);
// The stream-independent checks of launching f (lock held, f resolved,
// c current) and its parameter buffer from kernelParams or extra (launch.cpp).
CUresult check_launch(State& s, CUcontext c, CUfunction f, const ptxcheck::interp::LaunchConfig& cfg,
                      void** kernelParams, void** extra, std::vector<uint8_t>& params);
// Runs a kernel with a prepared parameter buffer on `st` (launch.cpp; lock not
// held): the kernel node's work.
// cuMemcpyBatchAsync (runtime.cpp): each copy a cuMemcpyAsync on st; *fail, when
// given, the failing copy's index or SIZE_MAX.
CUresult copy_batch(CUdeviceptr* dsts, CUdeviceptr* srcs, size_t* sizes, size_t count, CUmemcpyAttributes* attrs,
                    size_t* idxs, size_t num_attrs, size_t* fail, CUstream st);
CUresult launch_buffer(CUfunction f, const ptxcheck::interp::LaunchConfig& cfg, CUstream st,
                       std::vector<uint8_t> params);

// ---- deferred streams (streams.cpp) -------------------------------------------------------
// A GPU gives no guarantee about when queued work starts. A launch whose
// threads spin before they change anything (RunResult::spin_without_effect)
// is therefore the same as one that has not started yet: the shim defers it
// and queues later work of its stream (and of the streams CUDA orders after
// it: the legacy NULL stream and blocking streams wait for each other, a
// stream waiting on a deferred event record waits for it) instead of running
// it. Synchronising calls run the deferred work in order, again from its
// start; when nothing can run any more, the oldest blocked operation runs a
// last time and reports its hang (a livelock: CUDA_ERROR_LAUNCH_TIMEOUT).
//
// Whether an operation issued now on st (lock held, c its context) waits
// for deferred work.
bool deferred_on(State& s, CUcontext c, CUstream st);
// Whether a deferred operation of st itself is not done yet (lock held).
bool has_deferred_work(const State& s, CUstream st);
// Queues `run` as st's next operation when it waits for deferred work (or
// always, with `always`, or when `also` is given and not done yet) and
// returns the queued operation; nullptr when it should run now, or while
// deferred work runs (running_deferred).
std::shared_ptr<Pending> defer(State& s, CUcontext c, CUstream st, const char* what, std::function<CUresult()> run,
                               bool always = false, std::shared_ptr<Pending> also = nullptr);
// While a deferred operation runs: running_deferred(); final_attempt() when
// it is the last attempt of a hang; blocked() says that it cannot finish
// yet (its launch spun without effect, its wait does not hold).
bool running_deferred();
bool final_attempt();
void blocked();
// Runs deferred work (lock held) until st has none, the event's record is
// done, or context c has none; `final`: a hang is reported (the context's
// sticky error) rather than left waiting. True when the target is done.
bool drain_stream(State& s, CUcontext c, CUstream st, bool final);
bool drain_event(State& s, CUevent e, bool final);
bool drain_ctx(State& s, CUcontext c, bool final);
void drain_all(State& s);  // every context's, reporting hangs
// Runs the deferred work that an operation issued now on st would wait for
// (lock held), reporting a hang; true unless nothing ran it (it is then done).
bool settle(State& s, CUcontext c, CUstream st);
// Whether host memory is page-locked, registered or managed (host-visible):
// an asynchronous copy from other (pageable) memory is staged when it is
// queued, and one to it returns only once it is done.
bool host_visible(const State& s, const void* p, size_t n);
// A synchronous entry point (cuMemcpy, cuMemsetD8, ...): holds the lock and
// first runs the deferred work an operation on st would wait for.
struct SyncCall {
  std::unique_lock<std::recursive_mutex> lk;
  explicit SyncCall(CUstream st = nullptr);
};
// Graph launches issue their nodes one by one and must not defer a spinning
// kernel node halfway (graph_exec.cpp): such a launch reports its livelock.
struct NoDefer {
  NoDefer();
  ~NoDefer();
};
bool defer_allowed();

}  // namespace shim

// Every exported entry point: C linkage, default visibility.
#define SHIM_API extern "C" __attribute__((visibility("default")))
