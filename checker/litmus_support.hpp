// Running one litmus test for the CLI: parse, lower, trace, decide with the
// chosen engine, and the batch summary table.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "checker/litmus_report.hpp"
#include "memmodel/engine.hpp"
#include "memmodel/models.hpp"

namespace ptxcheck::cli {

struct RunConfig {
  mm::Model model;
  std::string model_name = mm::default_model_name(), engine = "enum", dot_dir;
  int unroll = 1;
  double timeout = 0;
  bool explain = false;
};

// One per worker thread: owns its engine (a Z3 context is not thread-safe).
class Runner {
 public:
  explicit Runner(const RunConfig& cfg);
  // Never throws for a bad test: errors are recorded in the result.
  // `extra` receives --explain text.
  LitmusRun run(const std::string& path, std::string& extra);

 private:
  const RunConfig& cfg_;
  std::unique_ptr<mm::Engine> engine_;
};

// Agreement/verdict table printed after a batch.
std::string summary_table(const std::vector<LitmusRun>& runs, double wall_seconds, const RunConfig& cfg);

}  // namespace ptxcheck::cli
