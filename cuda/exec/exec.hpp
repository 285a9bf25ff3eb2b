// `ptxcheck exec PROGRAM [ARGS...]` (cuda/README.md "ptxcheck exec"): runs
// a CUDA program on the shim (libcuda.so.1 from cuda/shim, found through
// LD_LIBRARY_PATH) and reports every kernel launch's diagnostics, in the
// manner of compute-sanitizer. The shim writes one JSON line per launch and
// per diagnostic to the file named by PTXCHECK_SHIM_REPORT; exec reads them
// back after the program exits.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ptxcheck::cuda_exec {

struct Options {
  std::vector<std::string> argv;  // PROGRAM ARGS...
  std::string races = "default";  // --races=strict|default|off (docs/races.md)
  uint64_t max_steps = 0;         // --max-steps (0: the shim's default)
  std::string device;             // --device sm_80 (empty: the shim's default, sm_90)
  std::string report;             // --report FILE.json
  std::string ptx_dir;            // --ptx-dir DIR: keep each module's PTX there
  int error_exitcode = -1;        // --error-exitcode N (-1: the program's status)
  unsigned jobs = 0;              // --jobs N: worker threads for CTAs (0: PTXCHECK_JOBS, else the cores)
  std::string shim_dir;           // where libcuda.so.1 is
};

// Runs the program; returns the exit code `ptxcheck exec` exits with.
int run(const Options& opt);

}  // namespace ptxcheck::cuda_exec
