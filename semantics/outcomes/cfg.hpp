// The control flow of one function's IR as the static analyses of
// `ptxcheck outcomes` walk it (loop_analysis.cpp, liveness.cpp).
#pragma once
#include <cstdint>

#include "semantics/interp/machine.hpp"

namespace ptxcheck::outcomes {

// Calls fn(pc') for each successor of the instruction `in` at `pc` in its
// function's control flow, as the analyses walk it: the
// targets of bra and brx.idx, and pc + 1 unless an unguarded bra, brx.idx,
// ret, exit or trap ends the path there.
template <class F>
void for_each_successor(const interp::Program& prog, const interp::Inst& in, uint32_t pc, F&& fn) {
  switch (in.op) {
    case interp::IrOp::Bra: fn(in.target); break;
    case interp::IrOp::BrxIdx:
      for (uint32_t t : prog.branch_tables[in.target]) fn(t);
      break;
    case interp::IrOp::Ret:
    case interp::IrOp::Exit:
    case interp::IrOp::Trap: break;
    default: fn(pc + 1); return;
  }
  if (in.guarded) fn(pc + 1);
}

}  // namespace ptxcheck::outcomes
