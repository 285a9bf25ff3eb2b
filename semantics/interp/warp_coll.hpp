// The values of a warp-collective .sync instruction (shfl.sync, vote.sync,
// match.sync, redux.sync, elect.sync), as one pure function of the lanes'
// operands: the interpreter's warp executor (warp_ops.cpp) and the symbolic
// thread executor (trace_exec.cpp, for litmus threads placed in one warp)
// both compute them here, so a collective gives the same bits in both.
#pragma once
#include <cstdint>

#include "semantics/interp/ir.hpp"

namespace ptxcheck::interp {

// Operands of the lanes taking part, indexed by lane: a = src[0], b =
// src[1], c = src[2] as the lane's own instruction reads them (a predicate
// operand already negated where written `!p`).
struct CollOperands {
  uint64_t a[32] = {}, b[32] = {}, c[32] = {};
};

struct CollResult {
  uint64_t d0[32] = {}, d1[32] = {};  // dst[0], dst[1] per lane of `part`
  // shfl: the lane each lane reads (its own lane when the predicate is
  // false), and whether that lane is outside the membermask (or the warp)
  // while the predicate is true (PTX ISA 9.7.9.6: an undefined value).
  int src[32] = {};
  uint32_t outside = 0;
};

// `in` is any participating lane's instruction (all have the same
// qualifiers), `part` the lanes taking part, `mm` the membermask, `nlanes`
// the lanes of the warp. For shfl, a[] must hold the value of every lane a
// participating lane may read (the warp's lanes, not just `part`).
void warp_collective_values(const Inst& in, uint32_t part, uint32_t mm, uint32_t nlanes, const CollOperands& op,
                            CollResult& r);

}  // namespace ptxcheck::interp
