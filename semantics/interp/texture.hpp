// Textures and surfaces (PTX ISA 9.7.10 Texture Instructions, 9.7.11 Surface
// Instructions): the objects a launch can name (TexDesc, given by the driver
// shim's cuTexObjectCreate / cuSurfObjectCreate through
// RunOptions::textures), the lowered form of tex, tld4, txq, suld, sust and
// suq (TexSite, Program::tex), and the sampling rules (texture.cpp).
//
// A texture object is a 64-bit handle in a register (unified texturing mode,
// PTX ISA 9.7.10.1 Texturing Modes); the handle indexes a TexTable. Texels
// live in global memory (a CUDA array is a dense global allocation, rows of
// width * element bytes).
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "semantics/interp/ir.hpp"

namespace ptxcheck::interp {

// How a channel is stored (the driver's CUarray_format, reduced).
enum class ChanKind : uint8_t { Unsigned, Signed, Float };
// Address modes (the driver's CUaddress_mode values) and filter modes.
enum class AddrMode : uint8_t {
#define TEX_ADDR_MODE(spelling, id, cu) id = cu,
#include "semantics/interp/texture_vocab.def"
};
// A texel format (texture_vocab.def) by its launch-spec spelling or its
// CUarray_format value; false for a format not in the table.
bool tex_format_by_name(const std::string& name, ChanKind& kind, uint8_t& bytes);
bool tex_format_by_cu(unsigned cu, ChanKind& kind, uint8_t& bytes);
unsigned tex_format_cu(ChanKind kind, uint8_t bytes);  // the CUarray_format value; 0 when none
// An address mode by spelling ("wrap", "clamp", "mirror", "border").
bool tex_addr_mode_by_name(const std::string& name, AddrMode& mode);

// One level of a mipmapped array (PTX ISA 9.7.10.3 "Mipmaps"; the driver's
// cuMipmappedArrayCreate): its texels start `offset` bytes after level 0's,
// and its extents halve per level (floor, at least 1; layers do not).
struct TexLevel {
  uint64_t offset = 0;
  uint64_t width = 1, height = 1, depth = 1;  // depth: layers for a layered array
  uint64_t pitch = 0, slice = 0;
};

struct TexDesc {
  bool surface = false;        // a surface object (suld/sust/suq)
  // A .samplerref binding (independent texturing mode, PTX ISA 5.3.2): only
  // addr_mode, linear and force_unnormalized mean anything.
  bool sampler = false;
  bool force_unnormalized = false;  // .samplerref force_unnormalized_coords
  bool layered = false;        // a layered array: `depth` counts layers (tex.a1d/.a2d; a cubemap's faces)
  // A cubemap (CUDA_ARRAY3D_CUBEMAP): a layered 2D array of 6 square faces
  // (cube_layered: 6 per cubemap of a cubemap array, tex.acube).
  bool cubemap = false, cube_layered = false;
  uint8_t dims = 1;            // 1, 2 or 3 (of the texels; layers excluded)
  uint64_t addr = 0;           // global address of texel (0,0,0)
  uint64_t width = 1, height = 1, depth = 1;  // elements
  uint64_t pitch = 0;          // bytes between rows
  uint64_t slice = 0;          // bytes between 2D slices (3D or layers)
  uint8_t channels = 1;        // 1, 2 or 4
  uint8_t chan_bytes = 4;      // 1, 2 or 4 (2 with Float: half)
  ChanKind kind = ChanKind::Float;
  std::array<AddrMode, 3> addr_mode{AddrMode::Wrap, AddrMode::Wrap, AddrMode::Wrap};
  bool linear = false;         // CU_TR_FILTER_MODE_LINEAR
  bool normalized = false;     // CU_TRSF_NORMALIZED_COORDINATES
  bool read_as_integer = false;  // CU_TRSF_READ_AS_INTEGER: no conversion of 8/16-bit integers to [0,1]/[-1,1]
  std::array<float, 4> border{0, 0, 0, 0};
  // A mipmapped texture (CU_RESOURCE_TYPE_MIPMAPPED_ARRAY): its levels,
  // levels[0] the base (the fields above); empty: not mipmapped (one level).
  std::vector<TexLevel> levels;
  bool mip_linear = false;   // CUDA_TEXTURE_DESC::mipmapFilterMode == LINEAR
  float mip_bias = 0;        // ::mipmapLevelBias
  float mip_min = 0, mip_max = 0;  // ::minMipmapLevelClamp, ::maxMipmapLevelClamp
  uint64_t elem_bytes() const { return uint64_t(channels) * chan_bytes; }
  unsigned num_levels() const { return levels.empty() ? 1u : static_cast<unsigned>(levels.size()); }
};

using TexTable = std::map<uint64_t, TexDesc>;

// The levels of a mipmapped array of `levels` levels whose level 0 is
// `base` (dims, extents, layered, elem_bytes), laid out one after another
// (each level dense: rows of width * element bytes). The driver's limit,
// 1 + floor(log2(max extent)) levels, is the caller's to check.
std::vector<TexLevel> tex_mip_levels(const TexDesc& base, unsigned levels);
// The largest level count of a base level (1 + floor(log2(max extent))).
unsigned tex_max_levels(const TexDesc& base);

// One lowered texture or surface instruction (IrOp::Tex, Program::tex).
struct TexSite {
  enum Kind : uint8_t { Tex, Tld4, Txq, Suld, Sust, Suq, Istypep, Sured } kind = Tex;
  enum Geom : uint8_t { G1d, G2d, G3d, A1d, A2d, Cube, ACube } geom = G1d;
  Opnd handle;               // the object (a .u64 register, or a .texref/.surfref/.samplerref variable's address)
  Opnd sampler;              // [a, b, c]: the explicit sampler b (independent mode); None without
  uint8_t istype = 0;        // istypep: 0 .texref, 1 .samplerref, 2 .surfref
  std::vector<Opnd> coords;  // as written (a*d: the layer first)
  std::vector<Opnd> vals;    // destinations (tex, tld4, suld, txq, suq) or sources (sust)
  Opnd pred;                 // tex/tld4 d|p: the residency predicate (None without)
  enum Mip : uint8_t { Base, Level, Grad } mip = Base;  // tex.base (or none), .level, .grad; txq.level: Level
  Opnd lod;                  // tex.level, txq.level: the LOD (follows .ctype; txq: .s32)
  std::vector<Opnd> dpdx, dpdy;  // tex.grad: the partials (.f32, as written)
  std::vector<Opnd> offset;  // tex operand e: texel offsets (.s32, as written)
  bool float_coords = false; // ctype .f32
  NumKind dtype = NumKind::F;  // tex/tld4 result type (.f32, .s32, .u32; .f16 and .f16x2 sample as .f32)
  uint8_t half = 0;          // tex .v4.f16: 1 (four .b16 results); .v2.f16x2: 2 (two pairs)
  uint8_t elem_bits = 32;    // suld/sust: .b8/.b16/.b32/.b64
  uint8_t component = 0;     // tld4: .r .g .b .a
  uint8_t clamp = 0;         // suld/sust/sured: 0 .trap, 1 .clamp, 2 .zero
  bool formatted = false;    // sust.p / sured.p: x is a sample index; sust.p converts to the surface format
  enum RedOp : uint8_t { RAdd, RMin, RMax, RAnd, ROr } red_op = RAdd;  // sured
  bool red_signed = false;   // sured.b: .s32/.s64 (sured.p: from the surface format)
  uint8_t query = 0;         // txq/suq: TexQuery
  unsigned ncoords() const { return geom == G1d ? 1 : geom == G2d || geom == A1d ? 2 : geom == ACube ? 4 : 3; }
};

enum class TexQuery : uint8_t {
  Width, Height, Depth, NormalizedCoords, FilterMode, AddrMode0, AddrMode1, AddrMode2, ArraySize, NumMipmapLevels,
  NumSamples, ForceUnnormalized, MemoryLayout
};

// Reads `n` bytes of global memory at `addr` into `out`; false on a fault.
using TexReader = std::function<bool(uint64_t addr, unsigned n, uint8_t* out)>;

// The operands of tex beyond the coordinates, one thread's values.
struct TexArgs {
  uint32_t lod = 0;                    // .level: f32 bits, or s32 with .s32 coordinates
  float dpdx[3] = {0, 0, 0}, dpdy[3] = {0, 0, 0};  // .grad
  int32_t offset[3] = {0, 0, 0};       // operand e (texels)
};

// The level of detail a mipmapped lookup uses (texture.cpp: lambda after the
// bias and the clamps, in [0, levels - 1]); 0 for .base.
float tex_lod(const TexDesc& d, const TexSite& s, const TexArgs& a);

// tex / tld4 for one thread: the four result words (f32 bits, or integers).
// `c` holds the coordinates as written (f32 bits or s32), the layer first
// for a*d. Returns false (and sets `why`) when the object cannot be sampled
// so (a geometry it lacks, a read fault).
bool tex_sample(const TexDesc& d, const TexSite& s, const uint32_t* c, const TexReader& rd, uint32_t out[4],
                std::string& why, const TexArgs& args = {});
// The object a lookup samples: `d` with the sampler state of `smp` (an
// explicit .samplerref: its address modes and filter; force_unnormalized
// overrides d's normalized coordinates, PTX ISA 5.3.2).
TexDesc tex_with_sampler(const TexDesc& d, const TexDesc& smp);
// The value of a txq/suq query; `level` >= 0: txq.level's (.width .height
// .depth of that level, 0 for a level the object lacks).
uint32_t tex_query(const TexDesc& d, TexQuery q, int64_t level = -1);

}  // namespace ptxcheck::interp
