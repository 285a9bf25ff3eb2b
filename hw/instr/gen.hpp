// Random straight-line instruction tests (issue 5): each test is a PTX
// kernel in which every thread loads typed inputs (edge values: NaN payloads,
// +-0, +-inf, subnormals, INT_MIN, -1, large shift counts, plus random bits)
// from buffer `in`, runs a random sequence drawn from forms(), and stores
// every result to its own 64-bit slot of buffer `out`; plus a launch spec
// (docs/launch-spec.md) and a manifest describing each slot.
// Contract: generation is a pure function of (seed, index, options), the
// same on every host; `.approx` results are stored but never feed later
// instructions, so one bounded difference cannot spread; integer divisors
// are forced non-zero (the ISA leaves x/0 unspecified).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ptxcheck::instrgen {

struct GenOptions {
  unsigned length = 40;   // instructions drawn per kernel (results stored)
  unsigned threads = 32;  // one CTA of this many threads, each with its own inputs
};

// One output slot per result: what produced it and how to compare it.
struct Slot {
  std::string mnemonic;  // "sin.approx.f32"
  std::string ty;        // result type of the arithmetic layer ("f32", "pred", ...)
  unsigned bits = 32;    // bits stored (predicates: 32, as 0/1)
  bool approx = false;   // compare with arith::within_bound
  bool nan_any = false;  // f64 result: any NaN matches any NaN
};

struct Kernel {
  std::string name;  // file stem: "s1_0003.sm_90"
  int sm = 80;
  std::string ptx, spec_json, manifest_json;
};

struct Test {
  std::string stem;  // "s1_0003"
  std::vector<Kernel> variants;  // sm_80 and sm_90, or sm_90 only
  std::vector<Slot> slots;
  std::vector<std::string> mnemonics;  // instructions drawn, in order
};

Test generate(uint64_t seed, unsigned index, const GenOptions& opt = {});

// Writes every variant as DIR/NAME.ptx, NAME.json, NAME.manifest.json.
void write_test(const Test& t, const std::string& dir);

// Manifest of a spec path: "x/a.sm_80.json" -> "x/a.sm_80.manifest.json".
std::string manifest_path_for(const std::string& spec_path);

}  // namespace ptxcheck::instrgen
