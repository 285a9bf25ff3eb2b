// Driver API: module images (PTX text, fatbins), libraries and kernels
// (cuda/README.md "Runtime API"). A library is context-independent code
// (CUDA 12): its PTX is chosen and checked when it is loaded, and it becomes
// a module of each context the first time that context uses it. A CUkernel
// may be passed where a CUfunction is expected; it then means the kernel's
// function in the current context.
#include <dlfcn.h>
#include <errno.h>  // program_invocation_short_name
#include <link.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

#include "cuda/shim/fatbin.hpp"
#include "cuda/shim/state.hpp"
#include "parser/parse.hpp"

using namespace shim;

namespace {

struct Wrapper {  // nvcc's __fatBinC_Wrapper_t (fatbin.hpp)
  uint32_t magic, version;
  const void* data;
  const void* filename_or_fatbins;
};

// The file name of the shared library whose mapped image holds `p`
// (libcublas.so.13 for the fatbins it registers); empty for the program
// itself and for memory no loaded object maps (an image read from a file).
std::string library_of(const void* p) {
  Dl_info info{};
  link_map* lm = nullptr;
  if (!dladdr1(p, &info, reinterpret_cast<void**>(&lm), RTLD_DL_LINKMAP) || !lm || !info.dli_fname) return "";
  link_map* program = nullptr;
  if (void* self = dlopen(nullptr, RTLD_LAZY | RTLD_NOLOAD)) {
    dlinfo(self, RTLD_DI_LINKMAP, &program);
    dlclose(self);
  }
  if (lm == program) return "";
  const char* slash = std::strrchr(info.dli_fname, '/');
  return slash ? slash + 1 : info.dli_fname;
}

}  // namespace

// The PTX of a module image (state.hpp).
CUresult shim::image_ptx(const State& s, const void* image, const std::string& name, std::string& ptx,
                         std::string& label) {
  const void* container = image;
  switch (fatbin::classify(image)) {
    case fatbin::ImageKind::Ptx:
      ptx = static_cast<const char*>(image);
      label = name;
      return CUDA_SUCCESS;
    case fatbin::ImageKind::Elf:
      report(name + ": a cubin (SASS) image: the interpreter runs PTX; rebuild with -gencode arch=compute_" +
             std::to_string(device_arch(s)) + ",code=compute_" + std::to_string(device_arch(s)) +
             " (or load the .ptx)");
      return CUDA_ERROR_NO_BINARY_FOR_GPU;
    case fatbin::ImageKind::Wrapper: {
      const auto* w = static_cast<const Wrapper*>(image);
      if (w->version != 1 || !w->data) {
        report(name + ": fatbin wrapper version " + std::to_string(w->version) +
               " (relocatable device code, -rdc) is not supported; build without -rdc");
        return CUDA_ERROR_NOT_SUPPORTED;
      }
      container = w->data;
      break;
    }
    case fatbin::ImageKind::Container: break;
  }
  std::vector<fatbin::Entry> entries;
  std::string err;
  unsigned arch = 0;
  if (!fatbin::parse(static_cast<const uint8_t*>(container), SIZE_MAX, entries, err)) {
    report(name + ": " + err);
    return CUDA_ERROR_INVALID_IMAGE;
  }
  if (!fatbin::choose_ptx(entries, device_arch(s), ptx, arch, err, library_of(image))) {
    report(name + ": " + err);
    return err.find("PTX") != std::string::npos ? CUDA_ERROR_NO_BINARY_FOR_GPU : CUDA_ERROR_INVALID_IMAGE;
  }
  label = name + ".compute_" + std::to_string(arch) + ".ptx";
  return CUDA_SUCCESS;
}

