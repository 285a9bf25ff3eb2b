// `ptxcheck run` as a library: load a launch spec, parse and lower its PTX,
// execute, and report (docs/launch-spec: output object and --expect).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "semantics/interp/launch_spec.hpp"
#include "semantics/interp/machine.hpp"

namespace ptxcheck::interp {

struct RunReport {
  LaunchSpec spec;
  RunResult result;
};

// Throws InputError (spec or PTX file, position) for invalid input and
// LimitError for resource limits met before execution starts.
RunReport run_spec_file(const std::string& spec_path, const RunOptions& opt);

// The output object {kernel, status, outputs, diagnostics, stats} as JSON.
// A JSON string literal for s (quotes, backslashes and control characters escaped).
std::string jstr(const std::string& s);
// "[x, y, z]", as reports print CTA and thread coordinates.
std::string coords(const std::array<uint32_t, 3>& a);

std::string format_json(const RunReport& r);
// The same content for a person.
std::string format_text(const RunReport& r);

struct ExpectOutcome {
  bool ok = true;
  uint64_t compared = 0;
  std::vector<std::string> mismatches;  // first few, for the report
  uint64_t mismatch_count = 0;
};

// Compares the run's buffers with an expected-output file (values by value;
// bit-exact, or within {"tolerance": {"ulp": N}} for float buffers).
// Throws InputError(expect file, position) when the file is malformed.
ExpectOutcome check_expected(const RunReport& r, const std::string& expect_path);

// Values of buffer `b` of the spec as printed JSON spellings.
std::vector<std::string> buffer_values(const RunReport& r, size_t b);

}  // namespace ptxcheck::interp
