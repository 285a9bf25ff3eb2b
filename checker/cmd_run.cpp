// ptxcheck run SPEC.json [--json] [--expect FILE] [--max-steps N] [--no-races]
// Executes one kernel launch (docs/interpreter.md, launch-spec contract).
// Exit: 0 ok; 1 an error diagnostic or an --expect mismatch; 2 invalid input
// or usage; 3 step budget exceeded.
#include <cstdio>
#include <string>

#include "checker/commands.hpp"
#include "parser/diagnostic.hpp"
#include "semantics/interp/run.hpp"

namespace ptxcheck::cli {

namespace {
constexpr const char* kRunUsage =
    "usage: ptxcheck run SPEC.json [--json] [--expect FILE] [--max-steps N] [--no-races]\n"
    "  --json         print the result object as JSON\n"
    "  --expect FILE  compare the outputs with FILE (bit-exact or {\"tolerance\": {\"ulp\": N}})\n"
    "  --max-steps N  stop after N thread instructions (exit 3); default 2000000000\n"
    "  --no-races     do not track data races\n";
}

int cmd_run(const Args& args) {
  std::string spec, expect;
  bool json = false;
  interp::RunOptions opt;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json") {
      json = true;
    } else if (a == "--expect" && i + 1 < args.size()) {
      expect = args[++i];
    } else if (a == "--max-steps" && i + 1 < args.size()) {
      const std::string& n = args[++i];
      if (n.empty() || n.find_first_not_of("0123456789") != std::string::npos || n.size() > 19) {
        std::fprintf(stderr, "ptxcheck run: --max-steps needs a non-negative integer\n%s", kRunUsage);
        return kExitInvalidInput;
      }
      opt.max_steps = std::stoull(n);
    } else if (a == "--no-races") {
      opt.check_races = false;
    } else if (a == "-h" || a == "--help") {
      std::fputs(kRunUsage, stdout);
      return kExitOk;
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "ptxcheck run: unknown option '%s'\n%s", a.c_str(), kRunUsage);
      return kExitInvalidInput;
    } else if (spec.empty()) {
      spec = a;
    } else {
      std::fprintf(stderr, "ptxcheck run: one launch spec at a time\n%s", kRunUsage);
      return kExitInvalidInput;
    }
  }
  if (spec.empty()) {
    std::fputs(kRunUsage, stderr);
    return kExitInvalidInput;
  }
  interp::RunReport r = interp::run_spec_file(spec, opt);
  std::string text = json ? interp::format_json(r) : interp::format_text(r);
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
  if (r.result.step_limit) return kExitResourceLimit;
  int rc = r.result.ok ? kExitOk : kExitExpectationFailed;
  if (!expect.empty()) {
    interp::ExpectOutcome e = interp::check_expected(r, expect);
    for (const auto& m : e.mismatches) std::fprintf(stderr, "%s: mismatch: %s\n", expect.c_str(), m.c_str());
    if (e.mismatch_count > e.mismatches.size())
      std::fprintf(stderr, "%s: ... %llu mismatches in all\n", expect.c_str(),
                   static_cast<unsigned long long>(e.mismatch_count));
    if (!e.ok) rc = kExitExpectationFailed;
  }
  return rc;
}

}  // namespace ptxcheck::cli
