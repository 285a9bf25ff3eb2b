// The inline form of a resolved arithmetic instruction (fast.hpp), apart
// from its operations so that the interpreter's state (machine_state.hpp,
// which keeps one per instruction) does not see fast_ops.def: the
// operations are declared here and listed in fast.hpp.
#pragma once
#include <cstdint>

namespace ptxcheck::arith::fast {

enum class Op : uint8_t;  // fast.hpp: none (0), then fast_ops.def's

// A resolved instruction's inline form: op none when it has none.
struct Form {
  Op op{};           // none
  uint8_t w = 64;    // operand width in bits
  bool sg = false;   // signed (shr, setp, min, max; cvt: the integer side)
  uint8_t sw = 0;    // cvt: source width in bits
  uint8_t rnd = 0;   // cvt from a float to an integer: the rounding (softfloat.hpp Round)
  uint8_t rel = 0;   // setp: mask of the true relations (1 LT, 2 EQ, 4 GT, 8 unordered)
  bool ftz = false;  // floats: .ftz
  bool sat = false;  // floats: .sat
};

}  // namespace ptxcheck::arith::fast
