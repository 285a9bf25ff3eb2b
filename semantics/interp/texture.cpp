// Texture sampling (texture.hpp). The PTX ISA leaves sampling to the
// texture object's state; the rules below are the CUDA C++ Programming
// Guide's appendix "Texture Fetching":
//   nearest-point: tex(x) = T[i], i = floor(x);
//   linear: tex(x) = (1 - a) T[i] + a T[i+1], i = floor(xB), a = frac(xB),
//     xB = x - 0.5 (and the products over y, z for 2D and 3D), where a is
//     "stored in 9-bit fixed point format with 8 bits of fractional value"
//     (so 1.0 is exact): a is rounded to a multiple of 1/256;
//   normalized coordinates are scaled by the extent first (x * N);
// and its "Texture Memory" section for the address modes of an
// out-of-range coordinate: clamp (to the edge texel), border (the border
// colour, 0 by default), wrap (the fractional part) and mirror, the last two
// for normalized coordinates only (the driver: "if the flag
// CU_TRSF_NORMALIZED_COORDINATES is not set, the only supported address mode
// is CU_TR_ADDRESS_MODE_CLAMP"; border is accepted too). Modes are applied
// to the integer texel index of each footprint texel.
#include "semantics/interp/texture.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <string>

namespace ptxcheck::interp {
namespace {

float half_to_float(uint16_t h) {
  uint32_t s = (h >> 15) & 1, e = (h >> 10) & 31, m = h & 1023;
  float v;
  if (e == 0)
    v = std::ldexp(static_cast<float>(m), -24);
  else if (e == 31)
    v = m ? NAN : INFINITY;
  else
    v = std::ldexp(static_cast<float>(m | 1024), static_cast<int>(e) - 25);
  return s ? -v : v;
}

uint32_t fbits(float f) { return std::bit_cast<uint32_t>(f); }

// A texel's channels: as floats (for .f32 results) and as integers.
struct Texel {
  float f[4] = {0, 0, 0, 1};
  uint32_t i[4] = {0, 0, 0, 1};
};

// Index `i` of an axis of `n` texels under `mode`; false: outside (border).
bool address(int64_t& i, int64_t n, AddrMode mode) {
  switch (mode) {
    case AddrMode::Wrap: i = ((i % n) + n) % n; return true;
    case AddrMode::Mirror: {
      int64_t p = i >= 0 ? i / n : (i - n + 1) / n;
      int64_t r = i - p * n;
      i = (p & 1) ? n - 1 - r : r;
      return true;
    }
    case AddrMode::Clamp: i = std::clamp<int64_t>(i, 0, n - 1); return true;
    case AddrMode::Border: return i >= 0 && i < n;
  }
  return false;
}

}  // namespace

namespace {

// Where one level's texels are (level 0: the object's own fields).
struct Geo {
  uint64_t addr, ext[3], pitch, slice;
};

Geo level_geo(const TexDesc& d, unsigned k) {
  if (k == 0 || d.levels.empty()) return {d.addr, {d.width, d.height, d.depth}, d.pitch, d.slice};
  const TexLevel& L = d.levels[k];
  return {d.addr + L.offset, {L.width, L.height, L.depth}, L.pitch, L.slice};
}

// One level's lookup: out[] the result words, f[] the channels as floats
// (for the blend between two levels). False on a read fault.
bool sample_level(const TexDesc& d, const TexSite& s, const Geo& g, const uint32_t* co, uint64_t layer, unsigned naxes,
                  const TexArgs& args, const TexReader& rd, uint32_t out[4], float f[4]) {
  const bool integer_result = s.dtype != NumKind::F;
  // Unnormalized coordinates support clamp and border only (see above).
  AddrMode mode[3];
  for (unsigned k = 0; k < 3; ++k) {
    mode[k] = d.addr_mode[k];
    if (!d.normalized && (mode[k] == AddrMode::Wrap || mode[k] == AddrMode::Mirror)) mode[k] = AddrMode::Clamp;
  }
  bool fault = false;
  auto fetch = [&](const int64_t* idx) {
    Texel t;
    int64_t ix[3] = {idx[0], naxes > 1 ? idx[1] : 0, naxes > 2 ? idx[2] : 0};
    for (unsigned k = 0; k < naxes; ++k)
      if (!address(ix[k], static_cast<int64_t>(g.ext[k]), mode[k])) {
        for (unsigned ch = 0; ch < 4; ++ch) {
          t.f[ch] = d.border[ch];
          t.i[ch] = integer_result ? static_cast<uint32_t>(static_cast<int32_t>(d.border[ch])) : fbits(d.border[ch]);
        }
        return t;
      }
    uint64_t a = g.addr + static_cast<uint64_t>(ix[0]) * d.elem_bytes() + static_cast<uint64_t>(ix[1]) * g.pitch +
                 (static_cast<uint64_t>(ix[2]) + layer) * g.slice;
    uint8_t b[16] = {};
    if (!rd(a, static_cast<unsigned>(d.elem_bytes()), b)) {
      fault = true;
      return t;
    }
    for (unsigned ch = 0; ch < d.channels; ++ch) {
      const uint8_t* p = b + ch * d.chan_bytes;
      uint32_t raw = 0;
      std::memcpy(&raw, p, d.chan_bytes);
      float fv = 0;
      uint32_t iv = raw;
      const unsigned bits = 8u * d.chan_bytes;
      if (d.kind == ChanKind::Float) {
        fv = d.chan_bytes == 2 ? half_to_float(static_cast<uint16_t>(raw)) : std::bit_cast<float>(raw);
        iv = fbits(fv);
      } else if (d.kind == ChanKind::Signed) {
        int32_t sv = bits == 32 ? static_cast<int32_t>(raw) : static_cast<int32_t>(raw << (32 - bits)) >> (32 - bits);
        iv = static_cast<uint32_t>(sv);
        // cudaReadModeNormalizedFloat: 8/16-bit signed integers map to [-1.0, 1.0].
        fv = bits < 32 && !d.read_as_integer
                 ? std::max(-1.0f, static_cast<float>(sv) / static_cast<float>((1u << (bits - 1)) - 1))
                 : static_cast<float>(sv);
      } else {
        // ... and unsigned ones to [0.0, 1.0].
        fv = bits < 32 && !d.read_as_integer ? static_cast<float>(raw) / static_cast<float>((1u << bits) - 1)
                                             : static_cast<float>(raw);
      }
      t.f[ch] = fv;
      t.i[ch] = iv;
    }
    return t;
  };
  auto put = [&](const Texel& t) {
    for (unsigned ch = 0; ch < 4; ++ch) {
      out[ch] = integer_result ? t.i[ch] : fbits(t.f[ch]);
      f[ch] = t.f[ch];
    }
  };

  if (!s.float_coords) {  // integer texel coordinates: no filtering
    int64_t idx[3];
    for (unsigned k = 0; k < naxes; ++k) idx[k] = int64_t{static_cast<int32_t>(co[k])} + args.offset[k];
    put(fetch(idx));
    return !fault;
  }
  // Texel space: normalized coordinates scaled by this level's extent; the
  // offset (operand e) is in texels of the level looked up.
  float x[3];
  for (unsigned k = 0; k < naxes; ++k) {
    x[k] = std::bit_cast<float>(co[k]);
    if (d.normalized) x[k] *= static_cast<float>(g.ext[k]);
    x[k] += static_cast<float>(args.offset[k]);
  }
  const bool gather = s.kind == TexSite::Tld4;
  if (!gather && (!d.linear || integer_result)) {  // nearest-point (linear filtering returns floats only)
    int64_t idx[3];
    for (unsigned k = 0; k < naxes; ++k) idx[k] = static_cast<int64_t>(std::floor(x[k]));
    put(fetch(idx));
    return !fault;
  }
  int64_t i0[3] = {0, 0, 0};
  float a[3] = {0, 0, 0};
  for (unsigned k = 0; k < naxes; ++k) {
    float xb = x[k] - 0.5f;
    float fl = std::floor(xb);
    i0[k] = static_cast<int64_t>(fl);
    a[k] = std::nearbyint((xb - fl) * 256.0f) / 256.0f;  // 9-bit fixed point, 8 fractional bits
  }
  if (gather) {
    // "The four texel samples are placed into destination vector d in
    // counter-clockwise order starting at lower left" (PTX ISA 9.7.10.4 tld4):
    // (i, j+1), (i+1, j+1), (i+1, j), (i, j).
    const int64_t order[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
    for (unsigned q = 0; q < 4; ++q) {
      int64_t idx[3] = {i0[0] + order[q][0], i0[1] + order[q][1], 0};
      Texel t = fetch(idx);
      out[q] = integer_result ? t.i[s.component] : fbits(t.f[s.component]);
      f[q] = t.f[s.component];
    }
    return !fault;
  }
  float acc[4] = {0, 0, 0, 0};
  const unsigned corners = 1u << naxes;
  for (unsigned q = 0; q < corners; ++q) {
    int64_t idx[3];
    float wgt = 1.0f;
    for (unsigned k = 0; k < naxes; ++k) {
      bool hi = (q >> k) & 1;
      idx[k] = i0[k] + hi;
      wgt *= hi ? a[k] : 1.0f - a[k];
    }
    Texel t = fetch(idx);
    for (unsigned ch = 0; ch < 4; ++ch) acc[ch] += wgt * t.f[ch];
  }
  for (unsigned ch = 0; ch < 4; ++ch) {
    out[ch] = fbits(acc[ch]);
    f[ch] = acc[ch];
  }
  return !fault;
}

unsigned axes_of(TexSite::Geom g) { return g == TexSite::G1d || g == TexSite::A1d ? 1 : g == TexSite::G3d ? 3 : 2; }

}  // namespace

// The level of detail (our reading: the PTX ISA and the CUDA documents give
// no formula; this is the OpenGL 4.6 specification's, 8.14.1 "Scale Factor
// and Level of Detail", without its approximations):
//   .level: lambda_base = lod (an .s32 lod converted to float);
//   .grad:  rho = max(|dPdx * N|, |dPdy * N|) (Euclidean lengths, N the
//           level-0 extent per axis when coordinates are normalized, 1
//           otherwise), lambda_base = log2(rho);
//   lambda = clamp(lambda_base + mipmapLevelBias, minMipmapLevelClamp,
//                  maxMipmapLevelClamp), then clamped to [0, levels - 1].
// .base (or no mipmap mode): level 0 ("Pick level 0", 9.7.10.3), no bias.
float tex_lod(const TexDesc& d, const TexSite& s, const TexArgs& a) {
  if (s.mip == TexSite::Base) return 0;
  float lambda;
  if (s.mip == TexSite::Level) {
    lambda = s.float_coords ? std::bit_cast<float>(a.lod) : static_cast<float>(static_cast<int32_t>(a.lod));
  } else {
    const unsigned n = axes_of(s.geom);
    const float ext[3] = {static_cast<float>(d.width), static_cast<float>(d.height), static_cast<float>(d.depth)};
    float lx = 0, ly = 0;
    for (unsigned k = 0; k < n; ++k) {
      const float sc = d.normalized ? ext[k] : 1.0f;
      lx += (a.dpdx[k] * sc) * (a.dpdx[k] * sc);
      ly += (a.dpdy[k] * sc) * (a.dpdy[k] * sc);
    }
    // log2 in double, rounded once to float (rho = 0: -inf, level 0).
    lambda = static_cast<float>(std::log2(static_cast<double>(std::sqrt(std::max(lx, ly)))));
  }
  if (std::isnan(lambda)) lambda = 0;
  lambda += d.mip_bias;
  lambda = std::max(lambda, d.mip_min);
  lambda = std::min(lambda, d.mip_max);
  return std::clamp(lambda, 0.0f, static_cast<float>(d.num_levels() - 1));
}

bool tex_sample(const TexDesc& d, const TexSite& s, const uint32_t* c, const TexReader& rd, uint32_t out[4],
                std::string& why, const TexArgs& args) {
  if (s.geom == TexSite::Cube || s.geom == TexSite::ACube) {
    // Cubemaps, the CUDA C++ Programming Guide's "Cubemap Textures" (table
    // "Cubemap Fetch"): the coordinate of largest magnitude m selects the
    // face, whose texel is addressed at ((s/m + 1)/2, (t/m + 1)/2), with
    //   |x| largest: x > 0 face 0 (s, t) = (-z, -y); x < 0 face 1 (z, -y)
    //   |y| largest: y > 0 face 2 (x, z);           y < 0 face 3 (x, -z)
    //   |z| largest: z > 0 face 4 (x, -y);          z < 0 face 5 (-x, -y).
    // The table's conditions are strict; our reading breaks ties toward x,
    // then y, and takes the positive face for a zero. Filtering stays in the
    // face (no seamless filtering: the shim refuses CU_TRSF_SEAMLESS_CUBEMAP).
    const bool arr = s.geom == TexSite::ACube;
    if (!d.cubemap || arr != d.cube_layered) {
      why = std::string("the texture object is not a cubemap") + (arr ? " array" : "");
      return false;
    }
    const uint32_t* v = arr ? c + 1 : c;
    const float x = std::bit_cast<float>(v[0]), y = std::bit_cast<float>(v[1]), z = std::bit_cast<float>(v[2]);
    const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
    unsigned face;
    float m, sc, tc;
    if (ax >= ay && ax >= az) {
      face = x >= 0 ? 0 : 1, m = ax, sc = x >= 0 ? -z : z, tc = -y;
    } else if (ay >= az) {
      face = y >= 0 ? 2 : 3, m = ay, sc = x, tc = y >= 0 ? z : -z;
    } else {
      face = z >= 0 ? 4 : 5, m = az, sc = z >= 0 ? x : -x, tc = -y;
    }
    const float u = (sc / m + 1.0f) / 2.0f, w = (tc / m + 1.0f) / 2.0f;
    const uint64_t cube = arr ? std::min<uint64_t>(c[0], d.depth / 6 - 1) : 0;
    TexDesc face2d = d;
    face2d.cubemap = false;
    face2d.cube_layered = false;
    face2d.normalized = true;  // (s/m + 1)/2 spans the face
    TexSite s2 = s;
    s2.geom = TexSite::A2d;
    const uint32_t c2[3] = {static_cast<uint32_t>(cube * 6 + face), std::bit_cast<uint32_t>(u),
                            std::bit_cast<uint32_t>(w)};
    return tex_sample(face2d, s2, c2, rd, out, why, args);
  }
  const bool layered_geom = s.geom == TexSite::A1d || s.geom == TexSite::A2d;
  const unsigned naxes = axes_of(s.geom);
  // A 1D fetch on a 2D array of one row reads row 0 with the 1D rules (no
  // second coordinate to address or filter). cuArrayCreate: "the CUDA array
  // is one-dimensional if height is 0, two-dimensional otherwise", so
  // cudaMallocArray(w, 1) makes a 2D array; cudaMalloc3DArray's note
  // recommends such degenerate arrays ("unused dimensions set to one"), and
  // cuda-samples' volumeRender and volumeFiltering sample one with tex1D
  // (their reference images come from GPUs). Any other mismatch is an error.
  const bool one_row = naxes == 1 && d.dims == 2 && d.height == 1;
  if (layered_geom != d.layered || (naxes != d.dims && !one_row) || d.cubemap) {
    why = "the texture object's geometry (" + std::to_string(d.dims) + "D" + (d.layered ? ", layered" : "") +
          ") does not match the instruction's";
    return false;
  }
  if (s.kind == TexSite::Tld4 && naxes != 2) {
    why = "tld4 needs a 2D texture";
    return false;
  }
  uint64_t layer = 0;
  if (layered_geom) layer = std::min<uint64_t>(c[0], d.depth - 1);  // "interpreted as an unsigned integer index"
  const uint32_t* co = layered_geom ? c + 1 : c;
  float f[4];
  const char* fault = "texture read outside global memory";
  if (d.levels.empty() || s.mip == TexSite::Base) {
    if (!sample_level(d, s, level_geo(d, 0), co, layer, naxes, args, rd, out, f)) return why = fault, false;
    return true;
  }
  // Mipmapped lookup (9.7.10.3 "Mipmaps"). Level selection, our reading of
  // CUDA_TEXTURE_DESC::mipmapFilterMode with the OpenGL 4.6 specification's
  // rules (8.14.3 "Mipmapping"): point picks the nearest level (lambda <=
  // 1/2: level 0, else ceil(lambda + 1/2) - 1: ties to the lower level);
  // linear blends levels floor(lambda) and the next by frac(lambda),
  // computed in float (the hardware may quantize this weight; no document
  // says how). Integer results use point selection, as linear filtering
  // returns floats only.
  const float lambda = tex_lod(d, s, args);
  const unsigned q = d.num_levels() - 1;
  const bool integer_result = s.dtype != NumKind::F;
  if (!d.mip_linear || integer_result || !s.float_coords) {
    unsigned lvl = lambda <= 0.5f ? 0u : static_cast<unsigned>(std::ceil(lambda + 0.5f)) - 1u;
    lvl = std::min(lvl, q);
    if (!sample_level(d, s, level_geo(d, lvl), co, layer, naxes, args, rd, out, f)) return why = fault, false;
    return true;
  }
  const unsigned d1 = std::min(static_cast<unsigned>(std::floor(lambda)), q);
  const unsigned d2 = std::min(d1 + 1, q);
  const float w = lambda - std::floor(lambda);
  uint32_t o1[4], o2[4];
  float f2[4];
  if (!sample_level(d, s, level_geo(d, d1), co, layer, naxes, args, rd, o1, f) ||
      !sample_level(d, s, level_geo(d, d2), co, layer, naxes, args, rd, o2, f2))
    return why = fault, false;
  for (unsigned ch = 0; ch < 4; ++ch) out[ch] = w == 0 ? o1[ch] : fbits((1.0f - w) * f[ch] + w * f2[ch]);
  return true;
}

std::vector<TexLevel> tex_mip_levels(const TexDesc& base, unsigned levels) {
  std::vector<TexLevel> out;
  uint64_t off = 0;
  uint64_t e[3] = {base.width, base.height, base.depth};
  for (unsigned k = 0; k < levels; ++k) {
    TexLevel L;
    L.offset = off;
    L.width = e[0];
    L.height = e[1];
    L.depth = e[2];
    L.pitch = L.width * base.elem_bytes();
    L.slice = L.pitch * L.height;
    off += L.slice * L.depth;
    out.push_back(L);
    // Each level halves (floor, at least 1) the axes the array has; layers stay.
    for (unsigned a = 0; a < base.dims; ++a) e[a] = std::max<uint64_t>(1, e[a] / 2);
  }
  return out;
}

unsigned tex_max_levels(const TexDesc& base) {
  uint64_t m = base.width;
  if (base.dims > 1) m = std::max(m, base.height);
  if (base.dims > 2) m = std::max(m, base.depth);
  unsigned n = 1;
  while (m >>= 1) ++n;
  return n;
}

bool tex_format_by_name(const std::string& name, ChanKind& kind, uint8_t& bytes) {
#define TEX_FORMAT(spelling, k, b, cu) \
  if (name == spelling) {              \
    kind = ChanKind::k;                \
    bytes = b;                         \
    return true;                       \
  }
#include "semantics/interp/texture_vocab.def"
  return false;
}

bool tex_format_by_cu(unsigned value, ChanKind& kind, uint8_t& bytes) {
#define TEX_FORMAT(spelling, k, b, cu) \
  if (value == cu) {                   \
    kind = ChanKind::k;                \
    bytes = b;                         \
    return true;                       \
  }
#include "semantics/interp/texture_vocab.def"
  return false;
}

unsigned tex_format_cu(ChanKind kind, uint8_t bytes) {
#define TEX_FORMAT(spelling, k, b, cu) \
  if (kind == ChanKind::k && bytes == b) return cu;
#include "semantics/interp/texture_vocab.def"
  return 0;
}

bool tex_addr_mode_by_name(const std::string& name, AddrMode& mode) {
#define TEX_ADDR_MODE(spelling, id, cu) \
  if (name == spelling) {               \
    mode = AddrMode::id;                \
    return true;                        \
  }
#include "semantics/interp/texture_vocab.def"
  return false;
}

TexDesc tex_with_sampler(const TexDesc& d, const TexDesc& smp) {
  TexDesc out = d;
  out.addr_mode = smp.addr_mode;
  out.linear = smp.linear;
  if (smp.force_unnormalized) out.normalized = false;
  return out;
}

uint32_t tex_query(const TexDesc& d, TexQuery q, int64_t level) {
  if (level >= 0) {  // txq.level: the extents of one level
    if (static_cast<uint64_t>(level) >= d.num_levels()) return 0;
    const TexLevel L = d.levels.empty() ? TexLevel{0, d.width, d.height, d.depth, d.pitch, d.slice}
                                        : d.levels[static_cast<size_t>(level)];
    switch (q) {
      case TexQuery::Width: return static_cast<uint32_t>(L.width);
      case TexQuery::Height: return static_cast<uint32_t>(L.height);
      case TexQuery::Depth: return static_cast<uint32_t>(d.layered ? 1 : L.depth);
      default: return 0;
    }
  }
  // .addr_mode_*: "Integer from enum { wrap, mirror, clamp_ogl,
  // clamp_to_edge, clamp_to_border }" (PTX ISA 9.7.10.5 txq); CUDA's clamp
  // is clamp to edge.
  auto addr_enum = [](AddrMode m) -> uint32_t {
    switch (m) {
      case AddrMode::Wrap: return 0;
      case AddrMode::Mirror: return 1;
      case AddrMode::Clamp: return 3;
      case AddrMode::Border: return 4;
    }
    return 0;
  };
  switch (q) {
    case TexQuery::Width: return static_cast<uint32_t>(d.width);
    case TexQuery::Height: return static_cast<uint32_t>(d.height);
    case TexQuery::Depth: return static_cast<uint32_t>(d.layered ? 1 : d.depth);
    case TexQuery::NormalizedCoords: return d.normalized;
    case TexQuery::ForceUnnormalized: return d.force_unnormalized;  // "Defined only for .samplerref variables"

    case TexQuery::FilterMode: return d.linear;
    case TexQuery::AddrMode0: return addr_enum(d.addr_mode[0]);
    case TexQuery::AddrMode1: return addr_enum(d.addr_mode[1]);
    case TexQuery::AddrMode2: return addr_enum(d.addr_mode[2]);
    case TexQuery::ArraySize:  // a cubemap array: its cubemaps
      return static_cast<uint32_t>(d.cube_layered ? d.depth / 6 : d.cubemap ? 0 : d.layered ? d.depth : 0);
    // "For a mipmapped texture, number of levels of details (LOD), 0 otherwise."
    case TexQuery::NumMipmapLevels: return static_cast<uint32_t>(d.levels.size());
    case TexQuery::NumSamples: return 0;
    // suq.memory_layout: "1 for linear memory layout; 0 otherwise" (9.7.11.4):
    // a surface object is over a CUDA array.
    case TexQuery::MemoryLayout: return d.surface ? 0 : d.dims == 1 && !d.layered && d.levels.empty() ? 1 : 0;
  }
  return 0;
}

}  // namespace ptxcheck::interp
