// The report of `ptxcheck run` (semantics/interp/run.hpp executes the
// launch): the output object as JSON or text and the --expect comparison
// (docs/launch-spec.md, "Output" and "--expect").
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "semantics/interp/run.hpp"

namespace ptxcheck::cli {

// A JSON string literal for s (quotes, backslashes and control characters escaped).
std::string jstr(const std::string& s);
// "[x, y, z]", as reports print CTA and thread coordinates.
std::string coords(const std::array<uint32_t, 3>& a);

// The output object {kernel, status, outputs, diagnostics, stats} as JSON.
// `jobs`: threads that may write a large output buffer's values (the text
// is the same for every number).
std::string format_json(const interp::RunReport& r, unsigned jobs = 1);
// The same content for a person.
std::string format_text(const interp::RunReport& r, unsigned jobs = 1);

struct ExpectOutcome {
  bool ok = true;
  uint64_t compared = 0;
  std::vector<std::string> mismatches;  // first few, for the report
  uint64_t mismatch_count = 0;
};

// Compares the run's buffers with an expected-output file (values by value;
// bit-exact, or within {"tolerance": {"ulp": N}} for float buffers).
// Throws InputError(expect file, position) when the file is malformed.
ExpectOutcome check_expected(const interp::RunReport& r, const std::string& expect_path);

// Values of buffer `b` of the spec as printed JSON spellings.
std::vector<std::string> buffer_values(const interp::RunReport& r, size_t b);

}  // namespace ptxcheck::cli
