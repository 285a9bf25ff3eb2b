// Output of the litmus checker: herd7-style text, JSON lines, --explain and
// --dot renderings of one decided test.
#pragma once
#include <optional>
#include <string>

#include "memmodel/engine.hpp"
#include "parser/litmus/litmus_ast.hpp"
#include "semantics/litmus/check.hpp"

namespace ptxcheck::cli {

struct LitmusRun {
  std::string path;
  std::string name;                 // test name (or the path when parsing failed)
  std::optional<litmus::Test> test;
  litmus::CheckResult result;
  std::string model, engine;
  int unroll = 0;
  double seconds = 0;
  enum Status { Decided, InputErr, LimitErr, InternalErr } status = Decided;
  std::string error;                // formatted error line when not Decided
  int expected = -1;                // --expect: 1 Ok, 0 No, -1 none
  bool mismatch() const { return expected >= 0 && status == Decided && expected != (result.ok ? 1 : 0); }
};

// herd7's block: Test/States/Ok|No/Witnesses/Positive/Condition/Observation/Time.
std::string herd_text(const LitmusRun& r);
// One JSON object (one line).
std::string json_line(const LitmusRun& r);
// --explain: a witness for an allowed outcome; for an outcome that no
// execution shows, each candidate execution reaching it and the axioms that
// rule it out.
std::string explain_text(const LitmusRun& r, const litmus::Program& p, const litmus::CheckOptions& opt);
// Graphviz DOT of a witness execution: events per thread, po, rf, co, fsc.
std::string witness_dot(const litmus::Witness& w, const std::string& title);

}  // namespace ptxcheck::cli
