// Texture and surface references of the deprecated driver API
// (cuModuleGetTexRef, cuTexRefSet*/Get*, cuModuleGetSurfRef,
// cuSurfRefSetArray/GetArray; cuda/README.md "Textures and surfaces"). The
// arrays and resources they bind, and texture/surface objects: texture.cpp.
#include <cstring>

#include "cuda/shim/texture_impl.hpp"

using namespace shim;
using namespace shim::textures;
namespace interp = ptxcheck::interp;

// ---- texture and surface references (deprecated driver API) ----------------------------
// A .texref/.surfref variable of a loaded module (PTX ISA 5.3) gets a
// handle from cuModuleGetTexRef / cuModuleGetSurfRef; the cuTexRefSet* and
// cuSurfRefSetArray calls give it a resource and sampling state, and from
// the first bound resource on State::textures holds its TexDesc under the
// variable's address, where tex/suld/sust/txq/suq find it (the lowering
// names a reference by that address). Unified texturing mode only: a
// .texref carries its own sampler state.
namespace {

template <class R>
CUresult get_ref(R** out, CUmodule m, const char* name, uint8_t opaque, Kind kind) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!out || !name) return CUDA_ERROR_INVALID_VALUE;
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!is_live(s, m, Kind::Module)) return CUDA_ERROR_INVALID_HANDLE;
  const ptxcheck::interp::SessionModule::Var* v = m->m->var(name);
  if (!v || v->opaque != opaque) return CUDA_ERROR_NOT_FOUND;
  for (CUref_st* r : m->refs)
    if (r->var == v->addr) {
      *out = static_cast<R*>(r);
      return CUDA_SUCCESS;
    }
  R* r = make_handle<R>(s, kind);
  r->mod = m;
  r->var = v->addr;
  r->desc.surface = kind == Kind::SurfRef;
  // The driver's defaults: clamp addressing, point filtering, element reads.
  r->desc.addr_mode = {interp::AddrMode::Clamp, interp::AddrMode::Clamp, interp::AddrMode::Clamp};
  m->refs.push_back(r);
  *out = r;
  return CUDA_SUCCESS;
}

// Runs `f` on a live texture reference with the lock held, then republishes
// its TexDesc (when bound) for the interpreter.
template <class F>
CUresult with_texref(CUtexref t, F f) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!is_live(s, t, Kind::TexRef) || !is_live(s, t->mod, Kind::Module)) return CUDA_ERROR_INVALID_HANDLE;
  if (CUresult r = f(s, *t)) return r;
  if (t->bound) s.textures[t->var] = t->desc;
  return CUDA_SUCCESS;
}

// The sampler state of a TexDesc (what cuTexRefSet* and CUDA_TEXTURE_DESC
// set; describe() sets the rest) and its surface bit, copied from `from` to `to`.
void copy_sampler(const interp::TexDesc& from, interp::TexDesc& to) {
  to.surface = from.surface;
  to.addr_mode = from.addr_mode;
  to.linear = from.linear;
  to.normalized = from.normalized;
  to.read_as_integer = from.read_as_integer;
  to.border = from.border;
  to.mip_linear = from.mip_linear;
  to.mip_bias = from.mip_bias;
  to.mip_min = from.mip_min;
  to.mip_max = from.mip_max;
}

// Binds the texels of resource `rd` to reference `t`, keeping its sampler state.
CUresult bind(State& s, CUref_st& t, const CUDA_RESOURCE_DESC& rd, const char* api) {
  interp::TexDesc d;
  if (CUresult r = describe(s, rd, d, api)) return r;
  copy_sampler(t.desc, d);
  t.desc = d;
  t.bound = true;
  t.res = rd;
  return CUDA_SUCCESS;
}

}  // namespace

SHIM_API CUresult cuModuleGetTexRef(CUtexref* out, CUmodule m, const char* name) {
  return get_ref(out, m, name, 1, Kind::TexRef);
}

SHIM_API CUresult cuModuleGetSurfRef(CUsurfref* out, CUmodule m, const char* name) {
  return get_ref(out, m, name, 2, Kind::SurfRef);
}

