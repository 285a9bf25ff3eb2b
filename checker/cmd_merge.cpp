// `ptxcheck merge [--expect CSV] FILE.jsonl...`: the summary table and the
// --expect verdicts of a campaign whose shards wrote JSON lines (--jsonl or
// --json); docs/campaigns.md. A test recorded more than once (same path,
// model and loop bound) counts once; records that disagree on the verdict
// are reported and fail the merge.
// Exit: 0 all decided and every expectation met, 1 an expectation not met
// or conflicting records, 2 invalid input, 3 a test hit a resource limit.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>

#include "checker/campaign.hpp"
#include "checker/commands.hpp"
#include "checker/litmus_support.hpp"
#include "parser/diagnostic.hpp"

namespace ptxcheck::cli {

int cmd_merge(const Args& args) {
  std::vector<std::string> inputs;
  std::string expect;
  bool quiet = false;
  CLI::App app{"Summary and --expect verdicts of JSONL files written by --jsonl or --json (docs/campaigns.md).",
               "ptxcheck merge"};
  app.add_option("files", inputs, "JSONL files (one JSON object per test)")->required();
  app.add_option("--expect", expect, "CSV `path,1|0` (1 = Ok); exit 1 on any mismatch");
  app.add_flag("-q,--quiet", quiet, "print only the summary (and mismatches)");
  if (int rc = parse_args(app, args); rc >= 0) return rc;
  Expectations exp;
  if (!expect.empty()) exp = read_expect(expect);

  std::vector<LitmusRun> runs;
  std::map<RunKey, size_t> seen;  // -> index in runs
  std::set<std::string> models, engines;
  std::set<int> unrolls;
  size_t duplicates = 0, conflicts = 0;
  for (const auto& file : inputs) {
    std::ifstream in(file);
    if (!in) throw InputError(file, {}, "cannot read");
    uint32_t line_no = 0;
    for (std::string line; std::getline(in, line);) {
      ++line_no;
      if (line.empty()) continue;
      LitmusRun r = run_from_json(line, file, line_no);
      r.expected = expected_for(r.path, exp);
      const RunKey key{r.path, r.model, r.unroll};
      if (auto it = seen.find(key); it != seen.end()) {
        ++duplicates;
        const LitmusRun& first = runs[it->second];
        if (first.status != r.status || (r.status == LitmusRun::Decided && first.result.ok != r.result.ok)) {
          ++conflicts;
          std::fprintf(stderr, "%s:%u:1: error: %s: conflicts with an earlier record of the same test\n", file.c_str(),
                       line_no, r.path.c_str());
        }
        continue;
      }
      models.insert(r.model);
      engines.insert(r.engine);
      unrolls.insert(r.unroll);
      seen.emplace(key, runs.size());
      runs.push_back(std::move(r));
    }
  }
  bool input_err = false, limit_err = false, mism = false;
  double sum = 0;
  for (const auto& r : runs) {
    sum += r.seconds;
    input_err |= r.status == LitmusRun::InputErr || r.status == LitmusRun::InternalErr;
    limit_err |= r.status == LitmusRun::LimitErr;
    mism |= r.mismatch();
    if (r.status != LitmusRun::Decided && !quiet) std::fprintf(stderr, "%s\n", r.error.c_str());
    if (r.mismatch())
      std::fprintf(stderr, "%s: expected %s, got %s\n", r.path.c_str(), r.expected ? "Ok" : "No", r.result.ok ? "Ok" : "No");
  }
  auto one = [](const std::set<std::string>& s) { return s.size() == 1 ? *s.begin() : std::string("mixed"); };
  RunConfig cfg;
  cfg.model_name = one(models);
  cfg.engine = one(engines);
  cfg.unroll = unrolls.size() == 1 ? *unrolls.begin() : -1;
  // The wall time of a merged campaign is not known here: report the sum.
  std::fputs(summary_table(runs, sum, cfg).c_str(), stdout);
  std::printf("files %zu | records %zu | duplicates %zu | conflicts %zu\n", inputs.size(), runs.size() + duplicates,
              duplicates, conflicts);
  if (input_err) return kExitInvalidInput;
  if (limit_err) return kExitResourceLimit;
  if (mism || conflicts) return kExitExpectationFailed;
  return kExitOk;
}

}  // namespace ptxcheck::cli
