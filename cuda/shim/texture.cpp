// CUDA arrays, texture objects and surface objects (cuda/README.md
// "Textures and surfaces"). An array is a dense global allocation (rows of
// Width * element bytes); copies reach it through cuMemcpy2D/3D
// (runtime.cpp, array_side). A texture or surface object is a handle into
// State::textures, which every launch passes to the interpreter
// (semantics/interp/texture.hpp, RunOptions::textures): tex, tld4, txq,
// suld, sust and suq read it there. Texture and surface references: texref.cpp.
//
// Mipmapped arrays (cuMipmappedArrayCreate) are one allocation holding
// their levels one after another; cuMipmappedArrayGetLevel's arrays view
// it. Cubemaps (CUDA_ARRAY3D_CUBEMAP) are layered arrays of 6 faces per
// cubemap. Refused with CUDA_ERROR_NOT_SUPPORTED and a message: resource
// views, seamless cubemap filtering, sRGB, anisotropic filtering of
// mipmaps, and array formats other than the 8/16/32-bit integer, half and
// float ones.
#include <algorithm>
#include <cstring>

#include "cuda/shim/texture_impl.hpp"

using namespace shim;
namespace interp = ptxcheck::interp;

namespace shim::textures {

// Channel kind and bytes of a format; false for the formats refused
// (semantics/interp/texture_vocab.def, whose values are cuda.h's).
static_assert(CU_AD_FORMAT_UNSIGNED_INT8 == 0x01 && CU_AD_FORMAT_UNSIGNED_INT16 == 0x02 &&
              CU_AD_FORMAT_UNSIGNED_INT32 == 0x03 && CU_AD_FORMAT_SIGNED_INT8 == 0x08 &&
              CU_AD_FORMAT_SIGNED_INT16 == 0x09 && CU_AD_FORMAT_SIGNED_INT32 == 0x0a && CU_AD_FORMAT_HALF == 0x10 &&
              CU_AD_FORMAT_FLOAT == 0x20);
static_assert(CU_TR_ADDRESS_MODE_WRAP == 0 && CU_TR_ADDRESS_MODE_CLAMP == 1 && CU_TR_ADDRESS_MODE_MIRROR == 2 &&
              CU_TR_ADDRESS_MODE_BORDER == 3);
bool format_of(CUarray_format f, interp::ChanKind& kind, uint8_t& bytes) {
  return interp::tex_format_by_cu(static_cast<unsigned>(f), kind, bytes);
}

bool channels_ok(unsigned n) { return n == 1 || n == 2 || n == 4; }

// The texels a resource names (lock held).
CUresult describe(State& s, const CUDA_RESOURCE_DESC& r, interp::TexDesc& t, const char* api) {
  CUarray_format fmt{};
  unsigned nch = 0;
  switch (r.resType) {
    case CU_RESOURCE_TYPE_ARRAY: {
      CUarray a = r.res.array.hArray;
      if (!is_live(s, a, Kind::Array)) return CUDA_ERROR_INVALID_HANDLE;
      const CUDA_ARRAY3D_DESCRIPTOR& d = a->desc;
      fmt = d.Format;
      nch = d.NumChannels;
      t.addr = a->addr;
      t.width = d.Width;
      t.height = d.Height ? d.Height : 1;
      t.depth = d.Depth ? d.Depth : 1;
      t.pitch = a->pitch;
      t.slice = a->slice;
      t.layered = d.Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP);
      t.cubemap = d.Flags & CUDA_ARRAY3D_CUBEMAP;
      t.cube_layered = t.cubemap && (d.Flags & CUDA_ARRAY3D_LAYERED);
      t.dims = static_cast<uint8_t>(t.layered ? (d.Height ? 2 : 1) : d.Depth ? 3 : d.Height ? 2 : 1);
      break;
    }
    case CU_RESOURCE_TYPE_LINEAR:
      fmt = r.res.linear.format;
      nch = r.res.linear.numChannels;
      t.addr = r.res.linear.devPtr;
      t.dims = 1;
      break;
    case CU_RESOURCE_TYPE_PITCH2D:
      fmt = r.res.pitch2D.format;
      nch = r.res.pitch2D.numChannels;
      t.addr = r.res.pitch2D.devPtr;
      t.width = r.res.pitch2D.width;
      t.height = r.res.pitch2D.height;
      t.pitch = r.res.pitch2D.pitchInBytes;
      t.dims = 2;
      break;
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY: {
      CUmipmappedArray m = r.res.mipmap.hMipmappedArray;
      if (!is_live(s, m, Kind::Mipmap)) return CUDA_ERROR_INVALID_HANDLE;
      const CUDA_ARRAY3D_DESCRIPTOR& d = m->desc;
      fmt = d.Format;
      nch = d.NumChannels;
      t.addr = m->addr;
      t.width = d.Width;
      t.height = d.Height ? d.Height : 1;
      t.depth = d.Depth ? d.Depth : 1;
      t.pitch = m->levels[0].pitch;
      t.slice = m->levels[0].slice;
      t.layered = d.Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP);
      t.cubemap = d.Flags & CUDA_ARRAY3D_CUBEMAP;
      t.cube_layered = t.cubemap && (d.Flags & CUDA_ARRAY3D_LAYERED);
      t.dims = static_cast<uint8_t>(t.layered ? (d.Height ? 2 : 1) : d.Depth ? 3 : d.Height ? 2 : 1);
      t.levels = m->levels;
      break;
    }
    default: return CUDA_ERROR_INVALID_VALUE;
  }
  if (!format_of(fmt, t.kind, t.chan_bytes)) {
    report(std::string(api) + ": format " + std::to_string(unsigned(fmt)) + " is not provided");
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  if (!channels_ok(nch)) return CUDA_ERROR_INVALID_VALUE;
  t.channels = static_cast<uint8_t>(nch);
  if (r.resType == CU_RESOURCE_TYPE_LINEAR) {
    t.width = r.res.linear.sizeInBytes / t.elem_bytes();
    if (t.width == 0) return CUDA_ERROR_INVALID_VALUE;
  }
  if (r.resType == CU_RESOURCE_TYPE_LINEAR || r.resType == CU_RESOURCE_TYPE_PITCH2D) {
    // Linear memory must be a device allocation holding every texel.
    uint64_t base = 0, size = 0;
    const uint64_t span = t.dims == 2 ? t.pitch * (t.height - 1) + t.width * t.elem_bytes() : t.width * t.elem_bytes();
    if (!t.width || !t.height || (t.dims == 2 && t.pitch < t.width * t.elem_bytes()) ||
        !s.session->allocation(t.addr, base, size) || t.addr - base + span > size)
      return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

// The CU_TRSF_* flags a TexDesc keeps (cuTexObjectCreate's
// CUDA_TEXTURE_DESC::flags, cuTexRefSetFlags).
void set_flags(interp::TexDesc& t, unsigned flags) {
  t.normalized = flags & CU_TRSF_NORMALIZED_COORDINATES;
  t.read_as_integer = flags & CU_TRSF_READ_AS_INTEGER;
}

// An array as a resource (cuTexRefSetArray, cuSurfRefSetArray).
CUDA_RESOURCE_DESC array_resource(CUarray a) {
  CUDA_RESOURCE_DESC rd{};
  rd.resType = CU_RESOURCE_TYPE_ARRAY;
  rd.res.array.hArray = a;
  return rd;
}

}  // namespace shim::textures

using namespace shim::textures;

namespace {

CUresult create_array(CUarray* out, const CUDA_ARRAY3D_DESCRIPTOR& d) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  interp::ChanKind kind;
  uint8_t bytes = 0;
  if (!format_of(d.Format, kind, bytes)) {
    report("cuArrayCreate: array format " + std::to_string(unsigned(d.Format)) + " is not provided");
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  if (!channels_ok(d.NumChannels) || d.Width == 0) return CUDA_ERROR_INVALID_VALUE;
  if (d.Flags & ~unsigned(CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_CUBEMAP)) {
    report("cuArray3DCreate: array flags " + std::to_string(d.Flags) + " are not provided (gathers, sparse)");
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  // Cubemaps: "Width must be equal to Height, and Depth must be six" (a
  // multiple of six with CUDA_ARRAY3D_LAYERED).
  if ((d.Flags & CUDA_ARRAY3D_CUBEMAP) &&
      (d.Width != d.Height || (d.Flags & CUDA_ARRAY3D_LAYERED ? d.Depth % 6 != 0 || !d.Depth : d.Depth != 6)))
    return CUDA_ERROR_INVALID_VALUE;
  const uint64_t elem = uint64_t{bytes} * d.NumChannels;
  const uint64_t h = d.Height ? d.Height : 1, dep = d.Depth ? d.Depth : 1;
  const uint64_t pitch = d.Width * elem, slice = pitch * h;
  if (d.Width > (1u << 20) || h > (1u << 20) || dep > (1u << 16)) return CUDA_ERROR_INVALID_VALUE;
  try {
    uint64_t a = s.session->alloc(slice * dep);
    CUarray arr = make_handle<CUarray_st>(s, Kind::Array);
    arr->ctx = c;
    arr->desc = d;
    arr->addr = a;
    arr->elem = elem;
    arr->pitch = pitch;
    arr->slice = slice;
    c->arrays.insert(arr);
    *out = arr;
    return CUDA_SUCCESS;
  } catch (const ptxcheck::LimitError&) {
    return CUDA_ERROR_OUT_OF_MEMORY;
  } catch (const std::bad_alloc&) {
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
}

CUresult make_object(unsigned long long* out, const CUDA_RESOURCE_DESC* res, const CUDA_TEXTURE_DESC* tex,
                     const CUDA_RESOURCE_VIEW_DESC* view, bool surface) {
  const char* api = surface ? "cuSurfObjectCreate" : "cuTexObjectCreate";
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!out || !res || (!surface && !tex)) return CUDA_ERROR_INVALID_VALUE;
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  if (view) {
    report(std::string(api) + ": resource views are not provided");
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  interp::TexDesc t;
  t.surface = surface;
  if (CUresult r = describe(s, *res, t, api)) return r;
  if (surface) {
    if (res->resType != CU_RESOURCE_TYPE_ARRAY || !(res->res.array.hArray->desc.Flags & CUDA_ARRAY3D_SURFACE_LDST))
      return CUDA_ERROR_INVALID_VALUE;  // surfaces need an array created with CUDA_ARRAY3D_SURFACE_LDST
  } else {
    if (tex->flags & CU_TRSF_SRGB) {
      report(std::string(api) + ": sRGB conversion is not provided");
      return CUDA_ERROR_NOT_SUPPORTED;
    }
    if (tex->flags & CU_TRSF_SEAMLESS_CUBEMAP) {
      if (!t.cubemap)
        return CUDA_ERROR_INVALID_VALUE;  // "can only be specified if the ... array ... was created with
                                          // CUDA_ARRAY3D_CUBEMAP"
      report(std::string(api) + ": seamless cubemap filtering is not provided");
      return CUDA_ERROR_NOT_SUPPORTED;
    }
    for (unsigned k = 0; k < 3; ++k) {
      if (unsigned(tex->addressMode[k]) > 3) return CUDA_ERROR_INVALID_VALUE;
      t.addr_mode[k] = static_cast<interp::AddrMode>(tex->addressMode[k]);
    }
    if (unsigned(tex->filterMode) > 1) return CUDA_ERROR_INVALID_VALUE;
    t.linear = tex->filterMode == CU_TR_FILTER_MODE_LINEAR;
    set_flags(t, tex->flags);
    if (!t.levels.empty()) {
      // "for CUDA mipmapped arrays, this flag has to be set" (cuTexObjectCreate).
      if (!t.normalized || unsigned(tex->mipmapFilterMode) > 1) return CUDA_ERROR_INVALID_VALUE;
      // maxAnisotropy is "clamped to the range [1,16]": above 1, tex.grad
      // would filter anisotropically, which is not provided.
      if (tex->maxAnisotropy > 1) {
        report(std::string(api) + ": anisotropic filtering (maxAnisotropy " + std::to_string(tex->maxAnisotropy) +
               ") is not provided");
        return CUDA_ERROR_NOT_SUPPORTED;
      }
      t.mip_linear = tex->mipmapFilterMode == CU_TR_FILTER_MODE_LINEAR;
      t.mip_bias = tex->mipmapLevelBias;
      t.mip_min = tex->minMipmapLevelClamp;
      t.mip_max = tex->maxMipmapLevelClamp;
    }
    for (unsigned k = 0; k < 4; ++k) t.border[k] = tex->borderColor[k];
  }
  const uint64_t h = s.next_texture++;
  s.textures[h] = t;
  c->textures.insert(h);
  *out = h;
  return CUDA_SUCCESS;
}

CUresult destroy_object(uint64_t h, bool surface) {
  State& s = state();
  std::lock_guard lk(s.mu);
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  // Handle 0 (never an object's: handles start at 1) is accepted as a no-op,
  // as a GPU's driver does: cuda-samples' volumeFiltering destroys the
  // surface object of a volume it made without one (handle 0) and passes
  // on GPUs; ROCm's hipDestroyTextureObject skips a null object "to match
  // both CUDA and HCC runtime behavior" (ROCm/hip pull request 2059).
  if (h == 0) return CUDA_SUCCESS;
  auto it = s.textures.find(h);
  if (it == s.textures.end() || it->second.surface != surface || !c->textures.erase(h)) return CUDA_ERROR_INVALID_VALUE;
  s.textures.erase(it);
  return CUDA_SUCCESS;
}

}  // namespace

// The device-memory view of an array for a 2D/3D copy (runtime.cpp).
bool shim::array_side(State& s, CUarray a, CUdeviceptr& dev, size_t& pitch, size_t& height) {
  if (!is_live(s, a, Kind::Array)) return false;
  dev = a->addr;
  pitch = a->pitch;
  height = a->desc.Height ? a->desc.Height : 1;
  return true;
}

SHIM_API CUresult cuArrayCreate_v2(CUarray* pHandle, const CUDA_ARRAY_DESCRIPTOR* p) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  CUDA_ARRAY3D_DESCRIPTOR d{};
  d.Width = p->Width;
  d.Height = p->Height;
  d.Format = p->Format;
  d.NumChannels = p->NumChannels;
  return create_array(pHandle, d);
}

SHIM_API CUresult cuArray3DCreate_v2(CUarray* pHandle, const CUDA_ARRAY3D_DESCRIPTOR* p) {
  if (!p) return CUDA_ERROR_INVALID_VALUE;
  if ((p->Flags & CUDA_ARRAY3D_LAYERED) && !p->Depth) return CUDA_ERROR_INVALID_VALUE;
  return create_array(pHandle, *p);
}

SHIM_API CUresult cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR* out, CUarray a) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  if (!is_live(s, a, Kind::Array)) return CUDA_ERROR_INVALID_HANDLE;
  out->Width = a->desc.Width;
  out->Height = a->desc.Height;
  out->Format = a->desc.Format;
  out->NumChannels = a->desc.NumChannels;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR* out, CUarray a) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  if (!is_live(s, a, Kind::Array)) return CUDA_ERROR_INVALID_HANDLE;
  *out = a->desc;
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuArrayDestroy(CUarray a) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!is_live(s, a, Kind::Array) || a->owner)
    return CUDA_ERROR_INVALID_HANDLE;  // levels go with their mipmapped array
  s.session->free(a->addr);
  a->ctx->arrays.erase(a);
  s.live.erase(a);
  return CUDA_SUCCESS;
}

