// RapidCheck plumbing for the property suites: a generator of cycle-based
// litmus tests, counterexample printing, outcome sets, and a Catch2 runner
// with an explicit case count and seed.
// Seeds: PTXCHECK_PROPS_SEED if set; otherwise a fixed seed in normal runs
// (CI must not flake) and RapidCheck's random seed with PTXCHECK_PROPS_LONG=1.
// A failing property prints the shrunk test in the native format; keep it
// under corpus/regress/ with its expected outcomes (docs/testing.md).
#pragma once
#include <catch2/catch.hpp>
#include <rapidcheck.h>

#include <memory>
#include <ostream>
#include <set>
#include <sstream>
#include <string>

#include "memmodel/engine.hpp"
#include "parser/litmus/print.hpp"
#include "semantics/litmus/transform.hpp"
#include "tests/props/litmus_gen.hpp"
#include "tests/props/props_common.hpp"

namespace ptxcheck::litmus {
// RapidCheck shows counterexamples with this (found by ADL).
inline void showValue(const Test& t, std::ostream& os) {
  try {
    os << "\n" << print_native(t);
  } catch (const std::exception& e) {
    os << t.name << " (unprintable: " << e.what() << ")";
  }
}
inline void showValue(Change k, std::ostream& os) { os << change_name(k); }
}  // namespace ptxcheck::litmus

namespace ptxcheck::props {

inline rc::Gen<litmus::Test> gen_test(GenOptions opt) {
  return rc::gen::suchThat(
      rc::gen::exec([opt] { return generate(opt, [](int n) { return *rc::gen::inRange(0, n); }); }),
      [opt](const litmus::Test& t) { return fits(t, opt); });
}

// The permitted final states (herd's state lines) of t under `model`.
std::set<std::string> outcomes(const litmus::Test& t, mm::Engine& engine, const mm::Model& model);

// Runs `testable` for `cases` cases (times props::scale()) inside a Catch2
// SECTION named `description`; fails the test case with RapidCheck's report.
template <typename Testable>
void check(const std::string& description, int cases, Testable&& testable) {
  using namespace rc::detail;
  SECTION(description) {
    TestParams params = configuration().testParams;
    params.maxSuccess = cases * scale();
    params.maxSize = 100;
    const std::string seed = env_or("PTXCHECK_PROPS_SEED", "");
    if (!seed.empty()) params.seed = std::stoull(seed);
    else if (scale() == 1) params.seed = 20261123;
    TestMetadata meta;
    meta.id = description;
    meta.description = description;
    const auto result = checkTestable(std::forward<Testable>(testable), meta, params);
    std::ostringstream ss;
    printResultMessage(result, ss);
    if (result.template is<SuccessResult>()) {
      SUCCEED(ss.str());
    } else {
      INFO("seed " << params.seed << ": " << ss.str() << "\n");
      FAIL();
    }
  }
}

}  // namespace ptxcheck::props
