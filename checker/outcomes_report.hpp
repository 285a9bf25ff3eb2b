// Output of `ptxcheck outcomes`: the JSON contract (docs/outcomes.md), the
// text for a person, witnesses (--explain) and the axioms ruling out a
// named state (--state).
#pragma once
#include <string>

#include "checker/outcomes_cond.hpp"
#include "semantics/outcomes/explore.hpp"

namespace ptxcheck::cli {

struct ReportOptions {
  mm::Model model;
  bool json = false, explain = false, forall = false;
  bool strict_races = false;  // --races=strict: a warp-sync-race is an error
  const BufCond* cond = nullptr;   // --exists / --forall
  const BufCond* state = nullptr;  // --state
  std::string cond_text;
};

std::string outcomes_json(const outcomes::Result& r, const ReportOptions& o);
std::string outcomes_text(const outcomes::Result& r, const ReportOptions& o);

}  // namespace ptxcheck::cli