// Mipmapped arrays. cuMipmappedArrayCreate: numMipmapLevels "is clamped to
// the range [1, 1 + floor(log2(max(width, height, depth)))]"; level k's
// extents are level 0's halved k times (floor, at least 1; layers stay).
SHIM_API CUresult cuMipmappedArrayCreate(CUmipmappedArray* out, const CUDA_ARRAY3D_DESCRIPTOR* p, unsigned int n) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!out || !p) return CUDA_ERROR_INVALID_VALUE;
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  interp::TexDesc base;
  if (!format_of(p->Format, base.kind, base.chan_bytes)) {
    report("cuMipmappedArrayCreate: array format " + std::to_string(unsigned(p->Format)) + " is not provided");
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  if (!channels_ok(p->NumChannels) || p->Width == 0) return CUDA_ERROR_INVALID_VALUE;
  if ((p->Flags & CUDA_ARRAY3D_LAYERED) && !p->Depth) return CUDA_ERROR_INVALID_VALUE;
  if (p->Flags & ~unsigned(CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_CUBEMAP)) {
    report("cuMipmappedArrayCreate: array flags " + std::to_string(p->Flags) + " are not provided (gathers, sparse)");
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  if ((p->Flags & CUDA_ARRAY3D_CUBEMAP) &&
      (p->Width != p->Height || (p->Flags & CUDA_ARRAY3D_LAYERED ? p->Depth % 6 != 0 || !p->Depth : p->Depth != 6)))
    return CUDA_ERROR_INVALID_VALUE;
  base.channels = static_cast<uint8_t>(p->NumChannels);
  base.layered = p->Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP);
  base.width = p->Width;
  base.height = p->Height ? p->Height : 1;
  base.depth = p->Depth ? p->Depth : 1;
  if (base.width > (1u << 20) || base.height > (1u << 20) || base.depth > (1u << 16)) return CUDA_ERROR_INVALID_VALUE;
  base.dims = static_cast<uint8_t>(base.layered ? (p->Height ? 2 : 1) : p->Depth ? 3 : p->Height ? 2 : 1);
  const unsigned levels = std::clamp(n, 1u, interp::tex_max_levels(base));
  std::vector<interp::TexLevel> lv = interp::tex_mip_levels(base, levels);
  try {
    const uint64_t bytes = lv.back().offset + lv.back().slice * lv.back().depth;
    uint64_t a = s.session->alloc(bytes);
    CUmipmappedArray m = make_handle<CUmipmappedArray_st>(s, Kind::Mipmap);
    m->ctx = c;
    m->desc = *p;
    m->addr = a;
    m->levels = lv;
    for (const auto& L : lv) {
      CUarray arr = make_handle<CUarray_st>(s, Kind::Array);
      arr->ctx = c;
      arr->owner = m;
      arr->desc = *p;
      arr->desc.Width = L.width;
      if (p->Height) arr->desc.Height = L.height;
      if (p->Depth) arr->desc.Depth = L.depth;
      arr->addr = a + L.offset;
      arr->elem = base.elem_bytes();
      arr->pitch = L.pitch;
      arr->slice = L.slice;
      m->level_arrays.push_back(arr);
    }
    c->mipmaps.insert(m);
    *out = m;
    return CUDA_SUCCESS;
  } catch (const ptxcheck::LimitError&) {
    return CUDA_ERROR_OUT_OF_MEMORY;
  } catch (const std::bad_alloc&) {
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
}

SHIM_API CUresult cuMipmappedArrayGetLevel(CUarray* out, CUmipmappedArray m, unsigned int level) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!is_live(s, m, Kind::Mipmap)) return CUDA_ERROR_INVALID_HANDLE;
  if (!out || level >= m->level_arrays.size()) return CUDA_ERROR_INVALID_VALUE;
  *out = m->level_arrays[level];
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuMipmappedArrayDestroy(CUmipmappedArray m) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!is_live(s, m, Kind::Mipmap)) return CUDA_ERROR_INVALID_HANDLE;
  s.session->free(m->addr);
  for (CUarray a : m->level_arrays) s.live.erase(a);
  m->ctx->mipmaps.erase(m);
  s.live.erase(m);
  return CUDA_SUCCESS;
}

