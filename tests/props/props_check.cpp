// Outcome sets for the property suites (props_check.hpp).
#include "tests/props/props_check.hpp"

#include "semantics/litmus/check.hpp"

namespace ptxcheck::props {

std::set<std::string> outcomes(const litmus::Test& t, mm::Engine& engine, const mm::Model& model) {
  litmus::Program p = litmus::lower(t);
  litmus::CheckOptions opt;
  opt.model = model;
  opt.count_executions = false;  // only the states are compared
  std::set<std::string> out;
  for (const auto& s : litmus::check(p, engine, opt).states) out.insert(s.text);
  return out;
}

}  // namespace ptxcheck::props