namespace {

// The library's module in the current context `c`, loaded on first use.
CUresult library_module(State& s, CUlibrary lib, CUcontext c, CUmodule& out) {
  for (auto& [ctx, mod] : lib->per_ctx)
    if (ctx == c && is_live(s, mod, Kind::Module)) {
      out = mod;
      return CUDA_SUCCESS;
    }
  std::erase_if(lib->per_ctx, [&](const auto& cm) { return cm.first == c; });
  if (CUresult r = load_ptx(&out, lib->ptx, lib->name, 0, nullptr, nullptr, c)) return r;
  lib->per_ctx.emplace_back(c, out);
  return CUDA_SUCCESS;
}

CUresult module_function(State& s, CUmodule m, const std::string& name, CUfunction& f) {
  for (CUfunction g : m->funcs)
    if (g->k->name == name) {
      f = g;
      return CUDA_SUCCESS;
    }
  ptxcheck::interp::SessionKernel* k = m->m->kernel(name);
  if (!k) return CUDA_ERROR_NOT_FOUND;
  f = make_handle<CUfunc_st>(s, Kind::Function);
  f->mod = m;
  f->k = k;
  m->funcs.push_back(f);
  return CUDA_SUCCESS;
}

CUresult kernel_function(State& s, CUkernel k, CUfunction& f) {
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!is_live(s, k, Kind::Kernel) || !is_live(s, k->lib, Kind::Library)) return CUDA_ERROR_INVALID_HANDLE;
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  CUmodule m = nullptr;
  if (CUresult r = library_module(s, k->lib, c, m)) return r;
  return module_function(s, m, k->name, f);
}

CUresult load_library(CUlibrary* library, const void* code, const std::string& name, unsigned nopt) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!library || !code) return CUDA_ERROR_INVALID_VALUE;
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  (void)nopt;  // JIT options do not apply to the interpreter
  std::string ptx, label;
  if (CUresult r = image_ptx(s, code, name, ptx, label)) return r;
  std::vector<std::string> kernels;
  try {  // checked now, as the JIT would: invalid PTX fails the load (named as load_ptx will name it)
    ptxcheck::ast::Module m = ptxcheck::parse_module(ptx, write_ptx_file(s, label, ptx));
    for (const auto& it : m.items)
      if (auto* f = std::get_if<ptxcheck::ast::Function>(&it.v); f && f->is_entry && f->has_body)
        kernels.push_back(f->name);
  } catch (const ptxcheck::InputError& e) {
    report(ptxcheck::format_error(e.file(), e.pos(), e.what()));
    return CUDA_ERROR_INVALID_PTX;
  }
  auto* lib = make_handle<CUlib_st>(s, Kind::Library);
  lib->ptx = std::move(ptx);
  lib->name = label;
  lib->kernel_names = std::move(kernels);
  *library = lib;
  return CUDA_SUCCESS;
}

}  // namespace

CUresult shim::load_image(State& s, CUmodule* module, const void* image, const std::string& name, unsigned nopt,
                          CUjit_option* options, void** values) {
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  std::string ptx, label;
  if (CUresult r = image_ptx(s, image, name, ptx, label)) return r;
  return load_ptx(module, ptx, label, nopt, options, values);
}

CUresult shim::resolve_function(State& s, CUfunction& f) {
  if (is_live(s, f, Kind::Function)) return CUDA_SUCCESS;
  auto* k = reinterpret_cast<CUkernel>(f);
  if (!is_live(s, k, Kind::Kernel)) return CUDA_ERROR_INVALID_HANDLE;
  return kernel_function(s, k, f);
}

// ---- modules from fatbins ---------------------------------------------------------------

SHIM_API CUresult cuModuleLoadFatBinary(CUmodule* module, const void* fatCubin) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!module || !fatCubin) return CUDA_ERROR_INVALID_VALUE;
  return load_image(s, module, fatCubin,
                    std::string(program_invocation_short_name) + "-" + std::to_string(++s.modules_loaded), 0, nullptr,
                    nullptr);
}

SHIM_API CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode* mode) {
  if (!mode) return CUDA_ERROR_INVALID_VALUE;
  *mode = CU_MODULE_EAGER_LOADING;
  return CUDA_SUCCESS;
}

// ---- libraries -----------------------------------------------------------------------------

SHIM_API CUresult cuLibraryLoadData(CUlibrary* library, const void* code, CUjit_option*, void**,
                                    unsigned int numJitOptions, CUlibraryOption*, void**, unsigned int) {
  unsigned n = ++state().modules_loaded;  // a name for diagnostics: the program's, numbered
  return load_library(library, code, std::string(program_invocation_short_name) + "-" + std::to_string(n),
                      numJitOptions);
}

