// Launch specs: which kernel of which PTX module runs on what grid with what
// memory (contract: docs/launch-spec.md). load_launch_spec validates the whole spec and
// materialises every buffer's initial bytes; any defect throws
// InputError(spec file, position of the offending key or value, message).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "semantics/interp/json_pos.hpp"
#include "semantics/interp/tensormap.hpp"
#include "semantics/interp/values.hpp"

namespace ptxcheck::interp {

struct BufferSpec {
  std::string name;
  ElemType type = ElemType::u8;
  uint64_t count = 0;
  std::vector<uint8_t> init;  // count * elem_size bytes, little-endian
  SourcePos pos;
};

// "tensormaps": a tensor-map object over a buffer (docs/launch-spec.md);
// tm.addr is the offset into the buffer until the buffer is placed.
struct TensorMapSpec {
  std::string name, buffer;
  TensorMap tm;
  SourcePos pos;
};

struct ArgSpec {
  bool is_buffer = false;
  std::string buffer;          // when is_buffer
  std::string tensormap;       // {"tensormap": NAME}: the 128-byte object by value
  ElemType type = ElemType::u64;  // scalar type (u64 for buffers: a 64-bit pointer)
  uint64_t bits = 0;           // scalar value
  SourcePos pos;
  unsigned size() const { return !tensormap.empty() ? kTensorMapBytes : is_buffer ? 8 : elem_size(type); }
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
  std::vector<BufferSpec> buffers;
  std::vector<TensorMapSpec> tensormaps;
  std::vector<ArgSpec> args;
  SourcePos args_pos;
  std::vector<std::string> outputs;

  const BufferSpec* buffer(const std::string& name) const;
  int buffer_index(const std::string& name) const;
  const TensorMapSpec* tensormap(const std::string& name) const;
};

// Reads and validates a spec file. Limits: 1024 threads per CTA, 2^31-1 CTAs
// per grid dimension, 1 GiB of buffers in all (over it: LimitError).
LaunchSpec load_launch_spec(const std::string& path);
// Same, from text already read (`dir` resolves relative paths).
LaunchSpec parse_launch_spec(const std::string& file, const std::string& text, const std::string& dir);

}  // namespace ptxcheck::interp
