// `ptxcheck exec [options] PROGRAM [ARGS...]`: run a CUDA program (driver
// or runtime API, built with PTX embedded) on the interpreter through the
// shim and report every kernel launch's diagnostics (cuda/exec/exec.hpp,
// cuda/README.md). Exit: the program's status, or --error-exitcode N when a
// diagnostic was reported; 2 on a usage error; 127 when PROGRAM cannot run.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "checker/commands.hpp"
#include "cuda/exec/exec.hpp"
#include "semantics/interp/machine.hpp"

namespace ptxcheck::cli {

int cmd_exec(const Args& args) {
  cuda_exec::Options opt;
  std::string races = "default";
  CLI::App app{"Run a CUDA program on the PTX interpreter (through the driver shim) and report each kernel "
               "launch's diagnostics: data races, out-of-bounds, misaligned and uninitialised accesses, barrier "
               "divergence.",
               "ptxcheck exec"};
  app.add_option("--races", races,
                 "default: data races are errors, warp-sync races (docs/races.md) warnings; strict: both are errors; "
                 "off: no race tracking (on: the same as default)")
      ->type_name("MODE")
      ->check(CLI::IsMember({"strict", "default", "off", "on"}));
  app.add_option("--report", opt.report, "write a JSON report of every launch and diagnostic to FILE");
  app.add_option("--max-steps", opt.max_steps,
                 "step budget: thread instructions a launch may run without any of its threads exiting "
                 "(default " + std::to_string(interp::RunOptions{}.max_steps) +
                     "); a launch that exceeds it (a hung kernel) is stopped, and exec exits with 3")
      ->check(CLI::PositiveNumber);
  app.add_option("--device", opt.device, "the emulated device (sm_80, sm_90, ...; default sm_90)");
  app.add_option("--error-exitcode", opt.error_exitcode, "exit with N when any diagnostic was reported")
      ->check(CLI::Range(0, 255));
  app.add_option("--jobs", opt.jobs,
                 "worker threads for the CTAs of a launch (the output is the same for every N); default "
                 "PTXCHECK_JOBS, else the number of cores")
      ->check(CLI::Range(1, 4096));
  app.add_option("--ptx-dir", opt.ptx_dir, "write each loaded module's PTX to DIR (diagnostics then name it)");
  app.prefix_command();  // PROGRAM and everything after it are the program's, options included
  app.footer("Options go before PROGRAM; everything from PROGRAM on is passed to it unchanged.");
  if (int rc = parse_args(app, args); rc >= 0) return rc;
  opt.argv = app.remaining();
  if (opt.argv.empty()) return usage_error(app.get_name(), args, "PROGRAM is required");
  if (opt.argv[0].size() > 1 && opt.argv[0][0] == '-')  // an option exec does not know (a program path: ./-x)
    return usage_error(app.get_name(), args, "unknown option '" + opt.argv[0] + "'", opt.argv[0]);
  opt.races = races == "on" ? "default" : races;
  const char* dir = std::getenv("PTXCHECK_SHIM_DIR");
  opt.shim_dir = dir && *dir ? dir : PTXCHECK_SHIM_BUILD_DIR;
  return cuda_exec::run(opt);
}

}  // namespace ptxcheck::cli
