// Internal to the executor (exec.cpp, exec_mem.cpp, exec_async.cpp, ...):
// register writes, fixed-size memory element copies, the diagnostic of a
// memory fault and the lane loop, shared by the step function's parts.
#pragma once
#include <bit>
#include <cstdint>
#include <cstring>

#include "semantics/interp/machine_state.hpp"

namespace ptxcheck::interp {
namespace {

inline void put(Thread& t, const Opnd& d, uint64_t v, uint32_t width) {
  if (d.kind != Opnd::Reg) return;
  if (width < 64) v &= (1ull << width) - 1;
  t.regs[t.reg_base + d.slot] = v;
}

// Fixed-size loads and stores of 1/2/4/8 bytes (a variable-size memcpy into
// a stack slot costs a store-forwarding stall per element).
inline uint64_t load_n(const uint8_t* p, unsigned n) {
  switch (n) {
    case 1: return *p;
    case 2: { uint16_t v; std::memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; std::memcpy(&v, p, 4); return v; }
    case 8: { uint64_t v; std::memcpy(&v, p, 8); return v; }
  }
  uint64_t v = 0;
  std::memcpy(&v, p, n < 8 ? n : 8);
  return v;
}
inline void store_n(uint8_t* p, uint64_t v, unsigned n) {
  switch (n) {
    case 1: *p = static_cast<uint8_t>(v); return;
    case 2: { uint16_t x = static_cast<uint16_t>(v); std::memcpy(p, &x, 2); return; }
    case 4: { uint32_t x = static_cast<uint32_t>(v); std::memcpy(p, &x, 4); return; }
    case 8: std::memcpy(p, &v, 8); return;
  }
  std::memcpy(p, &v, n < 8 ? n : 8);
}

// The diagnostic of a memory fault.
inline DiagKind fault_kind(Fault f) {
  switch (f) {
    case Fault::Misaligned: return DiagKind::Misaligned;
    case Fault::ReadOnly: return DiagKind::ReadOnlyWrite;
    default: return DiagKind::OutOfBounds;
  }
}

inline uint64_t sext(uint64_t v, unsigned bits) {
  if (bits >= 64) return v;
  uint64_t m = 1ull << (bits - 1);
  v &= (1ull << bits) - 1;
  return (v ^ m) - m;
}

// The number of set bits of a lane mask, inline: the build does not assume
// the POPCNT instruction, so std::popcount is a library call (the same count).
inline uint32_t lane_count(uint32_t x) {
  if (x == ~0u) return 32;  // a whole warp, the usual case
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  x = (x + (x >> 4)) & 0x0f0f0f0fu;
  return (x * 0x01010101u) >> 24;
}

}  // namespace

// The functions a launch of `p`'s kernel can run: the kernel and, through
// calls, the defined functions it reaches (the kernel first), each with its
// code range [begin, end). False when a call is indirect (then any function
// may run; `out` is incomplete). machine.cpp.
struct FuncRange {
  uint32_t func, begin, end;
};
bool reachable_functions(const Program& p, std::vector<FuncRange>& out);

// CTAs on all cores (parallel.cpp), exec_ldst's tight loop: the window
// [lo, hi) of `hot` in which the lanes of `m` may access one element each
// of `in` without a claim of their own: all of `hot` for a load from an
// allocation the kernel does not write; for a full warp whose lanes 0 and
// 31 are 31 elements apart (the usual coalesced access), the 32 elements
// from lane 0's address, claimed here at once. lo == hi: none (the general
// loop claims). False on a conflict (the machine stops).
bool par_window(Machine& mc, const Warp& w, const Inst& in, uint32_t m, const Region* hot, bool st, uint64_t& lo,
                uint64_t& hi);

// The lanes of `mask`, in ascending order, as `l`.
#define FOR_LANES(mask) for (uint32_t b_ = (mask), l; b_ && ((l = std::countr_zero(b_)), true); b_ &= b_ - 1)

}  // namespace ptxcheck::interp
