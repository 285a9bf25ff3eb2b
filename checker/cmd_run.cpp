// ptxcheck run SPEC.json [--json] [--expect FILE] [--max-steps N] [--races=strict|default|off] [--jobs N]
// Executes one kernel launch (docs/interpreter.md, launch-spec contract).
// Exit: 0 ok; 1 an error diagnostic or an --expect mismatch; 2 invalid input
// or usage; 3 step budget exceeded.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "checker/commands.hpp"
#include "checker/run_report.hpp"
#include "parser/diagnostic.hpp"

namespace ptxcheck::cli {

int cmd_run(const Args& args) {
  std::string spec, expect, max_steps, races = "default";
  bool json = false, no_races = false;
  interp::RunOptions opt;
  CLI::App app{"Execute one kernel launch described by a launch spec (docs/launch-spec.md).", "ptxcheck run"};
  app.add_option("spec", spec, "launch spec (JSON)")->required();
  app.add_flag("--json", json, "print the result object as JSON");
  app.add_option("--expect", expect, "compare the outputs with FILE (bit-exact or {\"tolerance\": {\"ulp\": N}})")
      ->type_name("FILE");
  app.add_option("--max-steps", max_steps,
                 "stop after N thread instructions (exit 3); default " + std::to_string(opt.max_steps))
      ->type_name("N")
      ->check([](const std::string& n) {
        return n.empty() || n.find_first_not_of("0123456789") != std::string::npos || n.size() > 19
                   ? std::string("needs a non-negative integer")
                   : std::string();
      });
  app.add_option("--races", races,
                 "default: data races are errors, warp-sync races (docs/races.md) warnings; "
                 "strict: both are errors; off: no race tracking")
      ->type_name("MODE")
      ->check(CLI::IsMember({"strict", "default", "off"}));
  app.add_flag("--no-races", no_races, "the same as --races=off");
  std::string jobs;
  app.add_option("--jobs", jobs,
                 "worker threads for the CTAs (docs/interpreter.md, CTAs on all cores; the output is the same "
                 "for every N); default PTXCHECK_JOBS, else the number of cores")
      ->type_name("N")
      ->check([](const std::string& n) {
        unsigned v = 0;
        return interp::parse_jobs(n.c_str(), v) ? std::string() : std::string("needs a number from 1 to 4096");
      });
  if (int rc = parse_args(app, args); rc >= 0) return rc;
  if (const char* env = std::getenv("PTXCHECK_JOBS"); jobs.empty() && env && *env && !interp::parse_jobs(env, opt.jobs))
    std::fprintf(stderr, "ptxcheck run: ignoring PTXCHECK_JOBS='%s' (not a number from 1 to 4096)\n", env);
  opt.jobs = jobs.empty() ? interp::default_jobs() : static_cast<unsigned>(std::stoul(jobs));
  if (!max_steps.empty()) opt.max_steps = std::stoull(max_steps);
  opt.check_races = !no_races && races != "off";
  opt.strict_races = races == "strict";
  interp::RunReport r = interp::run_spec_file(spec, opt, interp::SpecBytes::Move);
  std::string text = json ? format_json(r, opt.jobs) : format_text(r, opt.jobs);
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
  if (r.result.step_limit) return kExitResourceLimit;
  int rc = r.result.ok ? kExitOk : kExitExpectationFailed;
  if (!expect.empty()) {
    ExpectOutcome e = check_expected(r, expect);
    for (const auto& m : e.mismatches) std::fprintf(stderr, "%s: mismatch: %s\n", expect.c_str(), m.c_str());
    if (e.mismatch_count > e.mismatches.size())
      std::fprintf(stderr, "%s: ... %llu mismatches in all\n", expect.c_str(),
                   static_cast<unsigned long long>(e.mismatch_count));
    if (!e.ok) rc = kExitExpectationFailed;
  }
  return rc;
}

}  // namespace ptxcheck::cli
