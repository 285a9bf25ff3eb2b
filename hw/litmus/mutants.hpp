// MC Mutants for the hardware harness: every weakening change of a test
// (semantics/litmus/transform.hpp: drop a fence, acquire/release made
// relaxed, a scope narrowed, strong made weak) gives a mutant; its
// *killing* outcomes are those the mutant permits and the original forbids.
// A mutant without killing outcomes is equivalent (no run can tell it from
// the original). A recording of the mutant (matched by test name) that
// shows a killing outcome kills it: the harness can see that weakening.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "hw/litmus/compare.hpp"
#include "semantics/litmus/transform.hpp"

namespace ptxcheck::hw {

struct MutantOptions {
  ModelConfig model;
  std::string recordings_dir;  // "" = no kill analysis
  std::string json_out;        // "" = no JSON
  std::string emit_dir;        // "" = do not write mutant litmus files
};

struct MutantInfo {
  std::string test, mutant, change, description;
  std::vector<std::string> killing;  // outcomes
  bool limit = false;                // the check hit a resource limit: unknown
  bool equivalent() const { return !limit && killing.empty(); }
  int recordings = 0;                // recordings of this mutant found
  bool killed = false;
  uint64_t kill_count = 0;           // instances showing a killing outcome
};

// Mutants of one test (weakening changes only), with killing outcomes. A
// mutant whose check hits the limit is kept with limit = true.
std::vector<MutantInfo> mutants_of(const litmus::Test& t, const ModelConfig& cfg,
                                   std::vector<litmus::Test>* mutant_tests = nullptr);

// Marks kills from recordings (test name == mutant name).
void mark_kills(std::vector<MutantInfo>& ms, const std::vector<Recording>& recs);

// The `ptxcheck-hw mutants` command: table and summary on `out`; exit code.
int run_mutants(const std::vector<std::string>& files, const MutantOptions& opt, std::ostream& out);

}  // namespace ptxcheck::hw
