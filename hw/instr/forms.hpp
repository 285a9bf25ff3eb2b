// The instruction forms the sequence generator draws from: arithmetic, cvt,
// setp/selp and bit instructions over .s/.u 16/32/64, .f16/.f16x2/.bf16/
// .bf16x2/.f32/.f64 with every rounding mode, .ftz and .sat spelling.
// Contract: candidates() lists every spelling we try (PTX ISA 9.7.1-9.7.9);
// forms() keeps those that ptxcheck's arithmetic layer resolves AND that
// ptxas accepted when the legality table (legal.inc, written by
// `ptxcheck-instrgen probe`) was generated; each carries its operand types as
// the arithmetic layer reports them.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ptxcheck::instrgen {

// Register class by width: 'p' predicate, 'h' 16, 'r' 32, 'd' 64 bits.
char reg_class(unsigned bits);
unsigned class_bits(char cls);

struct Operand {
  char cls = 'r';
  std::string ty;     // arithmetic-layer type name ("f32", "u32", "pred", ...)
  int imm_max = -1;   // >= 0: an immediate in [0, imm_max] instead of a register
};

struct Form {
  std::string mnemonic;  // "add.rn.ftz.f32"
  std::string family;    // opcode, used to spread the draw ("add", "cvt", ...)
  Operand dst;
  std::vector<Operand> srcs;
  bool approx = false;       // result only bounded (docs/approx.md)
  bool nonzero_divisor = false;  // integer div/rem: src 1 must not be 0 (unspecified)
  unsigned sm_mask = 0;      // bit 0: ptxas accepts it for sm_80, bit 1: sm_90
};

// Every spelling tried, in a fixed order.
std::vector<std::string> candidates();

// Builds a Form for `mnemonic` from the arithmetic layer; false when
// ptxcheck does not resolve it or it needs operands we do not generate.
bool make_form(const std::string& mnemonic, Form& out);

// Candidates that resolve and that the legality table marks legal somewhere.
const std::vector<Form>& forms();

// Legality bits of a mnemonic from legal.inc (0 when absent).
unsigned legal_mask(const std::string& mnemonic);

}  // namespace ptxcheck::instrgen
