// libFuzzer target `launch_spec`: parse_launch_spec (what `ptxcheck run`,
// `exec` and `outcomes` reach through load_launch_spec) over its JSON reader
// (semantics/interp/json_pos.cpp) must accept the spec or throw InputError
// with line:col, or LimitError for a spec over the 1 GiB buffer limit.
// Relative paths ("file" inits) resolve against the working directory.
#include <cstdint>
#include <string>

#include "semantics/interp/launch_spec.hpp"
#include "tests/fuzz/fuzz_check.hpp"

using namespace ptxcheck;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  interp::LaunchSpec s;
  try {
    s = interp::parse_launch_spec("fuzz.json", text, "");
  } catch (const InputError& e) {
    fuzz::require_position(e);
    return 0;
  } catch (const LimitError&) {
    return 0;
  }
  // An accepted spec is consistent: every buffer holds count elements,
  // every output and buffer argument names a buffer, dimensions are >= 1.
  for (const auto& b : s.buffers)
    if (b.init.size() != b.count * interp::elem_size(b.type)) fuzz::finding("buffer size mismatch", b.name);
  for (const auto& o : s.outputs)
    if (!s.buffer(o)) fuzz::finding("output names no buffer", o);
  for (const auto& a : s.args)
    if (a.is_buffer && !s.buffer(a.buffer)) fuzz::finding("argument names no buffer", a.buffer);
  for (int i = 0; i < 3; ++i)
    if (!s.grid[i] || !s.block[i] || !s.cluster[i]) fuzz::finding("zero dimension", "");
  return 0;
}