SHIM_API CUresult cuTexObjectCreate(CUtexObject* out, const CUDA_RESOURCE_DESC* res, const CUDA_TEXTURE_DESC* tex,
                                    const CUDA_RESOURCE_VIEW_DESC* view) {
  return make_object(out, res, tex, view, false);
}

SHIM_API CUresult cuTexObjectDestroy(CUtexObject h) { return destroy_object(h, false); }

SHIM_API CUresult cuSurfObjectCreate(CUsurfObject* out, const CUDA_RESOURCE_DESC* res) {
  return make_object(out, res, nullptr, nullptr, true);
}

SHIM_API CUresult cuSurfObjectDestroy(CUsurfObject h) { return destroy_object(h, true); }

namespace {

CUresult resource_of(uint64_t h, bool surface, CUDA_RESOURCE_DESC* out) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  auto it = s.textures.find(h);
  if (it == s.textures.end() || it->second.surface != surface) return CUDA_ERROR_INVALID_VALUE;
  const interp::TexDesc& t = it->second;
  std::memset(out, 0, sizeof *out);
  // The array or mipmapped array, if the object's texels are one.
  for (const auto& [p, k] : s.live)
    if (k == Kind::Mipmap && !t.levels.empty()) {
      auto* m = static_cast<CUmipmappedArray>(const_cast<void*>(p));
      if (m->addr == t.addr) {
        out->resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
        out->res.mipmap.hMipmappedArray = m;
        return CUDA_SUCCESS;
      }
    } else if (k == Kind::Array && t.levels.empty()) {
      auto* a = static_cast<CUarray>(const_cast<void*>(p));
      if (a->addr == t.addr) {
        out->resType = CU_RESOURCE_TYPE_ARRAY;
        out->res.array.hArray = a;
        return CUDA_SUCCESS;
      }
    }
  const CUarray_format fmt = t.kind == interp::ChanKind::Float
                                 ? (t.chan_bytes == 2 ? CU_AD_FORMAT_HALF : CU_AD_FORMAT_FLOAT)
                             : t.kind == interp::ChanKind::Signed ? (t.chan_bytes == 1   ? CU_AD_FORMAT_SIGNED_INT8
                                                                     : t.chan_bytes == 2 ? CU_AD_FORMAT_SIGNED_INT16
                                                                                         : CU_AD_FORMAT_SIGNED_INT32)
                                                                  : (t.chan_bytes == 1   ? CU_AD_FORMAT_UNSIGNED_INT8
                                                                     : t.chan_bytes == 2 ? CU_AD_FORMAT_UNSIGNED_INT16
                                                                                         : CU_AD_FORMAT_UNSIGNED_INT32);
  if (t.dims == 2) {
    out->resType = CU_RESOURCE_TYPE_PITCH2D;
    out->res.pitch2D = {t.addr, fmt, t.channels, t.width, t.height, t.pitch};
  } else {
    out->resType = CU_RESOURCE_TYPE_LINEAR;
    out->res.linear = {t.addr, fmt, t.channels, t.width * t.elem_bytes()};
  }
  return CUDA_SUCCESS;
}

}  // namespace

