// Conditions over final buffer states for `ptxcheck outcomes`: `--exists`
// and `--forall` take a herd-style proposition over elements
// (`out[0] == 0 /\ count[0] != 2`, `~(out == 42)`; `out` alone is out[0];
// `=` is `==`; connectives /\ \/ ~ and && || !), `--state` a conjunction of
// element values (`out[0]=0; count[0]=2`).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "semantics/interp/launch_spec.hpp"
#include "semantics/interp/values.hpp"

namespace ptxcheck::cli {

struct BufCond {
  enum Kind { Cmp, And, Or, Not, True } kind = True;
  // Cmp: buffer output index, element, operator, literal bits (in the buffer's type)
  size_t out = 0;
  uint64_t elem = 0;
  std::string op;
  uint64_t bits = 0;
  std::vector<BufCond> kids;
};

// Throws InputError("--exists", 1:col) for a malformed condition or an
// element that is not in the spec's outputs.
BufCond parse_buf_cond(const std::string& text, const interp::LaunchSpec& spec, const std::string& what);
bool eval_buf_cond(const BufCond& c, const interp::LaunchSpec& spec, const std::vector<std::vector<uint8_t>>& bufs);

}  // namespace ptxcheck::cli
