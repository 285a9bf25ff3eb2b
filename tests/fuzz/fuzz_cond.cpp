// libFuzzer target `cond`: the condition languages.
//  * Litmus final conditions (`exists`, `~exists`, `forall` + a formula;
//    parser/litmus/cursor.cpp parse_condition), reached as the CLI does:
//    the input is appended to a fixed litmus test in each dialect and the
//    whole text parsed; an accepted test must round-trip through the printer.
//  * `ptxcheck outcomes --exists/--forall/--state` (checker/outcomes_cond.cpp):
//    the input without a leading quantifier, over a fixed launch spec, parsed
//    and evaluated on the spec's initial buffers.
// Rejections must be InputError with line:col.
#include <cstdint>
#include <string>
#include <string_view>

#include "checker/outcomes_cond.hpp"
#include "tests/fuzz/fuzz_check.hpp"
#include "tests/fuzz/fuzz_litmus.hpp"

using namespace ptxcheck;

namespace {

const char* const kNative = R"(PTX cond
{
  .global .u32 x = 0;
  .global .u64 y = 0;
}
T0 @ cta 0, gpu 0 {
  st.global.u32 [x], 1;
  st.global.release.gpu.u64 [y], 1;
}
T1 @ cta 1, gpu 0 {
  ld.global.acquire.gpu.u64 %r0, [y];
  ld.global.u32 %r1, [x];
}
)";

const char* const kDat3m = R"(PTX cond
{
x=0;
y=0;
P0:r0=0;
P1:r1=0;
}
 P0@cta 0,gpu 0         | P1@cta 1,gpu 0         ;
 st.weak x, 1           | ld.acquire.gpu r1, y   ;
 st.release.gpu y, 1    | ld.weak r0, x          ;
)";

const char* const kSpec = R"({
  "ptx": "k.ptx", "kernel": "k", "grid": [1], "block": [32],
  "buffers": {
    "out": { "type": "u32", "count": 4, "init": { "iota": { "start": 0, "step": 1 } } },
    "count": { "type": "s16", "count": 2, "init": { "values": [-1, 7] } },
    "f": { "type": "f32", "count": 2, "init": { "values": [0.5, "nan"] } },
    "h": { "type": "f16", "count": 1, "init": { "fill": -2 } },
    "w": { "type": "u64", "count": 1, "init": "zero" }
  },
  "args": [{ "buffer": "out" }],
  "outputs": ["out", "count", "f", "h", "w"]
})";

void litmus_cond(fuzz::Dialect d, const std::string& text) {
  litmus::Test t;
  try {
    t = fuzz::parse_dialect(d, text, "fuzz.litmus");
  } catch (const InputError& e) {
    fuzz::require_position(e);
    return;
  }
  (void)litmus::to_string(t.cond);
  fuzz::round_trip(d, t);
}

void buf_cond(const std::string& text, const interp::LaunchSpec& spec, const char* what) {
  cli::BufCond c;
  try {
    c = cli::parse_buf_cond(text, spec, what);
  } catch (const InputError& e) {
    fuzz::require_position(e);
    return;
  }
  std::vector<std::vector<uint8_t>> bufs;
  for (const auto& o : spec.outputs) bufs.push_back(spec.buffer(o)->init);
  (void)cli::eval_buf_cond(c, spec, bufs);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const interp::LaunchSpec spec = interp::parse_launch_spec("cond.json", kSpec, "");
  const std::string cond(reinterpret_cast<const char*>(data), size);
  litmus_cond(fuzz::Dialect::Native, kNative + cond);
  litmus_cond(fuzz::Dialect::Dat3m, kDat3m + cond);
  std::string_view rest = cond;
  while (!rest.empty() && (rest[0] == ' ' || rest[0] == '\n' || rest[0] == '\t')) rest.remove_prefix(1);
  for (std::string_view q : {"~exists", "exists", "forall"})
    if (rest.substr(0, q.size()) == q) {
      rest.remove_prefix(q.size());
      break;
    }
  const std::string expr(rest);
  buf_cond(expr, spec, "--exists");
  buf_cond(expr, spec, "--state");
  return 0;
}
