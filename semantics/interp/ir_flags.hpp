// Bits of Inst::flags (semantics/interp/ir.hpp) that the lowering and the
// executors share, for the ops whose flags are not local to one file.
#pragma once
#include <cstdint>

namespace ptxcheck::interp {

// IrOp::Atom / IrOp::Red of a .v8 vector (PTX ISA 9.7.13.5-6): the
// instruction carries elements 0-3; the next instruction of the code array
// is an operand continuation (IrOp::Nop, never executed: the executor steps
// over it) whose dst[0..3]/src[0..3] are elements 4-7.
inline constexpr uint8_t kAtomV8 = 1;

}  // namespace ptxcheck::interp
