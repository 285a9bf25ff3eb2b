// Internal: bit-width helpers for integer semantics.
#pragma once
#include <cstdint>

namespace ptxcheck::arith {

inline uint64_t mask(unsigned w) { return w >= 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1; }

// Sign-extend the low w bits of x (two's complement, defined since C++20).
inline int64_t sext(uint64_t x, unsigned w) {
  if (w >= 64) return static_cast<int64_t>(x);
  return static_cast<int64_t>(x << (64 - w)) >> (64 - w);
}

}  // namespace ptxcheck::arith