SHIM_API CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC* out, CUtexObject h) {
  return resource_of(h, false, out);
}
SHIM_API CUresult cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC* out, CUsurfObject h) {
  return resource_of(h, true, out);
}

SHIM_API CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC* out, CUtexObject h) {
  State& s = state();
  std::lock_guard lk(s.mu);
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  auto it = s.textures.find(h);
  if (it == s.textures.end() || it->second.surface) return CUDA_ERROR_INVALID_VALUE;
  const interp::TexDesc& t = it->second;
  std::memset(out, 0, sizeof *out);
  for (unsigned k = 0; k < 3; ++k) out->addressMode[k] = static_cast<CUaddress_mode>(t.addr_mode[k]);
  out->filterMode = t.linear ? CU_TR_FILTER_MODE_LINEAR : CU_TR_FILTER_MODE_POINT;
  out->flags = (t.normalized ? CU_TRSF_NORMALIZED_COORDINATES : 0) | (t.read_as_integer ? CU_TRSF_READ_AS_INTEGER : 0);
  for (unsigned k = 0; k < 4; ++k) out->borderColor[k] = t.border[k];
  out->mipmapFilterMode = t.mip_linear ? CU_TR_FILTER_MODE_LINEAR : CU_TR_FILTER_MODE_POINT;
  out->mipmapLevelBias = t.mip_bias;
  out->minMipmapLevelClamp = t.mip_min;
  out->maxMipmapLevelClamp = t.mip_max;
  return CUDA_SUCCESS;
}