SHIM_API CUresult cuTexRefSetArray(CUtexref t, CUarray a, unsigned int flags) {
  return with_texref(t, [&](State& s, CUref_st& r) {
    if (flags & ~unsigned(CU_TRSA_OVERRIDE_FORMAT)) return CUDA_ERROR_INVALID_VALUE;
    return bind(s, r, array_resource(a), "cuTexRefSetArray");
  });
}

SHIM_API CUresult cuTexRefSetMipmappedArray(CUtexref t, CUmipmappedArray m, unsigned int flags) {
  return with_texref(t, [&](State& s, CUref_st& r) {
    if (flags & ~unsigned(CU_TRSA_OVERRIDE_FORMAT)) return CUDA_ERROR_INVALID_VALUE;
    CUDA_RESOURCE_DESC rd{};
    rd.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
    rd.res.mipmap.hMipmappedArray = m;
    return bind(s, r, rd, "cuTexRefSetMipmappedArray");
  });
}

// Linear memory: "the texture reference's format must have been set
// (cuTexRefSetFormat)"; the offset is 0 (every device address is aligned
// enough for the interpreter).
SHIM_API CUresult cuTexRefSetAddress_v2(size_t* offset, CUtexref t, CUdeviceptr dptr, size_t bytes) {
  return with_texref(t, [&](State& s, CUref_st& r) {
    if (!r.format) return CUDA_ERROR_INVALID_VALUE;
    CUDA_RESOURCE_DESC rd{};
    rd.resType = CU_RESOURCE_TYPE_LINEAR;
    rd.res.linear = {dptr, static_cast<CUarray_format>(r.format), static_cast<unsigned>(r.channels), bytes};
    if (CUresult e = bind(s, r, rd, "cuTexRefSetAddress")) return e;
    if (offset) *offset = 0;
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuTexRefSetAddress2D_v3(CUtexref t, const CUDA_ARRAY_DESCRIPTOR* desc, CUdeviceptr dptr,
                                          size_t pitch) {
  return with_texref(t, [&](State& s, CUref_st& r) {
    if (!desc) return CUDA_ERROR_INVALID_VALUE;
    CUDA_RESOURCE_DESC rd{};
    rd.resType = CU_RESOURCE_TYPE_PITCH2D;
    rd.res.pitch2D = {dptr, desc->Format, desc->NumChannels, desc->Width, desc->Height, pitch};
    return bind(s, r, rd, "cuTexRefSetAddress2D");
  });
}

SHIM_API CUresult cuTexRefSetFormat(CUtexref t, CUarray_format fmt, int n) {
  return with_texref(t, [&](State&, CUref_st& r) {
    interp::ChanKind k;
    uint8_t b;
    if (!format_of(fmt, k, b) || !channels_ok(static_cast<unsigned>(n))) return CUDA_ERROR_INVALID_VALUE;
    r.format = static_cast<int>(fmt);
    r.channels = n;
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuTexRefSetAddressMode(CUtexref t, int dim, CUaddress_mode am) {
  return with_texref(t, [&](State&, CUref_st& r) {
    if (dim < 0 || dim > 2 || unsigned(am) > 3) return CUDA_ERROR_INVALID_VALUE;
    r.desc.addr_mode[static_cast<size_t>(dim)] = static_cast<interp::AddrMode>(am);
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuTexRefSetFilterMode(CUtexref t, CUfilter_mode fm) {
  return with_texref(t, [&](State&, CUref_st& r) {
    if (unsigned(fm) > 1) return CUDA_ERROR_INVALID_VALUE;
    r.desc.linear = fm == CU_TR_FILTER_MODE_LINEAR;
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuTexRefSetMipmapFilterMode(CUtexref t, CUfilter_mode fm) {
  return with_texref(t, [&](State&, CUref_st& r) {
    if (unsigned(fm) > 1) return CUDA_ERROR_INVALID_VALUE;
    r.desc.mip_linear = fm == CU_TR_FILTER_MODE_LINEAR;
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuTexRefSetMipmapLevelBias(CUtexref t, float bias) {
  return with_texref(t, [&](State&, CUref_st& r) {
    r.desc.mip_bias = bias;
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuTexRefSetMipmapLevelClamp(CUtexref t, float lo, float hi) {
  return with_texref(t, [&](State&, CUref_st& r) {
    r.desc.mip_min = lo;
    r.desc.mip_max = hi;
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuTexRefSetMaxAnisotropy(CUtexref t, unsigned int n) {
  return with_texref(t, [&](State&, CUref_st& r) {
    if (n > 1) {
      report("cuTexRefSetMaxAnisotropy: anisotropic filtering (" + std::to_string(n) + ") is not provided");
      return CUDA_ERROR_NOT_SUPPORTED;
    }
    r.max_aniso = n;
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuTexRefSetBorderColor(CUtexref t, float* c) {
  return with_texref(t, [&](State&, CUref_st& r) {
    if (!c) return CUDA_ERROR_INVALID_VALUE;
    for (unsigned k = 0; k < 4; ++k) r.desc.border[k] = c[k];
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuTexRefSetFlags(CUtexref t, unsigned int flags) {
  return with_texref(t, [&](State&, CUref_st& r) {
    if (flags & CU_TRSF_SRGB) {
      report("cuTexRefSetFlags: sRGB conversion is not provided");
      return CUDA_ERROR_NOT_SUPPORTED;
    }
    r.flags = flags;
    set_flags(r.desc, flags);
    return CUDA_SUCCESS;
  });
}

// The getters (CUDA driver API reference, "Texture Reference Management
// [DEPRECATED]"): the bound resource, else CUDA_ERROR_INVALID_VALUE; the
// sampler state as set (the defaults of cuModuleGetTexRef before).
SHIM_API CUresult cuTexRefGetAddress_v2(CUdeviceptr* p, CUtexref t) {
  return with_texref(t, [&](State&, CUref_st& r) {
    if (!p) return CUDA_ERROR_INVALID_VALUE;
    if (!r.bound) return CUDA_ERROR_INVALID_VALUE;  // "not bound to any device memory range"
    if (r.res.resType == CU_RESOURCE_TYPE_LINEAR)
      *p = r.res.res.linear.devPtr;
    else if (r.res.resType == CU_RESOURCE_TYPE_PITCH2D)
      *p = r.res.res.pitch2D.devPtr;
    else
      return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuTexRefGetArray(CUarray* a, CUtexref t) {
  return with_texref(t, [&](State&, CUref_st& r) {
    if (!a || !r.bound || r.res.resType != CU_RESOURCE_TYPE_ARRAY) return CUDA_ERROR_INVALID_VALUE;
    *a = r.res.res.array.hArray;
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuTexRefGetMipmappedArray(CUmipmappedArray* m, CUtexref t) {
  return with_texref(t, [&](State&, CUref_st& r) {
    if (!m || !r.bound || r.res.resType != CU_RESOURCE_TYPE_MIPMAPPED_ARRAY) return CUDA_ERROR_INVALID_VALUE;
    *m = r.res.res.mipmap.hMipmappedArray;
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuTexRefGetAddressMode(CUaddress_mode* am, CUtexref t, int dim) {
  return with_texref(t, [&](State&, CUref_st& r) {
    if (!am || dim < 0 || dim > 2) return CUDA_ERROR_INVALID_VALUE;  // as cuTexRefSetAddressMode takes them
    *am = static_cast<CUaddress_mode>(r.desc.addr_mode[static_cast<size_t>(dim)]);
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuTexRefGetFilterMode(CUfilter_mode* fm, CUtexref t) {
  return with_texref(t, [&](State&, CUref_st& r) {
    if (!fm) return CUDA_ERROR_INVALID_VALUE;
    *fm = r.desc.linear ? CU_TR_FILTER_MODE_LINEAR : CU_TR_FILTER_MODE_POINT;
    return CUDA_SUCCESS;
  });
}

// The format of the bound array (or the linear memory's, from
// cuTexRefSetFormat); unbound, the format set, else CUDA_ERROR_INVALID_VALUE.
SHIM_API CUresult cuTexRefGetFormat(CUarray_format* fmt, int* n, CUtexref t) {
  return with_texref(t, [&](State& s, CUref_st& r) {
    int f = r.format, c = r.channels;
    if (r.bound && r.res.resType == CU_RESOURCE_TYPE_ARRAY && is_live(s, r.res.res.array.hArray, Kind::Array)) {
      f = r.res.res.array.hArray->desc.Format;
      c = static_cast<int>(r.res.res.array.hArray->desc.NumChannels);
    } else if (r.bound && r.res.resType == CU_RESOURCE_TYPE_MIPMAPPED_ARRAY &&
               is_live(s, r.res.res.mipmap.hMipmappedArray, Kind::Mipmap)) {
      f = r.res.res.mipmap.hMipmappedArray->desc.Format;
      c = static_cast<int>(r.res.res.mipmap.hMipmappedArray->desc.NumChannels);
    }
    if (!f) return CUDA_ERROR_INVALID_VALUE;
    if (fmt) *fmt = static_cast<CUarray_format>(f);
    if (n) *n = c;
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuTexRefGetMipmapFilterMode(CUfilter_mode* fm, CUtexref t) {
  return with_texref(t, [&](State&, CUref_st& r) {
    if (!fm) return CUDA_ERROR_INVALID_VALUE;
    *fm = r.desc.mip_linear ? CU_TR_FILTER_MODE_LINEAR : CU_TR_FILTER_MODE_POINT;
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuTexRefGetMipmapLevelBias(float* bias, CUtexref t) {
  return with_texref(t, [&](State&, CUref_st& r) {
    if (!bias) return CUDA_ERROR_INVALID_VALUE;
    *bias = r.desc.mip_bias;
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuTexRefGetMipmapLevelClamp(float* lo, float* hi, CUtexref t) {
  return with_texref(t, [&](State&, CUref_st& r) {
    if (!lo || !hi) return CUDA_ERROR_INVALID_VALUE;
    *lo = r.desc.mip_min;
    *hi = r.desc.mip_max;
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuTexRefGetMaxAnisotropy(int* n, CUtexref t) {
  return with_texref(t, [&](State&, CUref_st& r) {
    if (!n) return CUDA_ERROR_INVALID_VALUE;
    *n = static_cast<int>(r.max_aniso);
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuTexRefGetBorderColor(float* c, CUtexref t) {
  return with_texref(t, [&](State&, CUref_st& r) {
    if (!c) return CUDA_ERROR_INVALID_VALUE;
    for (unsigned k = 0; k < 4; ++k) c[k] = r.desc.border[k];
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuTexRefGetFlags(unsigned int* flags, CUtexref t) {
  return with_texref(t, [&](State&, CUref_st& r) {
    if (!flags) return CUDA_ERROR_INVALID_VALUE;
    *flags = r.flags;
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuSurfRefGetArray(CUarray* a, CUsurfref t) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!is_live(s, t, Kind::SurfRef) || !is_live(s, t->mod, Kind::Module)) return CUDA_ERROR_INVALID_HANDLE;
  if (!a || !t->bound) return CUDA_ERROR_INVALID_VALUE;
  *a = t->res.res.array.hArray;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuSurfRefSetArray(CUsurfref t, CUarray a, unsigned int flags) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!s.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!is_live(s, t, Kind::SurfRef) || !is_live(s, t->mod, Kind::Module)) return CUDA_ERROR_INVALID_HANDLE;
  if (flags) return CUDA_ERROR_INVALID_VALUE;
  if (!is_live(s, a, Kind::Array)) return CUDA_ERROR_INVALID_HANDLE;
  if (!(a->desc.Flags & CUDA_ARRAY3D_SURFACE_LDST)) return CUDA_ERROR_INVALID_VALUE;  // as for surface objects
  if (CUresult r = bind(s, *t, array_resource(a), "cuSurfRefSetArray")) return r;
  s.textures[t->var] = t->desc;
  return CUDA_SUCCESS;
}

// A module's references are gone with it (cuModuleUnload, context teardown).
void shim::drop_refs(State& s, CUmodule m) {
  for (CUref_st* r : m->refs) {
    if (r->bound) s.textures.erase(r->var);
    s.live.erase(r);
  }
  m->refs.clear();
}
