// Campaigns across processes and machines (docs/campaigns.md): a batch is
// split into shards by --shard I/N, each shard appends one JSON line per test
// to its --jsonl file (and skips the tests already there when rerun), and
// `ptxcheck merge` turns the files back into the summary table and the
// --expect verdicts. The scheduler (GNU parallel, Slurm) is not ours.
#pragma once
#include <cstdio>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "checker/litmus_report.hpp"

namespace ptxcheck::cli {

// --shard I/N with 1 <= I <= N; throws InputError (as `--shard`) otherwise.
std::pair<int, int> parse_shard(const std::string& text);
// Shard I of N: the files at positions I-1, I-1+N, I-1+2N, ... of `files`
// (round robin, so neighbouring tests of one family land in different
// shards). Deterministic in the list, which collect() sorts per directory.
std::vector<std::string> select_shard(const std::vector<std::string>& files, int i, int n);

// Expectations: Dat3M-style CSV lines `path,1|0`; a test matches when its
// path ends with `path` at a component boundary.
using Expectations = std::vector<std::pair<std::string, int>>;
Expectations read_expect(const std::string& csv);
int expected_for(const std::string& path, const Expectations& exp);  // 1, 0, or -1 (none)

// What identifies a test's line in a JSONL file: the path as given, the
// model and the loop bound (the engine does not change the answer).
using RunKey = std::tuple<std::string, std::string, int>;

// One line of a JSONL file, read back: enough for the summary table and
// --expect (status, verdict, time, bound).
LitmusRun run_from_json(const std::string& line, const std::string& file, uint32_t line_no);

// An append-only JSONL log. Opening reads the lines already there (a line
// cut short by a killed run is dropped from the file); each append is one
// write(2) of a whole line with O_APPEND, so shards may even share a file.
class JsonlLog {
 public:
  explicit JsonlLog(const std::string& path);
  ~JsonlLog();
  JsonlLog(const JsonlLog&) = delete;
  JsonlLog& operator=(const JsonlLog&) = delete;
  bool done(const RunKey& k) const { return done_.count(k) != 0; }
  size_t size() const { return done_.size(); }
  void append(const std::string& json_line);  // throws InputError when the write fails

 private:
  std::string path_;
  int fd_ = -1;
  std::set<RunKey> done_;
};

}  // namespace ptxcheck::cli
