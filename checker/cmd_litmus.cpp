// `ptxcheck [litmus] [options] FILE.litmus|DIR...`: decide litmus tests under the
// PTX memory model and print herd7-style results (or JSON lines).
// Exit: 0 all decided (and every --expect met), 1 an expectation not met,
// 2 invalid input or usage, 3 a resource limit (timeout, too many paths).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <unistd.h>

#include "checker/campaign.hpp"
#include "checker/commands.hpp"
#include "checker/litmus_report.hpp"
#include "checker/litmus_support.hpp"
#include "memmodel/models.hpp"
#include "parser/diagnostic.hpp"

namespace ptxcheck::cli {

namespace fs = std::filesystem;

namespace {

struct Options {
  std::vector<std::string> inputs;
  std::string batch, expect, dot_dir, model = mm::default_model_name(), engine = "enum", shard, jsonl;
  bool json = false, explain = false, quiet = false, summary = false;
  int jobs = 1, unroll = 1;
  double timeout = 0;
};

void collect(const std::string& in, std::vector<std::string>& out) {
  std::error_code ec;
  if (fs::is_directory(in, ec)) {
    std::vector<std::string> found;
    for (auto it = fs::recursive_directory_iterator(in, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec))
      if (it->is_regular_file() && it->path().extension() == ".litmus") found.push_back(it->path().string());
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  } else {
    out.push_back(in);
  }
}

std::vector<std::string> read_batch(const std::string& list) {
  std::ifstream in(list);
  if (!in) throw InputError(list, {}, "cannot read batch list");
  std::vector<std::string> out;
  fs::path base = fs::path(list).parent_path();
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    fs::path p(line);
    collect((p.is_relative() && !fs::exists(p) ? base / p : p).string(), out);
  }
  return out;
}

}  // namespace

