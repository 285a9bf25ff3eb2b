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
  if (e == 0) v = std::ldexp(static_cast<float>(m), -24);
  else if (e == 31) v = m ? NAN : INFINITY;
  else v = std::ldexp(static_cast<float>(m | 1024), static_cast<int>(e) - 25);
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

bool tex_sample(const TexDesc& d, const TexSite& s, const uint32_t* c, const TexReader& rd, uint32_t out[4],
                std::string& why) {
  const bool layered_geom = s.geom == TexSite::A1d || s.geom == TexSite::A2d;
  const unsigned naxes = s.geom == TexSite::G1d || s.geom == TexSite::A1d ? 1 : s.geom == TexSite::G3d ? 3 : 2;
  if (layered_geom != d.layered || naxes != d.dims) {
    why = "the texture object's geometry (" + std::to_string(d.dims) + "D" + (d.layered ? ", layered" : "") +
          ") does not match the instruction's";
    return false;
  }
  const uint64_t ext[3] = {d.width, d.height, d.depth};
  uint64_t layer = 0;
  if (layered_geom) layer = std::min<uint64_t>(c[0], d.depth - 1);  // "interpreted as an unsigned integer index"
  const uint32_t* co = layered_geom ? c + 1 : c;
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
      if (!address(ix[k], static_cast<int64_t>(ext[k]), mode[k])) {
        for (unsigned ch = 0; ch < 4; ++ch) {
          t.f[ch] = d.border[ch];
          t.i[ch] = integer_result ? static_cast<uint32_t>(static_cast<int32_t>(d.border[ch])) : fbits(d.border[ch]);
        }
        return t;
      }
    uint64_t a = d.addr + static_cast<uint64_t>(ix[0]) * d.elem_bytes() + static_cast<uint64_t>(ix[1]) * d.pitch +
                 (static_cast<uint64_t>(ix[2]) + layer) * d.slice;
    uint8_t b[16] = {};
    if (!rd(a, static_cast<unsigned>(d.elem_bytes()), b)) {
      fault = true;
      return t;
    }
    for (unsigned ch = 0; ch < d.channels; ++ch) {
      const uint8_t* p = b + ch * d.chan_bytes;
      uint32_t raw = 0;
      std::memcpy(&raw, p, d.chan_bytes);
      float f = 0;
      uint32_t iv = raw;
      const unsigned bits = 8u * d.chan_bytes;
      if (d.kind == ChanKind::Float) {
        f = d.chan_bytes == 2 ? half_to_float(static_cast<uint16_t>(raw)) : std::bit_cast<float>(raw);
        iv = fbits(f);
      } else if (d.kind == ChanKind::Signed) {
        int32_t sv = bits == 32 ? static_cast<int32_t>(raw) : static_cast<int32_t>(raw << (32 - bits)) >> (32 - bits);
        iv = static_cast<uint32_t>(sv);
        // cudaReadModeNormalizedFloat: 8/16-bit signed integers map to [-1.0, 1.0].
        f = bits < 32 && !d.read_as_integer ? std::max(-1.0f, static_cast<float>(sv) / static_cast<float>((1u << (bits - 1)) - 1))
                                            : static_cast<float>(sv);
      } else {
        // ... and unsigned ones to [0.0, 1.0].
        f = bits < 32 && !d.read_as_integer ? static_cast<float>(raw) / static_cast<float>((1u << bits) - 1)
                                            : static_cast<float>(raw);
      }
      t.f[ch] = f;
      t.i[ch] = iv;
    }
    return t;
  };
  auto result_of = [&](const Texel& t, unsigned ch) {
    return integer_result ? t.i[ch] : fbits(t.f[ch]);
  };

  if (!s.float_coords) {  // integer texel coordinates: no filtering
    int64_t idx[3];
    for (unsigned k = 0; k < naxes; ++k) idx[k] = static_cast<int32_t>(co[k]);
    Texel t = fetch(idx);
    for (unsigned ch = 0; ch < 4; ++ch) out[ch] = result_of(t, ch);
    if (fault) why = "texture read outside global memory";
    return !fault;
  }
  float x[3];
  for (unsigned k = 0; k < naxes; ++k) {
    x[k] = std::bit_cast<float>(co[k]);
    if (d.normalized) x[k] *= static_cast<float>(ext[k]);
  }
  const bool gather = s.kind == TexSite::Tld4;
  if (gather && naxes != 2) {
    why = "tld4 needs a 2D texture";
    return false;
  }
  if (!gather && (!d.linear || integer_result)) {  // nearest-point (linear filtering returns floats only)
    int64_t idx[3];
    for (unsigned k = 0; k < naxes; ++k) idx[k] = static_cast<int64_t>(std::floor(x[k]));
    Texel t = fetch(idx);
    for (unsigned ch = 0; ch < 4; ++ch) out[ch] = result_of(t, ch);
    if (fault) why = "texture read outside global memory";
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
      out[q] = result_of(fetch(idx), s.component);
    }
    if (fault) why = "texture read outside global memory";
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
  for (unsigned ch = 0; ch < 4; ++ch) out[ch] = fbits(acc[ch]);
  if (fault) why = "texture read outside global memory";
  return !fault;
}

bool tex_format_by_name(const std::string& name, ChanKind& kind, uint8_t& bytes) {
#define TEX_FORMAT(spelling, k, b, cu)        \
  if (name == spelling) {                    \
    kind = ChanKind::k;                      \
    bytes = b;                               \
    return true;                             \
  }
#include "semantics/interp/texture_vocab.def"
  return false;
}

bool tex_format_by_cu(unsigned value, ChanKind& kind, uint8_t& bytes) {
#define TEX_FORMAT(spelling, k, b, cu)        \
  if (value == cu) {                         \
    kind = ChanKind::k;                      \
    bytes = b;                               \
    return true;                             \
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
  if (name == spelling) {              \
    mode = AddrMode::id;               \
    return true;                       \
  }
#include "semantics/interp/texture_vocab.def"
  return false;
}

uint32_t tex_query(const TexDesc& d, TexQuery q) {
  switch (q) {
    case TexQuery::Width: return static_cast<uint32_t>(d.width);
    case TexQuery::Height: return static_cast<uint32_t>(d.height);
    case TexQuery::Depth: return static_cast<uint32_t>(d.layered ? 1 : d.depth);
    case TexQuery::NormalizedCoords: return d.normalized;
    case TexQuery::ForceUnnormalized: return !d.normalized;
    case TexQuery::FilterMode: return d.linear;
    case TexQuery::AddrMode0: return static_cast<uint32_t>(d.addr_mode[0]);
    case TexQuery::AddrMode1: return static_cast<uint32_t>(d.addr_mode[1]);
    case TexQuery::AddrMode2: return static_cast<uint32_t>(d.addr_mode[2]);
    case TexQuery::ArraySize: return static_cast<uint32_t>(d.layered ? d.depth : 0);
    case TexQuery::NumMipmapLevels: return 1;
    case TexQuery::NumSamples: return 0;
  }
  return 0;
}

}  // namespace ptxcheck::interp
