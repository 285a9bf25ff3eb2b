// arith::atom_apply: the one atom/red arithmetic (PTX ISA 9.7.13.5) follows
// the instruction type.
#include <catch2/catch.hpp>

#include "semantics/arith/atom.hpp"

using namespace ptxcheck::arith;

TEST_CASE("atom min/max compare as the type says", "[unit]") {
  // .u32/.u64: unsigned, also at and above 2^(n-1).
  CHECK(atom_apply(AtomOp::Min, Ty::u32, 0x80000000u, 1, 0) == 1);
  CHECK(atom_apply(AtomOp::Max, Ty::u32, 0x80000000u, 1, 0) == 0x80000000u);
  CHECK(atom_apply(AtomOp::Min, Ty::u32, 5, 0xffffffffffffffffull, 0) == 5);  // operand bits above 32 ignored
  CHECK(atom_apply(AtomOp::Min, Ty::u64, 0x8000000000000000ull, 1, 0) == 1);
  // .s32/.s64: signed.
  CHECK(atom_apply(AtomOp::Max, Ty::s32, 0xffffffffu, 1, 0) == 1);
  CHECK(atom_apply(AtomOp::Min, Ty::s32, 0xffffffffu, 1, 0) == 0xffffffffu);
  CHECK(atom_apply(AtomOp::Min, Ty::s64, 0x8000000000000000ull, 1, 0) == 0x8000000000000000ull);
  CHECK(atom_apply(AtomOp::Max, Ty::s16, 0x8000, 0x7fff, 0) == 0x7fff);
}

TEST_CASE("atom inc/dec/cas/exch/add and the float forms", "[unit]") {
  CHECK(atom_apply(AtomOp::Inc, Ty::u32, 7, 7, 0) == 0);
  CHECK(atom_apply(AtomOp::Inc, Ty::u32, 6, 7, 0) == 7);
  CHECK(atom_apply(AtomOp::Dec, Ty::u32, 0, 9, 0) == 9);
  CHECK(atom_apply(AtomOp::Dec, Ty::u32, 10, 9, 0) == 9);
  CHECK(atom_apply(AtomOp::Dec, Ty::u32, 5, 9, 0) == 4);
  CHECK(atom_apply(AtomOp::Cas, Ty::b32, 3, 3, 8) == 8);
  CHECK(atom_apply(AtomOp::Cas, Ty::b32, 3, 4, 8) == 3);
  CHECK(atom_apply(AtomOp::Exch, Ty::b64, 3, 0x123456789ull, 0) == 0x123456789ull);
  CHECK(atom_apply(AtomOp::Add, Ty::u32, 0xffffffffu, 2, 0) == 1);
  CHECK(atom_apply(AtomOp::Add, Ty::f32, 0x3f800000u, 0x3f800000u, 0) == 0x40000000u);  // 1 + 1 = 2
  CHECK(atom_apply(AtomOp::Add, Ty::f32, 0x00000001u, 0, 0) == 0);                       // .f32 flushes subnormals
  CHECK(atom_apply(AtomOp::Add, Ty::f64, 1, 0, 0) == 1);                                 // .f64 does not
  CHECK(atom_apply(AtomOp::Max, Ty::f16, 0x3c00, 0x4000, 0) == 0x4000);                  // max(1, 2) = 2
  CHECK(atom_form_error(AtomOp::Min, Ty::f32) != "");
  CHECK(atom_form_error(AtomOp::And, Ty::f64) != "");
  CHECK(atom_form_error(AtomOp::Add, Ty::f16x2) == "");
  CHECK(atom_form_error(AtomOp::Exch, Ty::f32) == "");
}
