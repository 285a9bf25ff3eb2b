// `ptxcheck run` as a library: load a launch spec, parse and lower its PTX,
// and execute it. The report and --expect are the checker's (checker/run_report.hpp).
#pragma once
#include <string>

#include "semantics/interp/launch_spec.hpp"
#include "semantics/interp/machine.hpp"

namespace ptxcheck::interp {

struct RunReport {
  LaunchSpec spec;
  RunResult result;
};

// What becomes of the spec's buffer bytes: kept in RunReport::spec (the run
// copies them), or moved into the run (run_program_taking: no copy; the
// report's spec.buffers[i].init are then empty, result.buffers hold the
// final bytes), as `ptxcheck run` does.
enum class SpecBytes { Keep, Move };

// Throws InputError (spec or PTX file, position) for invalid input and
// LimitError for resource limits met before execution starts.
RunReport run_spec_file(const std::string& spec_path, const RunOptions& opt, SpecBytes bytes = SpecBytes::Keep);

}  // namespace ptxcheck::interp
