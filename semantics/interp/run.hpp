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

// Throws InputError (spec or PTX file, position) for invalid input and
// LimitError for resource limits met before execution starts.
RunReport run_spec_file(const std::string& spec_path, const RunOptions& opt);

}  // namespace ptxcheck::interp