SHIM_API CUresult cuLibraryLoadFromFile(CUlibrary* library, const char* fileName, CUjit_option*, void**,
                                        unsigned int numJitOptions, CUlibraryOption*, void**, unsigned int) {
  if (!fileName) return CUDA_ERROR_INVALID_VALUE;
  std::ifstream in(fileName, std::ios::binary);
  if (!in) return CUDA_ERROR_FILE_NOT_FOUND;
  std::ostringstream text;
  text << in.rdbuf();
  std::string bytes = text.str();
  if (bytes.size() < 16) bytes.resize(16, '\0');
  return load_library(library, bytes.c_str(), fileName, numJitOptions);
}

SHIM_API CUresult cuLibraryUnload(CUlibrary library) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!is_live(s, library, Kind::Library)) return CUDA_ERROR_INVALID_HANDLE;
  drain_all(s);  // deferred launches of its kernels run first (streams.cpp)
  for (auto& [ctx, mod] : library->per_ctx)
    if (is_live(s, mod, Kind::Module)) {
      for (CUfunction f : mod->funcs) s.live.erase(f);
      drop_refs(s, mod);
      unload_session_module(s, mod->m);
      mod->m = nullptr;
      mod->ctx->modules.erase(mod);
      s.live.erase(mod);
    }
  for (CUkernel k : library->kernels) s.live.erase(k);
  library->per_ctx.clear();
  s.live.erase(library);
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuLibraryGetKernel(CUkernel* pKernel, CUlibrary library, const char* name) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!pKernel || !name) return CUDA_ERROR_INVALID_VALUE;
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!is_live(s, library, Kind::Library)) return CUDA_ERROR_INVALID_HANDLE;
  for (CUkernel k : library->kernels)
    if (k->name == name) {
      *pKernel = k;
      return CUDA_SUCCESS;
    }
  if (std::find(library->kernel_names.begin(), library->kernel_names.end(), name) == library->kernel_names.end())
    return CUDA_ERROR_NOT_FOUND;
  auto* k = make_handle<CUkern_st>(s, Kind::Kernel);
  k->lib = library;
  k->name = name;
  library->kernels.push_back(k);
  *pKernel = k;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuLibraryGetKernelCount(unsigned int* count, CUlibrary lib) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!count) return CUDA_ERROR_INVALID_VALUE;
  if (!is_live(s, lib, Kind::Library)) return CUDA_ERROR_INVALID_HANDLE;
  *count = static_cast<unsigned>(lib->kernel_names.size());
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuLibraryEnumerateKernels(CUkernel* kernels, unsigned int numKernels, CUlibrary lib) {
  std::vector<std::string> names;
  {
    State& s = state();
    std::lock_guard lk(s.mu);
    if (!kernels) return CUDA_ERROR_INVALID_VALUE;
    if (!is_live(s, lib, Kind::Library)) return CUDA_ERROR_INVALID_HANDLE;
    names = lib->kernel_names;
  }
  for (unsigned i = 0; i < numKernels && i < names.size(); ++i)
    if (CUresult r = cuLibraryGetKernel(&kernels[i], lib, names[i].c_str())) return r;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuLibraryGetModule(CUmodule* pMod, CUlibrary library) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!pMod) return CUDA_ERROR_INVALID_VALUE;
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!is_live(s, library, Kind::Library)) return CUDA_ERROR_INVALID_HANDLE;
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  return library_module(s, library, c, *pMod);
}

SHIM_API CUresult cuLibraryGetGlobal(CUdeviceptr* dptr, size_t* bytes, CUlibrary library, const char* name) {
  CUmodule m = nullptr;
  if (CUresult r = cuLibraryGetModule(&m, library)) return r;
  return cuModuleGetGlobal_v2(dptr, bytes, m, name);
}

