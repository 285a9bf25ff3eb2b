// Deprecated driver API entry points that CUDA 13's cuda.h still declares and
// its libcuda still exports, which older host code (NVIDIA's
// cuda_drvapi_dynlink.c loader, matrixMulDynlinkJIT) requires: device
// properties, context attachment, shared-memory bank configuration, the
// execution control of CUDA 3 (cuFuncSetBlockShape, cuParamSet*,
// cuLaunchGrid over cuLaunchKernel's parameter buffer), a device by PCI bus
// id; and the CUDA 2/3 names of entry points that became _v2
// (cuda/README.md).
#include <cstdio>
#include <cstring>
#include <utility>

#include "cuda/shim/state.hpp"

using namespace shim;

// ---- device -----------------------------------------------------------------------------

SHIM_API CUresult cuDeviceGetProperties(CUdevprop* p, CUdevice dev) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  CUdevprop out{};
  const std::pair<int*, int> fields[] = {
      {&out.maxThreadsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK},
      {&out.maxThreadsDim[0], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X},
      {&out.maxThreadsDim[1], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y},
      {&out.maxThreadsDim[2], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z},
      {&out.maxGridSize[0], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X},
      {&out.maxGridSize[1], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y},
      {&out.maxGridSize[2], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z},
      {&out.sharedMemPerBlock, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK},
      {&out.totalConstantMemory, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY},
      {&out.SIMDWidth, CU_DEVICE_ATTRIBUTE_WARP_SIZE},
      {&out.memPitch, CU_DEVICE_ATTRIBUTE_MAX_PITCH},
      {&out.regsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK},
      {&out.clockRate, CU_DEVICE_ATTRIBUTE_CLOCK_RATE},
      {&out.textureAlign, 14},  // CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT
  };
  for (const auto& [field, attr] : fields)
    if (CUresult r = cuDeviceGetAttribute(field, static_cast<CUdevice_attribute>(attr), dev)) return r;
  *p = out;
  return CUDA_SUCCESS;
}

// "[domain]:[bus]:[device].[function]" or "[bus]:[device].[function]", hex,
// as cuDeviceGetPCIBusId writes it: the one device is 0000:00:00.0.
SHIM_API CUresult cuDeviceGetByPCIBusId(CUdevice* dev, const char* id) {
  if (!dev || !id) return CUDA_ERROR_INVALID_VALUE;
  if (!state().initialized) return CUDA_ERROR_NOT_INITIALIZED;
  unsigned dom = 0, bus = 0, d = 0, fn = 0;
  char end = 0;
  if (std::sscanf(id, "%x:%x:%x.%x%c", &dom, &bus, &d, &fn, &end) != 4) {
    dom = 0;
    if (std::sscanf(id, "%x:%x.%x%c", &bus, &d, &fn, &end) != 3) return CUDA_ERROR_INVALID_VALUE;
  }
  if (dom || bus || d || fn) return CUDA_ERROR_INVALID_DEVICE;
  *dev = 0;
  return CUDA_SUCCESS;
}

// ---- contexts ---------------------------------------------------------------------------

// cuCtxAttach counts one more use of the current context; cuCtxDetach of the
// current context takes one back and destroys a created context when none
// is left (its creation is the first use).
SHIM_API CUresult cuCtxAttach(CUcontext* pctx, unsigned int flags) {
  if (!pctx || flags) return CUDA_ERROR_INVALID_VALUE;
  State& s = state();
  std::lock_guard lk(s.mu);
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  ++c->attached;
  *pctx = c;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuCtxDetach(CUcontext ctx) {
  {
    State& s = state();
    std::lock_guard lk(s.mu);
    if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
    auto& st = ctx_stack();
    if (!is_live(s, ctx, Kind::Ctx) || st.empty() || st.back() != ctx) return CUDA_ERROR_INVALID_CONTEXT;
    if (ctx->attached) {
      --ctx->attached;
      return CUDA_SUCCESS;
    }
  }
  return cuCtxDestroy_v2(ctx);  // primary contexts: CUDA_ERROR_INVALID_CONTEXT, as cuCtxDestroy
}

// Shared memory banks are four bytes wide on every architecture the shim
// emulates (sm_50 on); as on such a GPU, setting a configuration changes
// nothing.
SHIM_API CUresult cuCtxGetSharedMemConfig(CUsharedconfig* config) {
  if (!config) return CUDA_ERROR_INVALID_VALUE;
  State& s = state();
  std::lock_guard lk(s.mu);
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  *config = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuCtxSetSharedMemConfig(CUsharedconfig config) {
  State& s = state();
  std::lock_guard lk(s.mu);
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  return static_cast<unsigned>(config) <= CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE ? CUDA_SUCCESS
                                                                                    : CUDA_ERROR_INVALID_VALUE;
}

SHIM_API CUresult cuFuncSetSharedMemConfig(CUfunction f, CUsharedconfig config) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (CUresult r = resolve_function(s, f)) return r;
  return static_cast<unsigned>(config) <= CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE ? CUDA_SUCCESS
                                                                                    : CUDA_ERROR_INVALID_VALUE;
}

// ---- execution control of CUDA 3 ----------------------------------------------------------

namespace {

// Runs `set` on the function's legacy launch state under the lock.
template <class F>
CUresult with_function(CUfunction f, F set) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (CUresult r = resolve_function(s, f)) return r;
  return set(*f);
}

// Writes `n` parameter bytes at `offset`, growing the buffer as needed.
CUresult set_param(CUfunction f, int offset, const void* bytes, unsigned n) {
  if (offset < 0 || (n && !bytes)) return CUDA_ERROR_INVALID_VALUE;
  return with_function(f, [&](CUfunc_st& fn) {
    const size_t end = static_cast<size_t>(offset) + n;
    if (end > 4096) return CUDA_ERROR_INVALID_VALUE;  // the CUDA 3 parameter space
    if (fn.params.size() < end) fn.params.resize(end);
    if (n) std::memcpy(fn.params.data() + offset, bytes, n);
    return CUDA_SUCCESS;
  });
}

}  // namespace

