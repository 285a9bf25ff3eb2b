// Hardware histogram vs ptxcheck's permitted outcomes (hw/README.md
// "Comparing"). Each outcome is VIOLATION (observed, forbidden: the model or
// the hardware is wrong), WITNESSED (observed, allowed) or UNSEEN (allowed,
// never observed; its rate is below 3/N at 95% confidence by the rule of
// three, N = completed instances). When the loop bound still cuts paths at
// the largest unroll tried, an observed outcome outside the set is
// UNDECIDED instead of VIOLATION. A forbidden outcome of a row marked
// `pre_model` (a GPU older than the PTX memory model) is PRE-MODEL instead of
// VIOLATION: reported, never hidden, but not a failure of the model. When the
// histogram is partial (a published row listing only some outcomes), outcomes
// it does not list are not called UNSEEN.
#pragma once
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "hw/litmus/recording.hpp"
#include "memmodel/engine.hpp"
#include "memmodel/models.hpp"
#include "parser/litmus/litmus_ast.hpp"

namespace ptxcheck::hw {

struct ModelConfig {
  std::string model = mm::default_model_name();  // as `ptxcheck --model`
  std::string engine = "z3";                     // z3 | enum
  int max_unroll = 4;
  double timeout = 0;  // seconds per check, 0 = none (LimitError beyond)
};

struct Permitted {
  std::set<std::string> outcomes;  // ptxcheck state texts
  bool bound_hit = false;          // still cut at the largest unroll
  int unroll = 1;
};

// Throws std::invalid_argument for an unknown model or engine; InputError and
// LimitError from the checker propagate.
Permitted permitted(const litmus::Test& t, const ModelConfig& cfg);

enum class Class { Violation, PreModel, Undecided, Witnessed, Unseen };
const char* class_name(Class c);

struct OutcomeVerdict {
  std::string outcome;
  uint64_t count = 0;
  Class cls = Class::Unseen;
  double rate_bound = 0;  // UNSEEN: 95% upper bound on its rate (3/N)
};

struct Comparison {
  std::vector<OutcomeVerdict> outcomes;  // violations first, then by outcome text
  size_t violations = 0, pre_model = 0, undecided = 0, witnessed = 0, unseen = 0;
};

Comparison compare(const Recording& r, const Permitted& p);

// Human-readable report; names seed and parameters for a replay when there
// is a violation.
std::string comparison_text(const Recording& r, const Comparison& c, const Permitted& p);

}  // namespace ptxcheck::hw
