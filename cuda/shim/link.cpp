// Driver API: the JIT linker (cuLinkCreate, cuLinkAddData, cuLinkAddFile,
// cuLinkComplete, cuLinkDestroy; cuda/README.md "Header and shim"). The
// interpreter runs PTX, so the linker takes PTX inputs (and the PTX of a
// fatbin input) and its "linked image" is that PTX text, which
// cuModuleLoadData and cuLibraryLoadData load like any PTX image. The
// interpreter does not resolve .extern functions across modules, so one
// PTX input is all a link may have; SASS inputs (cubins, host objects,
// libraries) and LTO-IR are refused with a message, as the module loader
// refuses SASS-only fatbins.
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>

#include "cuda/shim/fatbin.hpp"
#include "cuda/shim/state.hpp"
#include "parser/parse.hpp"

using namespace shim;

namespace {

using Clock = std::chrono::steady_clock;

// The caller's value for option `o` of the link, or -1 when not given.
int option_index(const CUlinkState_st& l, CUjit_option o) {
  for (size_t i = 0; i < l.options.size(); ++i)
    if (l.options[i] == o) return static_cast<int>(i);
  return -1;
}

// The log buffers and the wall time of cuLinkCreate's options: the logs
// accumulate until cuLinkDestroy (each write rewrites the whole log, from
// the buffer sizes the caller gave at cuLinkCreate), CU_JIT_WALL_TIME
// overwrites its option value with the milliseconds spent linking (a float).
void write_outputs(CUlinkState_st& l, double ms) {
  if (!l.values) return;
  const unsigned n = static_cast<unsigned>(l.options.size());
  if (int i = option_index(l, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES); i >= 0)
    l.values[i] = reinterpret_cast<void*>(l.info_cap);
  if (int i = option_index(l, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES); i >= 0)
    l.values[i] = reinterpret_cast<void*>(l.error_cap);
  write_log(n, l.options.data(), l.values, CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, l.info_log);
  write_log(n, l.options.data(), l.values, CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, l.error_log);
  l.ms += ms;
  if (int i = option_index(l, CU_JIT_WALL_TIME); i >= 0) {
    const float f = static_cast<float>(l.ms);
    l.values[i] = nullptr;
    std::memcpy(&l.values[i], &f, sizeof f);
  }
}

// An error of the link: reported, appended to the error log.
CUresult fail(CUlinkState_st& l, CUresult r, const std::string& msg, Clock::time_point t0) {
  report(msg);
  l.error_log += msg + "\n";
  write_outputs(l, std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  return r;
}

CUresult add_data(CUlinkState l, CUjitInputType type, const void* data, size_t size, const std::string& name,
                  unsigned nopt, CUjit_option* options, void** values) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!is_live(s, l, Kind::Link)) return CUDA_ERROR_INVALID_HANDLE;
  if (!data || size == 0 || (nopt && (!options || !values))) return CUDA_ERROR_INVALID_VALUE;
  // (per-input options are compiler options: nothing the interpreter uses)
  const auto t0 = Clock::now();
  const std::string arch = std::to_string(device_arch(s));
  switch (type) {
    case CU_JIT_INPUT_PTX: {
      std::string ptx(static_cast<const char*>(data), strnlen(static_cast<const char*>(data), size));
      try {  // checked now, as the JIT compiles each PTX input when it is added
        (void)ptxcheck::parse_module(ptx, name);
      } catch (const ptxcheck::InputError& e) {
        return fail(*l, CUDA_ERROR_INVALID_PTX, ptxcheck::format_error(e.file(), e.pos(), e.what()), t0);
      }
      l->inputs.emplace_back(name, std::move(ptx));
      break;
    }
    case CU_JIT_INPUT_FATBINARY: {
      const auto kind = size >= 16 ? fatbin::classify(data) : fatbin::ImageKind::Ptx;
      if (kind != fatbin::ImageKind::Container && kind != fatbin::ImageKind::Wrapper)
        return fail(*l, CUDA_ERROR_INVALID_IMAGE, name + ": not a fatbin (CU_JIT_INPUT_FATBINARY)", t0);
      std::string ptx, label = name;
      if (kind == fatbin::ImageKind::Container) {  // bounded by `size`, which the caller gave
        std::vector<fatbin::Entry> entries;
        std::string err;
        unsigned chosen = 0;
        if (!fatbin::parse(static_cast<const uint8_t*>(data), size, entries, err))
          return fail(*l, CUDA_ERROR_INVALID_IMAGE, name + ": " + err, t0);
        if (!fatbin::choose_ptx(entries, device_arch(s), ptx, chosen, err))
          return fail(*l,
                      err.find("PTX") != std::string::npos ? CUDA_ERROR_NO_BINARY_FOR_GPU : CUDA_ERROR_INVALID_IMAGE,
                      name + ": " + err, t0);
        label = name + ".compute_" + std::to_string(chosen) + ".ptx";
      } else if (CUresult r = image_ptx(s, data, name, ptx, label)) {  // a wrapper (it points at its container)
        l->error_log += name + ": no PTX the emulated sm_" + arch + " runs in this fatbin (see the message above)\n";
        write_outputs(*l, std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        return r;
      }
      try {
        (void)ptxcheck::parse_module(ptx, label);
      } catch (const ptxcheck::InputError& e) {
        return fail(*l, CUDA_ERROR_INVALID_PTX, ptxcheck::format_error(e.file(), e.pos(), e.what()), t0);
      }
      l->inputs.emplace_back(label, std::move(ptx));
      break;
    }
    case CU_JIT_INPUT_CUBIN:
      return fail(*l, CUDA_ERROR_NO_BINARY_FOR_GPU,
                  name +
                      ": a cubin (SASS) input (CU_JIT_INPUT_CUBIN): the interpreter links and runs PTX; add the "
                      "PTX (CU_JIT_INPUT_PTX) or rebuild with -gencode arch=compute_" +
                      arch + ",code=compute_" + arch,
                  t0);
    case CU_JIT_INPUT_OBJECT:
    case CU_JIT_INPUT_LIBRARY:
      return fail(*l, CUDA_ERROR_NOT_SUPPORTED,
                  name +
                      ": host object and library inputs (CU_JIT_INPUT_OBJECT, CU_JIT_INPUT_LIBRARY) are not "
                      "supported: the interpreter links PTX only; add the PTX (CU_JIT_INPUT_PTX) or a fatbin "
                      "with PTX (CU_JIT_INPUT_FATBINARY)",
                  t0);
    case CU_JIT_INPUT_NVVM:
      return fail(*l, CUDA_ERROR_NOT_SUPPORTED,
                  name + ": LTO-IR inputs (CU_JIT_INPUT_NVVM) are not supported: the interpreter links PTX only", t0);
    default: return CUDA_ERROR_INVALID_VALUE;
  }
  write_outputs(*l, std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  return CUDA_SUCCESS;
}

}  // namespace

SHIM_API CUresult cuLinkCreate_v2(unsigned int numOptions, CUjit_option* options, void** optionValues,
                                  CUlinkState* stateOut) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!stateOut || (numOptions && (!options || !optionValues))) return CUDA_ERROR_INVALID_VALUE;
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  auto* l = make_handle<CUlinkState_st>(s, Kind::Link);
  l->ctx = c;
  if (numOptions) {
    l->options.assign(options, options + numOptions);
    l->values = optionValues;
    if (int i = option_index(*l, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES); i >= 0)
      l->info_cap = reinterpret_cast<uintptr_t>(optionValues[i]);
    if (int i = option_index(*l, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES); i >= 0)
      l->error_cap = reinterpret_cast<uintptr_t>(optionValues[i]);
  }
  write_outputs(*l, 0);  // empty logs, no time yet
  *stateOut = l;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuLinkAddData_v2(CUlinkState link, CUjitInputType type, void* data, size_t size, const char* name,
                                   unsigned int numOptions, CUjit_option* options, void** optionValues) {
  std::string label;
  {
    State& s = state();
    std::lock_guard lk(s.mu);
    label = name && *name ? name : "<link input " + std::to_string(++s.modules_loaded) + ">";
  }
  return add_data(link, type, data, size, label, numOptions, options, optionValues);
}

