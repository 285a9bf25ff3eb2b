// What the parallel run of a launch (parallel.cpp) learns from the program
// before it starts: which global allocations its code may write, and which
// loads a store to the same address follows. Both are guesses that the
// claims check (a wrong one costs the parallel run, never the result).
#pragma once
#include <cstdint>
#include <vector>

#include "semantics/interp/machine_state.hpp"

namespace ptxcheck::interp {

// Bit i of written_allocations' mask: allocation i (i < 62) may be written.
inline constexpr uint64_t kAnyAlloc = 1ull << 63;  // any allocation may be

// The global allocations the launch's code may write (parallel_analysis.cpp).
uint64_t written_allocations(const Program& p, Memory& mem);

// Per instruction: 1 for a load that claims its bytes as written, since a
// store of as many bytes to the same address follows it (parallel_analysis.cpp).
std::vector<uint8_t> loads_then_stored(const Program& p);

}  // namespace ptxcheck::interp
