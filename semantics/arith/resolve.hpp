// Decode-time resolution of an arithmetic PTX instruction to a function pointer.
//
// Contract (for the interpreter):
//   auto r = arith::resolve("add.rn.ftz.f32");   // once, at decode time
//   if (!r) report(r.error);                      // unsupported combination
//   uint64_t d = r.desc(src, &aux);               // per thread, no string work
//
// * The mnemonic is the opcode followed by its dot-modifiers and types, e.g.
//   "cvt.rzi.s32.f64", "mad.hi.sat.s32", "setp.ltu.and.ftz.f32",
//   "fma.rn.f16x2". Modifiers may come in any order; types keep PTX order
//   (cvt: destination type first). State-space or .sync-style modifiers are
//   not part of this layer.
// * Source operands: src[0..nsrc-1] hold the raw bit pattern of each source in
//   its low width(src[i]) bits; higher bits are ignored. Predicates are 0/1.
//   Immediate-only operands (lop3's immLut, prmt's selector is a register)
//   are ordinary sources too. At most 5 sources (lop3.BoolOp: a b c immLut q);
//   all others take at most 4.
// * Operand syntax that changes the semantics is passed as extra tokens:
//   video selectors a.b1 / b.h0 / d.b2 as asel_b1, bsel_h0, dsel_b2 (SIMD
//   forms: asel_h10, bsel_b7654, dsel_h1, dsel_b310), and vmad operand
//   negation -a/-b/-c as neg_a, neg_b, neg_c. Sources are then the plain
//   registers; the selection happens inside the kernel.
// * Result: raw bits of the destination in the low width(dst) bits, higher
//   bits zero (predicates 0/1).
// * aux: carry chains (PTX ISA 9.7.1.x add.cc/addc/sub.cc/subc/mad.cc/madc):
//   the carry-in is the last source (0/1) and the carry-out is written to
//   *aux (0/1) when aux_out. setp/set with two destinations (p|q): *aux
//   receives q; lop3.BoolOp d|p: *aux receives p. mul.wide and similar
//   give the whole result in the return value.
// * Round-to-nearest f32/f64/f16/bf16 arithmetic and common cvt forms run on
//   the host FPU when a resolve-time probe shows it is IEEE-exact (see
//   ResolveOptions); the software path gives the same bits.
// * Unspecified-by-spec results (integer division by zero, .approx values) are
//   documented in docs/approx.md; `bound` gives the spec's error bound for a
//   check mode that accepts any value within it.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ptxcheck::arith {

enum class Ty : uint8_t {
#define X(name, bits, kind) name,
#include "semantics/arith/types.def"
#undef X
};

unsigned ty_bits(Ty t);
std::string_view ty_name(Ty t);
std::optional<Ty> ty_from_name(std::string_view s);

// Maximum error of an .approx result relative to the exact function value, as
// stated by the PTX ISA for that instruction (see docs/approx.md). Some
// bounds depend on the input (sin/cos, lg2, div.approx); `fn` names the
// function so that within_approx_bound() can pick the bound for an input.
struct ErrBound {
  // none: the ISA states no bound ("gross approximation", "best effort"):
  // only the special-value rules are checked.
  enum Kind : uint8_t { exact, ulp, abs, rel, abs_or_ulp, none } kind = exact;
  double value = 0;   // ulps, absolute error, or relative error
  double value2 = 0;  // abs_or_ulp: ulps allowed outside the absolute-error domain
  uint8_t fn = 0;     // approx function (0: not an .approx/.full instruction)
};

using OpFn = uint64_t (*)(const uint64_t* src, uint64_t* aux, uint64_t cfg);

struct OpDesc {
  OpFn fn = nullptr;
  uint64_t cfg = 0;  // opaque configuration (rounding, flags), passed to fn
  uint8_t nsrc = 0;
  Ty dst = Ty::b32;
  Ty src[5] = {Ty::b32, Ty::b32, Ty::b32, Ty::b32, Ty::b32};
  bool aux_out = false;  // fn writes *aux (carry-out, or q of setp p|q)
  Ty aux_ty = Ty::pred;
  ErrBound bound;
  uint64_t operator()(const uint64_t* s, uint64_t* aux) const { return fn(s, aux, cfg); }
};

struct Resolved {
  std::optional<OpDesc> desc;
  std::string error;  // set when desc is empty: why the combination is unsupported
  explicit operator bool() const { return desc.has_value(); }
};

// Check mode for .approx results: true when `got` is within the spec's bound
// (d.bound) of `ref`, ptxcheck's deterministic value for the same inputs
// (itself the exact result rounded to nearest, see docs/approx.md). NaN
// matches any NaN; infinities must match exactly; exact ops need got == ref.
// Coarse: prefer within_approx_bound, which knows the inputs.
bool within_bound(const OpDesc& d, uint64_t got, uint64_t ref);

// Check mode with the inputs: true when `got` is a value the PTX ISA allows
// for d applied to src. The error is measured against the exact function
// value (long double) with the bound that applies to this input (sin/cos:
// 2^-20.5 on [-2pi, 2pi], 2^-14.7 on [-100pi, 100pi], none beyond; lg2:
// absolute 2^-22 on (0.5, 2), relative elsewhere; div.approx: 2 ulp for
// |b| in [2^-126, 2^126]); ulp bounds count ordered bit patterns from the
// correctly rounded value, which is itself always accepted (also where it
// overflows or underflows). The special-value tables of the ISA must match
// exactly (NaN: any NaN; infinities and exact zeros bit for bit); with
// .ftz a subnormal candidate is rejected and a zero accepted where the
// exact result lies below the smallest normal. Exact (non-approx)
// instructions need got == d(src).
bool within_approx_bound(const OpDesc& d, const uint64_t* src, uint64_t got);

struct ResolveOptions {
  // Use the host FPU for round-to-nearest f32/f64 add/sub/mul/fma/div/sqrt/rcp
  // when a probe at resolve time shows IEEE behaviour (SSE-style evaluation,
  // round-to-nearest, no flush-to-zero or denormals-are-zero). The results are
  // bit-identical to the software path; false forces software (used by tests).
  bool host_fpu = true;
};

Resolved resolve(std::string_view mnemonic, const ResolveOptions& opts = {});

// mov.b64 d, {a, b} and mov.b32 d, {a, b}: element 0 is the least significant
// (PTX ISA 9.7.9.3 mov, vector form).
inline uint64_t pack2(uint64_t lo, uint64_t hi, unsigned elem_bits) {
  uint64_t mask = elem_bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << elem_bits) - 1;
  return (lo & mask) | ((hi & mask) << elem_bits);
}
inline uint64_t unpack_elem(uint64_t v, unsigned elem_bits, unsigned i) {
  uint64_t mask = elem_bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << elem_bits) - 1;
  return (v >> (elem_bits * i)) & mask;
}

}  // namespace ptxcheck::arith
