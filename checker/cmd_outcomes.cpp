// `ptxcheck outcomes SPEC.json`: every final state of the spec's outputs
// that the PTX memory model permits for the launch (docs/outcomes.md).
// Exit: 0 decided (a --exists/--forall condition prints herd's Ok/No);
// 2 invalid input or usage; 3 a resource limit (--timeout, --memory, path
// and value limits).
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <string>

#include "checker/commands.hpp"
#include "checker/litmus_support.hpp"
#include "memmodel/models.hpp"
#include "checker/outcomes_cond.hpp"
#include "checker/outcomes_report.hpp"
#include "parser/diagnostic.hpp"

namespace ptxcheck::cli {
namespace {

// Without --unroll: explore with bound 1, then 2, 3, ... while the bound cut
// a path with a consistent prefix (bound_hit), so that a counted loop over
// the grid (a last block summing the partials of every CTA) is explored to
// its end. Deepening stops at bound 8, or when the last exploration took
// more than 10 s, or when the next one exceeds its share of the time (the
// rest of --timeout, else 30 s): then the deepest finished exploration is
// the answer, with bound_hit and its bound in the report. The first one
// obeys --timeout as a given --unroll does.
outcomes::Result explore_deepening(const std::string& spec_path, mm::Engine& engine, outcomes::Options opt,
                                   int unroll) {
  using Clock = std::chrono::steady_clock;
  constexpr int kMaxAuto = 8;
  constexpr double kStepS = 10, kNextS = 30;
  opt.unroll = unroll < 0 ? 1 : unroll;
  const double limit = opt.timeout_s;
  const auto start = Clock::now();
  auto t0 = start;
  outcomes::Result r = outcomes::explore(spec_path, engine, opt);
  if (unroll >= 0) return r;
  while (r.bound_hit && opt.unroll < kMaxAuto) {
    const auto now = Clock::now();
    const double last = std::chrono::duration<double>(now - t0).count();
    const double used = std::chrono::duration<double>(now - start).count();
    if (last > kStepS || (limit > 0 && used >= limit)) break;
    opt.unroll += 1;
    opt.timeout_s = limit > 0 ? limit - used : kNextS;
    t0 = now;
    try {
      r = outcomes::explore(spec_path, engine, opt);
    } catch (const LimitError&) {
      break;  // keep the deepest finished exploration
    }
  }
  return r;
}

}  // namespace

int cmd_outcomes(const Args& args) {
  std::string spec_path, model = mm::default_model_name(), engine_name = "enum", exists, forall, state, races = "default";
  bool json = false, explain = false;
  int unroll = -1;  // not given: deepen (below)
  double timeout = 0;
  uint64_t memory = 0;
  CLI::App app{"Every final state of a launch's outputs that the PTX memory model permits (docs/outcomes.md).",
               "ptxcheck outcomes"};
  app.add_option("spec", spec_path, "launch spec (docs/launch-spec.md)")->required();
  app.add_flag("--json", json, "one JSON object (docs/outcomes.md)");
  app.add_option("--model", model, mm::model_names(true));
  app.add_option("--engine", engine_name, "enum (default) or z3");
  app.add_option("--timeout", timeout, "seconds (0 = none); exit 3 when exceeded")->check(CLI::Range(0.0, 1e6));
  app.add_option("--memory", memory,
                 "MiB of resident memory (default: 3/4 of the memory available at the start); exit 3 when exceeded")
      ->type_name("MIB")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 30));
  app.add_option("--unroll", unroll,
                 "times a loop's backward jump may be taken after an iteration that made a choice (default: 1, "
                 "then deeper while the bound cuts paths, up to 8)")
      ->check(CLI::Range(0, 64));
  app.add_flag("--explain", explain, "a witness execution for each outcome (with --state: for that state)");
  app.add_option("--state", state, "with --explain: the state to explain, e.g. 'out[0]=0'");
  app.add_option("--exists", exists, "herd-style condition, e.g. 'out[0] == 0': prints Ok if some outcome satisfies it");
  app.add_option("--forall", forall, "condition that every outcome must satisfy: prints Ok or No");
  app.add_option("--races", races,
                 "default: data races are errors, warp-sync races (docs/races.md) warnings; strict: both are errors; "
                 "off: no race report")
      ->type_name("MODE")
      ->check(CLI::IsMember({"strict", "default", "off"}));
  if (int rc = parse_args(app, args); rc >= 0) return rc;
  outcomes::Options opt;
  opt.races = races != "off";
  opt.strict_races = races == "strict";
  if (auto m = mm::model_from_name(model)) opt.model = *m;
  else
    return usage_error(app.get_name(), args, "unknown --model '" + model + "' (" + mm::model_names() + ")", "--model");
  if (engine_name != "z3" && engine_name != "enum")
    return usage_error(app.get_name(), args, "unknown --engine '" + engine_name + "' (enum, z3)", "--engine");
  if (!exists.empty() && !forall.empty())
    return usage_error(app.get_name(), args, "give --exists or --forall, not both", "--forall");
  if (!state.empty() && !explain) explain = true;
  opt.timeout_s = timeout;
  opt.max_memory_mib = memory;
  // --state explains an unreached state with the candidate executions of
  // every launch: keep the ones the composition check would skip.
  opt.prune = state.empty();
  auto engine = engine_name == "z3" ? mm::make_z3_engine() : mm::make_enum_engine();
  // Check the conditions against the spec before the (long) exploration.
  interp::LaunchSpec spec = interp::load_launch_spec(spec_path);
  std::optional<BufCond> cond, st;
  if (!exists.empty()) cond = parse_buf_cond(exists, spec, "--exists");
  if (!forall.empty()) cond = parse_buf_cond(forall, spec, "--forall");
  if (!state.empty()) st = parse_buf_cond(state, spec, "--state");
  outcomes::Result r = explore_deepening(spec_path, *engine, opt, unroll);
  // No execution finished and the bound cut some path: that is no answer,
  // not "nothing is permitted" (a cut path may go on to a final state), so
  // it ends as a resource limit (exit 3) instead of an empty outcome list.
  if (r.outcomes.empty() && r.bound_hit)
    throw LimitError("the loop bound cut every path of kernel " + r.spec.kernel + " at --unroll " +
                     std::to_string(r.unroll) + " (" + std::to_string(r.stats.cut) +
                     " cut): no execution finished; give a larger --unroll" +
                     (unroll < 0 ? " or --timeout (the automatic deepening stops after a round over 10 s)" : ""));
  ReportOptions ro;
  ro.model = opt.model;
  ro.json = json;
  ro.strict_races = opt.strict_races;
  ro.explain = explain;
  ro.cond = cond ? &*cond : nullptr;
  ro.forall = !forall.empty();
  ro.state = st ? &*st : nullptr;
  ro.cond_text = !exists.empty() ? exists : forall;
  std::string out = json ? outcomes_json(r, ro) : outcomes_text(r, ro);
  std::fputs(out.c_str(), stdout);
  return kExitOk;
}

}  // namespace ptxcheck::cli
