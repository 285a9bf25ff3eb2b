// Inline forms of the hottest integer kernels, for the interpreter's lane
// loop (semantics/interp/exec_fast.cpp): a warp step of one of these runs
// without an indirect call per lane. Each form computes what its OpDesc::fn
// computes (int_ops.cpp plain<>, minmax; bit_ops.cpp logic, selp;
// compare.cpp setp on integer types), written again here rather than shared,
// so that tests/semantics/arith_fast.cpp compares two implementations bit
// for bit on random and edge operands for every form (fast_ops.def).
#pragma once
#include <cstdint>

#include "semantics/arith/intutil.hpp"
#include "semantics/arith/resolve.hpp"

namespace ptxcheck::arith::fast {

enum class Op : uint8_t {
  none,
#define X(name, what, section) name,
#include "semantics/arith/fast_ops.def"
#undef X
};

// A resolved instruction's inline form: op none when it has none.
struct Form {
  Op op = Op::none;
  uint8_t w = 64;   // operand width in bits
  bool sg = false;  // signed (shr, setp, min, max)
  uint8_t rel = 0;  // setp: mask of the true relations (1 LT, 2 EQ, 4 GT)
};

Form form_of(const OpDesc& d);

// The relation of two w-bit integers (compare.cpp relation for k_uint/k_sint).
inline uint32_t int_relation(uint64_t a, uint64_t b, unsigned w, bool sg) {
  if (!sg) {
    a &= mask(w);
    b &= mask(w);
    return a < b ? 1 : a == b ? 2 : 4;
  }
  int64_t x = sext(a, w), y = sext(b, w);
  return x < y ? 1 : x == y ? 2 : 4;
}

// logic's shifts (bit_ops.cpp): shift amounts above the width clamp to it
// (9.7.8.8 shl, 9.7.8.9 shr; .s fills with the sign bit). `a` is already
// masked to w bits.
inline uint64_t shl(uint64_t a, uint64_t b, unsigned w) {
  uint64_t n = b & 0xffffffffu;
  return n >= w ? 0 : (a << n) & mask(w);
}
inline uint64_t shr(uint64_t a, uint64_t b, unsigned w, bool sg) {
  uint64_t n = b & 0xffffffffu;
  if (n > w) n = w;
  if (sg) return static_cast<uint64_t>(sext(a, w) >> (n < 63 ? n : 63)) & mask(w);
  return n >= w ? 0 : a >> n;
}

// min/max (int_ops.cpp minmax1 without .relu).
inline uint64_t minmax(uint64_t a, uint64_t b, unsigned w, bool sg, bool mx) {
  if (sg) {
    int64_t x = sext(a, w), y = sext(b, w);
    return static_cast<uint64_t>(mx ? (x < y ? y : x) : (y < x ? y : x)) & mask(w);
  }
  uint64_t x = a & mask(w), y = b & mask(w);
  return mx ? (x < y ? y : x) : (y < x ? y : x);
}

// The result of form `f` (operation O) on sources a, b, c, in the low f.w
// bits (setp: p, 0 or 1; its q is !p).
template <Op O>
inline uint64_t apply(const Form& f, uint64_t a, uint64_t b, uint64_t c) {
  const unsigned w = f.w;
  if constexpr (O == Op::add)
    return (a + b) & mask(w);
  else if constexpr (O == Op::sub)
    return (a - b) & mask(w);
  else if constexpr (O == Op::mul_lo)
    return (a * b) & mask(w);
  else if constexpr (O == Op::mad_lo)
    return (a * b + c) & mask(w);
  else if constexpr (O == Op::and_)
    return a & b & mask(w);
  else if constexpr (O == Op::or_)
    return (a | b) & mask(w);
  else if constexpr (O == Op::xor_)
    return (a ^ b) & mask(w);
  else if constexpr (O == Op::not_)
    return ~a & mask(w);
  else if constexpr (O == Op::cnot)
    return (a & mask(w)) == 0 ? 1 : 0;
  else if constexpr (O == Op::shl)
    return shl(a & mask(w), b, w);
  else if constexpr (O == Op::shr)
    return shr(a & mask(w), b, w, f.sg);
  else if constexpr (O == Op::selp)
    return ((c & 1) != 0 ? a : b) & mask(w);
  else if constexpr (O == Op::setp)
    return (int_relation(a, b, w, f.sg) & f.rel) != 0 ? 1 : 0;
  else if constexpr (O == Op::min)
    return minmax(a, b, w, f.sg, false);
  else if constexpr (O == Op::max)
    return minmax(a, b, w, f.sg, true);
  else
    return 0;
}

// apply() by a run-time op (for tests); setp's q is !p.
inline uint64_t eval(const Form& f, const uint64_t* s) {
  switch (f.op) {
#define X(name, what, section) \
  case Op::name:               \
    return apply<Op::name>(f, s[0], s[1], s[2]);
#include "semantics/arith/fast_ops.def"
#undef X
    case Op::none: break;
  }
  return 0;
}

}  // namespace ptxcheck::arith::fast