SHIM_API CUresult cuLinkAddFile_v2(CUlinkState link, CUjitInputType type, const char* path, unsigned int numOptions,
                                   CUjit_option* options, void** optionValues) {
  {
    State& s = state();
    std::lock_guard lk(s.mu);
    if (!is_live(s, link, Kind::Link)) return CUDA_ERROR_INVALID_HANDLE;
  }
  if (!path) return CUDA_ERROR_INVALID_VALUE;
  std::ifstream in(path, std::ios::binary);
  if (!in) return CUDA_ERROR_FILE_NOT_FOUND;
  std::ostringstream text;
  text << in.rdbuf();
  std::string bytes = text.str();
  const size_t size = bytes.size() + 1;           // PTX stays NUL-terminated
  if (bytes.size() < 16) bytes.resize(16, '\0');  // room for the fatbin-kind check
  return add_data(link, type, bytes.c_str(), size, path, numOptions, options, optionValues);
}

SHIM_API CUresult cuLinkComplete(CUlinkState link, void** cubinOut, size_t* sizeOut) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!is_live(s, link, Kind::Link)) return CUDA_ERROR_INVALID_HANDLE;
  if (!cubinOut) return CUDA_ERROR_INVALID_VALUE;
  const auto t0 = Clock::now();
  CUlinkState_st& l = *link;
  if (l.inputs.empty())
    return fail(l, CUDA_ERROR_INVALID_VALUE, "cuLinkComplete: the link has no inputs (cuLinkAddData, cuLinkAddFile)",
                t0);
  if (l.inputs.size() > 1) {
    std::string names;
    for (const auto& [name, ptx] : l.inputs) names += (names.empty() ? "" : ", ") + name;
    return fail(l, CUDA_ERROR_NOT_SUPPORTED,
                "cuLinkComplete: " + std::to_string(l.inputs.size()) + " PTX inputs (" + names +
                    "): the interpreter loads one PTX module per image and does not resolve .extern functions "
                    "across modules, so a link takes exactly one PTX input",
                t0);
  }
  const auto& [name, ptx] = l.inputs.front();
  l.images.push_back(std::make_unique<std::string>(ptx));  // the image is the PTX text, NUL-terminated
  *cubinOut = l.images.back()->data();
  if (sizeOut) *sizeOut = l.images.back()->size() + 1;
  l.info_log += "ptxcheck-shim: linked " + name + " (" + std::to_string(ptx.size()) +
                " bytes of PTX): the image is that PTX, which the interpreter runs\n";
  write_outputs(l, std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuLinkDestroy(CUlinkState link) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!is_live(s, link, Kind::Link)) return CUDA_ERROR_INVALID_HANDLE;
  link->inputs.clear();
  link->images.clear();  // the images are the link's (a module loaded from one keeps its own copy)
  link->values = nullptr;
  s.live.erase(link);
  return CUDA_SUCCESS;
}
