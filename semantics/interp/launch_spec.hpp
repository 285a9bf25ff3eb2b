// Launch specs: which kernel of which PTX module runs on what grid with what
// memory (contract: docs/launch-spec.md). load_launch_spec validates the whole spec and
// materialises every buffer's initial bytes; any defect throws
// InputError(spec file, position of the offending key or value, message).
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "semantics/interp/json_pos.hpp"
#include "semantics/interp/tensormap.hpp"
#include "semantics/interp/texture.hpp"
#include "semantics/interp/values.hpp"

namespace ptxcheck::interp {

// How a buffer's initial bytes were given ("init", docs/launch-spec.md), so
// that they can be made again without a copy kept (a run that takes the
// bytes, run_program_taking, restores them so after an abandoned parallel
// attempt). Bytes: only `init` holds them (a "file", or a spec built by a
// program).
struct BufferFill {
  enum class Kind : uint8_t { Bytes, Zero, Values, Iota } kind = Kind::Bytes;
  std::vector<uint64_t> vals;     // Values: the elements' bits, repeating
  uint64_t start = 0, step = 0;  // Iota: s64/u64 for integer types, f64 bits for float types
};

struct BufferSpec {
  std::string name;
  ElemType type = ElemType::u8;
  uint64_t count = 0;
  std::vector<uint8_t> init;  // count * elem_size bytes, little-endian
  BufferFill fill;
  SourcePos pos;
};

// Writes elements [first, first + n) of a buffer of type t that f describes
// (not Bytes) to out: the bytes load_launch_spec gives them.
void fill_elements(const BufferFill& f, ElemType t, uint8_t* out, uint64_t first, uint64_t n);

// "tensormaps": a tensor-map object over a buffer (docs/launch-spec.md);
// tm.addr is the offset into the buffer until the buffer is placed.
struct TensorMapSpec {
  std::string name, buffer;
  TensorMap tm;
  SourcePos pos;
};

// "arrays": a CUDA array whose texels are a buffer's bytes (dense rows of
// width * element bytes, then rows, slices and layers); "textures" and
// "surfaces": texture and surface objects over an array or (textures only)
// over a buffer as linear or pitched 2D memory. desc.addr is the byte offset
// into `buffer` until the buffer is placed; `handle` is the 64-bit value a
// {"texture": NAME} or {"surface": NAME} argument passes.
struct ArraySpec {
  std::string name, buffer;
  TexDesc desc;  // geometry and format (addr: offset 0)
  SourcePos pos;
};
struct TexObjSpec {
  std::string name, buffer;
  std::string array;  // empty: linear or pitched memory of `buffer`
  TexDesc desc;
  uint64_t handle = 0;
  SourcePos pos;
};

// "references": a module-scope .texref, .surfref or .samplerref variable
// (PTX ISA 5.3) bound by name to a texture or surface object of the spec, or
// given sampler state (`smp`: addr_mode, linear, force_unnormalized).
struct RefSpec {
  std::string var;
  std::string object;  // the texture or surface bound (not for samplers)
  bool surface = false, sampler = false;
  TexDesc smp;
  SourcePos pos;
};

struct ArgSpec {
  bool is_buffer = false;
  std::string buffer;          // when is_buffer
  std::string tensormap;       // {"tensormap": NAME}: the 128-byte object by value
  std::string texture, surface;  // {"texture": NAME}, {"surface": NAME}: the object's 64-bit handle
  bool is_bytes = false;       // {"bytes": [...]}: raw bytes (`raw`)
  bool is_struct = false;      // {"struct": [ARG, ...]}: `fields` at `offsets`, C layout
  std::vector<uint8_t> raw;
  std::vector<ArgSpec> fields;
  std::vector<uint32_t> offsets;
  uint32_t struct_size = 0, struct_align = 1;
  ElemType type = ElemType::u64;  // scalar type (u64 for buffers: a 64-bit pointer)
  uint64_t bits = 0;           // scalar value
  SourcePos pos;
  bool is_ref() const { return is_buffer || !texture.empty() || !surface.empty(); }
  unsigned size() const {
    return !tensormap.empty() ? kTensorMapBytes : is_ref() ? 8 : is_bytes ? static_cast<unsigned>(raw.size())
                                                  : is_struct ? struct_size : elem_size(type);
  }
  // Natural alignment, as C lays out a struct member of this kind.
  unsigned align() const {
    return !tensormap.empty() ? 64 : is_ref() ? 8 : is_bytes ? 1 : is_struct ? struct_align : elem_size(type);
  }
};

struct LaunchSpec {
  std::string file;  // the spec's path, for diagnostics
  std::string dir;   // folder that relative paths are resolved against
  std::string ptx_path;
  SourcePos ptx_pos;
  std::string kernel;
  SourcePos kernel_pos;
  std::array<uint32_t, 3> grid{1, 1, 1}, block{1, 1, 1};
  std::array<uint32_t, 3> cluster{1, 1, 1};  // extension: "cluster": [x, y, z]
  bool explicit_cluster = false;
  uint32_t dynamic_shared_bytes = 0;
  // "cooperative": true, a cooperative launch (cuLaunchCooperativeKernel):
  // every CTA runs at once and %envreg1:%envreg2 name a grid workspace, so
  // a grid-wide barrier (cg::this_grid().sync()) completes.
  bool cooperative = false;
  std::vector<BufferSpec> buffers;
  std::vector<TensorMapSpec> tensormaps;
  std::vector<ArraySpec> arrays;
  std::vector<TexObjSpec> textures;  // textures and surfaces (desc.surface)
  std::vector<RefSpec> refs;         // "references" bindings
  std::vector<ArgSpec> args;
  SourcePos args_pos;
  std::vector<std::string> outputs;

  const BufferSpec* buffer(const std::string& name) const;
  int buffer_index(const std::string& name) const;
  const TensorMapSpec* tensormap(const std::string& name) const;
  const ArraySpec* array(const std::string& name) const;
  const TexObjSpec* texobj(const std::string& name, bool surface) const;
};

// The bytes of a non-tensor-map argument (a.size() of them) at `out`; `ref`
// gives the 64-bit value of a buffer, texture or surface reference (the
// buffer's address or the object's handle).
void arg_bytes(const ArgSpec& a, const std::function<uint64_t(const ArgSpec&)>& ref, uint8_t* out);

// Reads and validates a spec file. Limits: 1024 threads per CTA, 2^31-1 CTAs
// per grid dimension, 1 GiB of buffers in all (over it: LimitError).
LaunchSpec load_launch_spec(const std::string& path);
// Same, from text already read (`dir` resolves relative paths).
LaunchSpec parse_launch_spec(const std::string& file, const std::string& text, const std::string& dir);

}  // namespace ptxcheck::interp