// A managed variable of the library (__managed__, hostmem.cpp): its address,
// which host code dereferences; CUDA_ERROR_NOT_FOUND for a name that is no
// managed variable. The driver documents the library's managed memory as
// "shared across devices": the variable of the library's first module, or,
// when it has none yet, of its module in the current context or, without
// one, in the primary context (the runtime asks before any context is
// current, in __cudaInitModule). A module in another context has its own
// copy, which kernels of that context use (cuda/README.md).
SHIM_API CUresult cuLibraryGetManaged(CUdeviceptr* dptr, size_t* bytes, CUlibrary library, const char* name) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!name || (!dptr && !bytes)) return CUDA_ERROR_INVALID_VALUE;
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!is_live(s, library, Kind::Library)) return CUDA_ERROR_INVALID_HANDLE;
  CUmodule m = nullptr;
  for (auto& [ctx, mod] : library->per_ctx)
    if (is_live(s, mod, Kind::Module) && !m) m = mod;
  if (!m) {
    CUcontext c = nullptr;
    if (current(s, c) == CUDA_ERROR_INVALID_CONTEXT) c = primary_ctx(s);
    if (!c) return CUDA_ERROR_INVALID_CONTEXT;
    if (CUresult r = library_module(s, library, c, m)) return r;
  }
  const auto* v = m->m->var(name);
  if (!v || !v->managed) return CUDA_ERROR_NOT_FOUND;
  if (dptr) *dptr = v->addr;
  if (bytes) *bytes = v->size;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuLibraryGetUnifiedFunction(void** fptr, CUlibrary library, const char* symbol) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!fptr || !symbol) return CUDA_ERROR_INVALID_VALUE;
  if (!is_live(s, library, Kind::Library)) return CUDA_ERROR_INVALID_HANDLE;
  *fptr = nullptr;
  return CUDA_ERROR_NOT_FOUND;
}

// ---- kernels --------------------------------------------------------------------------------

SHIM_API CUresult cuKernelGetFunction(CUfunction* pFunc, CUkernel kernel) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!pFunc) return CUDA_ERROR_INVALID_VALUE;
  return kernel_function(s, kernel, *pFunc);
}

SHIM_API CUresult cuKernelGetAttribute(int* pi, CUfunction_attribute attrib, CUkernel kernel, CUdevice dev) {
  if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
  CUfunction f = nullptr;
  if (CUresult r = cuKernelGetFunction(&f, kernel)) return r;
  return cuFuncGetAttribute(pi, attrib, f);
}

SHIM_API CUresult cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel kernel, CUdevice dev) {
  if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
  CUfunction f = nullptr;
  if (CUresult r = cuKernelGetFunction(&f, kernel)) return r;
  return cuFuncSetAttribute(f, attrib, val);
}

SHIM_API CUresult cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev) {
  if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
  CUfunction f = nullptr;
  if (CUresult r = cuKernelGetFunction(&f, kernel)) return r;
  return cuFuncSetCacheConfig(f, config);
}

SHIM_API CUresult cuKernelGetName(const char** name, CUkernel hfunc) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!name) return CUDA_ERROR_INVALID_VALUE;
  if (!is_live(s, hfunc, Kind::Kernel)) return CUDA_ERROR_INVALID_HANDLE;
  *name = hfunc->name.c_str();
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuFuncGetName(const char** name, CUfunction hfunc) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!name) return CUDA_ERROR_INVALID_VALUE;
  if (CUresult r = resolve_function(s, hfunc)) return r;
  *name = hfunc->k->name.c_str();
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t* paramOffset, size_t* paramSize) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (CUresult r = resolve_function(s, func)) return r;
  const auto& ps = func->k->prog.kparams;
  if (paramIndex >= ps.size()) return CUDA_ERROR_INVALID_VALUE;
  if (paramOffset) *paramOffset = ps[paramIndex].offset;
  if (paramSize) *paramSize = ps[paramIndex].size;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex, size_t* paramOffset, size_t* paramSize) {
  CUfunction f = nullptr;
  if (CUresult r = cuKernelGetFunction(&f, kernel)) return r;
  return cuFuncGetParamInfo(f, paramIndex, paramOffset, paramSize);
}
