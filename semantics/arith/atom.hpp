// The value an atomic read-modify-write stores (PTX ISA 9.7.13.5 atom,
// 9.7.13.6 red): the one definition used by the interpreter and by litmus
// threads.
// Contract: `type` is the instruction's type (.u32, .s64, .f32, .f16x2, ...);
// `old` is the value read, `b` the operand, `c` the new value of cas (ignored
// otherwise); all are raw bit patterns in the low ty_bits(type) bits and the
// result is one too. Min/max compare as the type says (signed for .sN,
// unsigned for .uN/.bN, floating point for the float types); inc/dec compare
// unsigned. atom_form_error() says whether (op, type) is a PTX form;
// atom_apply() may only be called on forms it accepts.
#pragma once
#include <cstdint>
#include <string>

#include "semantics/arith/resolve.hpp"

namespace ptxcheck::arith {

enum class AtomOp : uint8_t { Add, Inc, Dec, Min, Max, And, Or, Xor, Exch, Cas };

const char* atom_op_name(AtomOp op);

// Empty when atom/red .op.type is an operation this layer computes; else why not.
std::string atom_form_error(AtomOp op, Ty type);

uint64_t atom_apply(AtomOp op, Ty type, uint64_t old, uint64_t b, uint64_t c);

}  // namespace ptxcheck::arith