SHIM_API CUresult cuFuncSetBlockShape(CUfunction f, int x, int y, int z) {
  if (x <= 0 || y <= 0 || z <= 0) return CUDA_ERROR_INVALID_VALUE;
  return with_function(f, [&](CUfunc_st& fn) {
    fn.block[0] = static_cast<unsigned>(x), fn.block[1] = static_cast<unsigned>(y);
    fn.block[2] = static_cast<unsigned>(z);
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuFuncSetSharedSize(CUfunction f, unsigned int bytes) {
  return with_function(f, [&](CUfunc_st& fn) {
    fn.shared_bytes = bytes;
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuParamSetSize(CUfunction f, unsigned int n) {
  if (n > 4096) return CUDA_ERROR_INVALID_VALUE;
  return with_function(f, [&](CUfunc_st& fn) {
    fn.params.resize(n);
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuParamSeti(CUfunction f, int offset, unsigned int v) { return set_param(f, offset, &v, sizeof v); }
SHIM_API CUresult cuParamSetf(CUfunction f, int offset, float v) { return set_param(f, offset, &v, sizeof v); }
SHIM_API CUresult cuParamSetv(CUfunction f, int offset, void* p, unsigned int n) { return set_param(f, offset, p, n); }

// CUDA 13's documentation: the texture reference must come from
// cuModuleGetTexRef and texunit must be CU_PARAM_TR_DEFAULT; a module's
// texture reference is already what its kernels read (texref.cpp).
SHIM_API CUresult cuParamSetTexRef(CUfunction f, int texunit, CUtexref t) {
  return with_function(f, [&](CUfunc_st&) {
    if (texunit != CU_PARAM_TR_DEFAULT) return CUDA_ERROR_INVALID_VALUE;
    return is_live(state(), t, Kind::TexRef) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
  });
}

// A launch of the block shape, shared size and parameter bytes set above,
// through cuLaunchKernel's CU_LAUNCH_PARAM_BUFFER_POINTER (the bytes must
// be the kernel's parameter list, as cuLaunchKernel checks).
SHIM_API CUresult cuLaunchGridAsync(CUfunction f, int w, int h, CUstream st) {
  if (w <= 0 || h <= 0) return CUDA_ERROR_INVALID_VALUE;
  unsigned block[3] = {0, 0, 0}, shared = 0;
  std::vector<uint8_t> params;
  if (CUresult r = with_function(f, [&](CUfunc_st& fn) {
        std::memcpy(block, fn.block, sizeof block);
        shared = fn.shared_bytes;
        params = fn.params;
        return CUDA_SUCCESS;
      }))
    return r;
  if (!block[0]) return CUDA_ERROR_INVALID_VALUE;  // no cuFuncSetBlockShape
  size_t size = params.size();
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, params.data(), CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                   CU_LAUNCH_PARAM_END};
  return cuLaunchKernel(f, static_cast<unsigned>(w), static_cast<unsigned>(h), 1, block[0], block[1], block[2], shared,
                        st, nullptr, extra);
}
SHIM_API CUresult cuLaunchGrid(CUfunction f, int w, int h) { return cuLaunchGridAsync(f, w, h, nullptr); }
SHIM_API CUresult cuLaunch(CUfunction f) { return cuLaunchGridAsync(f, 1, 1, nullptr); }

// ---- the CUDA 2/3 names of entry points that became _v2 -------------------------------
// (same signatures; the _v2 forms are what cuda.h names them now)
#undef cuCtxDestroy
#undef cuCtxPushCurrent
#undef cuCtxPopCurrent
#undef cuStreamDestroy
#undef cuEventDestroy
SHIM_API CUresult cuCtxDestroy(CUcontext ctx) { return cuCtxDestroy_v2(ctx); }
SHIM_API CUresult cuCtxPushCurrent(CUcontext ctx) { return cuCtxPushCurrent_v2(ctx); }
SHIM_API CUresult cuCtxPopCurrent(CUcontext* pctx) { return cuCtxPopCurrent_v2(pctx); }
SHIM_API CUresult cuStreamDestroy(CUstream st) { return cuStreamDestroy_v2(st); }
SHIM_API CUresult cuEventDestroy(CUevent e) { return cuEventDestroy_v2(e); }