int cmd_litmus(const Args& args) {
  Options o;
  CLI::App app{"Decide PTX litmus tests under the PTX memory model (PTX ISA 9.2 chapter 8).", "ptxcheck litmus"};
  app.add_option("inputs", o.inputs, "litmus files or directories (searched for *.litmus)");
  app.add_flag("--json", o.json, "one JSON object per test");
  app.add_option("--model", o.model, mm::model_names(true));
  app.add_option("--engine", o.engine, "enum (default; Fence-SC by search) or z3 (the cross-check)");
  app.add_flag("--explain", o.explain, "why an outcome is allowed (a witness) or forbidden (violated axioms)");
  app.add_option("--dot", o.dot_dir, "write Graphviz DOT (and SVG where `dot` exists) of witnesses to DIR");
  app.add_option("--batch", o.batch, "file listing litmus files or directories, one per line");
  app.add_option("-j,--jobs", o.jobs, "tests decided in parallel")->check(CLI::Range(1, 256));
  app.add_option("--expect", o.expect, "CSV `path,1|0` (1 = Ok); exit 1 on any mismatch");
  app.add_option("--timeout", o.timeout, "seconds per test (0 = none)")->check(CLI::Range(0.0, 1e6));
  app.add_option("--unroll", o.unroll, "times a loop's backward jump may be taken per path")->check(CLI::Range(0, 64));
  app.add_flag("-q,--quiet", o.quiet, "print only the summary (and mismatches)");
  app.add_flag("--summary", o.summary, "print the summary table even for one test");
  app.add_option("--shard", o.shard, "I/N: decide only every N-th test, starting at the I-th (1 <= I <= N)");
  app.add_option("--jsonl", o.jsonl, "append one JSON line per test to FILE; tests already there are skipped");
  if (int rc = parse_args(app, args); rc >= 0) return rc;
  RunConfig cfg;
  if (auto m = mm::model_from_name(o.model)) cfg.model = *m;
  else
    return usage_error(app.get_name(), args, "unknown --model '" + o.model + "' (" + mm::model_names() + ")", "--model");
  if (o.engine != "z3" && o.engine != "enum")
    return usage_error(app.get_name(), args, "unknown --engine '" + o.engine + "' (z3, enum)", "--engine");
  cfg.model_name = o.model;
  cfg.engine = o.engine;
  cfg.unroll = o.unroll;
  cfg.timeout = o.timeout;
  cfg.explain = o.explain;
  cfg.dot_dir = o.dot_dir;

  std::vector<std::string> files;
  for (const auto& in : o.inputs) collect(in, files);
  if (!o.batch.empty()) {
    auto b = read_batch(o.batch);
    files.insert(files.end(), b.begin(), b.end());
  }
  if (files.empty()) return usage_error(app.get_name(), args, "no litmus files given");
  if (!o.shard.empty()) {
    const auto [i, n] = parse_shard(o.shard);
    files = select_shard(files, i, n);
  }
  std::unique_ptr<JsonlLog> log;
  size_t skipped = 0;
  if (!o.jsonl.empty()) {
    log = std::make_unique<JsonlLog>(o.jsonl);
    std::vector<std::string> todo;
    for (auto& f : files)
      if (log->done({f, cfg.model_name, cfg.unroll})) ++skipped;
      else todo.push_back(std::move(f));
    files = std::move(todo);
  }
  Expectations exp;
  if (!o.expect.empty()) exp = read_expect(o.expect);
  if (!o.dot_dir.empty()) fs::create_directories(o.dot_dir);

  std::vector<LitmusRun> runs(files.size());
  std::vector<std::string> extra(files.size());
  std::atomic<size_t> next{0}, done{0};
  std::mutex out_mu;
  std::string log_error;  // the first failed --jsonl append
  size_t printed = 0;
  bool tty = isatty(fileno(stderr)) && files.size() > 1;
  auto flush_ready = [&](std::vector<char>& ready) {  // print in input order
    while (printed < files.size() && ready[printed]) {
      const LitmusRun& r = runs[printed];
      if (!o.quiet || r.mismatch() || r.status != LitmusRun::Decided) {
        if (tty) std::fputs("\r\033[K", stderr);
        if (r.status != LitmusRun::Decided && !o.json) std::fputs(r.error.c_str(), stderr), std::fputc('\n', stderr);
        else std::fputs((o.json ? json_line(r) + "\n" : herd_text(r) + extra[printed] + (files.size() > 1 ? "\n" : "")).c_str(), stdout);
        if (r.mismatch() && !o.json)
          std::fprintf(stderr, "%s: expected %s, got %s\n", r.path.c_str(), r.expected ? "Ok" : "No", r.result.ok ? "Ok" : "No");
      }
      ++printed;
    }
    std::fflush(stdout);
  };
  std::vector<char> ready(files.size(), 0);
  auto start = std::chrono::steady_clock::now();
  auto worker = [&] {
    Runner runner(cfg);
    for (size_t i; (i = next++) < files.size();) {
      LitmusRun r = runner.run(files[i], extra[i]);
      r.expected = expected_for(files[i], exp);
      std::lock_guard<std::mutex> lk(out_mu);
      if (log && log_error.empty()) try {
          log->append(json_line(r));
        } catch (const InputError& e) {
          log_error = format_error(e.file(), e.pos(), e.what());
        }
      runs[i] = std::move(r);
      ready[i] = 1;
      ++done;
      flush_ready(ready);
      if (tty) std::fprintf(stderr, "\r\033[K[%zu/%zu] %s", done.load(), files.size(), files[i].c_str());
    }
  };
  int nj = std::min<int>(o.jobs, static_cast<int>(files.size()));
  std::vector<std::thread> pool;
  for (int k = 1; k < nj; ++k) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  if (tty) std::fputs("\r\033[K", stderr);
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  int code = kExitOk;
  bool input_err = false, limit_err = false, mism = false;
  for (const auto& r : runs) {
    input_err |= r.status == LitmusRun::InputErr || r.status == LitmusRun::InternalErr;
    limit_err |= r.status == LitmusRun::LimitErr;
    mism |= r.mismatch();
  }
  if (files.size() > 1 || o.summary || log)
    std::fputs(summary_table(runs, wall, cfg).c_str(), o.json ? stderr : stdout);
  if (log)
    std::fprintf(o.json ? stderr : stdout, "skipped %zu (already in %s)\n", skipped, o.jsonl.c_str());
  if (!log_error.empty()) std::fprintf(stderr, "%s\n", log_error.c_str());
  if (mism) code = kExitExpectationFailed;
  if (limit_err) code = kExitResourceLimit;
  if (input_err || !log_error.empty()) code = kExitInvalidInput;
  return code;
}

}  // namespace ptxcheck::cli