// 1D copies to and from arrays (byte offsets into the array's dense texels).
namespace {

CUresult array_bytes(State& s, CUarray a, size_t off, size_t n, uint8_t*& p) {
  if (!is_live(s, a, Kind::Array)) return CUDA_ERROR_INVALID_HANDLE;
  if (off > a->slice * (a->desc.Depth ? a->desc.Depth : 1) || n > a->slice * (a->desc.Depth ? a->desc.Depth : 1) - off)
    return CUDA_ERROR_INVALID_VALUE;
  p = s.session->host_bytes(a->addr + off, n ? n : 1);
  return p ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

template <class F>
CUresult with_ctx(F f) {
  State& s = state();
  std::lock_guard lk(s.mu);
  CUcontext c = nullptr;
  if (CUresult r = current(s, c)) return r;
  return f(s);
}

}  // namespace

SHIM_API CUresult cuMemcpyHtoA_v2(CUarray dst, size_t off, const void* src, size_t n) {
  SyncCall sync;  // after the deferred work it waits for (streams.cpp)
  return with_ctx([&](State& s) {
    uint8_t* p = nullptr;
    if (CUresult r = array_bytes(s, dst, off, n, p)) return r;
    if (n && !src) return CUDA_ERROR_INVALID_VALUE;
    if (n) std::memmove(p, src, n);
    return CUDA_SUCCESS;
  });
}

SHIM_API CUresult cuMemcpyAtoH_v2(void* dst, CUarray src, size_t off, size_t n) {
  SyncCall sync;  // after the deferred work it waits for (streams.cpp)
  return with_ctx([&](State& s) {
    uint8_t* p = nullptr;
    if (CUresult r = array_bytes(s, src, off, n, p)) return r;
    if (n && !dst) return CUDA_ERROR_INVALID_VALUE;
    if (n) std::memmove(dst, p, n);
    return CUDA_SUCCESS;
  });
}

namespace {

// A copy between `n` bytes of device memory at `dev` and an array's bytes
// from offset `off`, in the direction `to_array` says.
CUresult copy_array_device(CUarray a, size_t off, CUdeviceptr dev, size_t n, bool to_array) {
  return with_ctx([&](State& s) {
    uint8_t* p = nullptr;
    if (CUresult r = array_bytes(s, a, off, n, p)) return r;
    uint8_t* q = n ? s.session->host_bytes(dev, n) : p;
    if (!q) return CUDA_ERROR_INVALID_VALUE;
    if (n) std::memmove(to_array ? p : q, to_array ? q : p, n);
    return CUDA_SUCCESS;
  });
}

}  // namespace

SHIM_API CUresult cuMemcpyDtoA_v2(CUarray dst, size_t off, CUdeviceptr src, size_t n) {
  SyncCall sync;  // after the deferred work it waits for (streams.cpp)
  return copy_array_device(dst, off, src, n, true);
}

SHIM_API CUresult cuMemcpyAtoD_v2(CUdeviceptr dst, CUarray src, size_t off, size_t n) {
  SyncCall sync;  // after the deferred work it waits for (streams.cpp)
  return copy_array_device(src, off, dst, n, false);
}

// The 1D array copies of cuda.h that have no fast path above: array to
// array, and host to/from array ordered in a stream; each is the 3D copy of
// one row (runtime.cpp, which also records it in a capturing stream).
namespace {
CUDA_MEMCPY3D row_copy(size_t n) {
  CUDA_MEMCPY3D c{};
  c.WidthInBytes = n;
  c.Height = c.Depth = 1;
  return c;
}
}  // namespace

SHIM_API CUresult cuMemcpyAtoA_v2(CUarray dst, size_t dst_off, CUarray src, size_t src_off, size_t n) {
  CUDA_MEMCPY3D c = row_copy(n);
  c.srcMemoryType = c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  c.srcArray = src, c.srcXInBytes = src_off;
  c.dstArray = dst, c.dstXInBytes = dst_off;
  return cuMemcpy3D_v2(&c);
}

SHIM_API CUresult cuMemcpyHtoAAsync_v2(CUarray dst, size_t off, const void* src, size_t n, CUstream st) {
  CUDA_MEMCPY3D c = row_copy(n);
  c.srcMemoryType = CU_MEMORYTYPE_HOST, c.srcHost = src;
  c.dstMemoryType = CU_MEMORYTYPE_ARRAY, c.dstArray = dst, c.dstXInBytes = off;
  return cuMemcpy3DAsync_v2(&c, st);
}

SHIM_API CUresult cuMemcpyAtoHAsync_v2(void* dst, CUarray src, size_t off, size_t n, CUstream st) {
  CUDA_MEMCPY3D c = row_copy(n);
  c.srcMemoryType = CU_MEMORYTYPE_ARRAY, c.srcArray = src, c.srcXInBytes = off;
  c.dstMemoryType = CU_MEMORYTYPE_HOST, c.dstHost = dst;
  return cuMemcpy3DAsync_v2(&c, st);
}
