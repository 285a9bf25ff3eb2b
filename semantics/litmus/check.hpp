// Deciding a litmus test: one trace per thread is combined into an
// mm::Skeleton, the engine enumerates its consistent executions, and each
// execution yields a final state (registers of the chosen traces, final
// values of the observed locations). The condition is then judged the way
// herd7 does: Ok iff (exists: some execution satisfies it; ~exists: none
// does; forall: all do).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "memmodel/engine.hpp"
#include "semantics/litmus/mixed.hpp"
#include "semantics/litmus/program.hpp"
#include "semantics/litmus/traces.hpp"

namespace ptxcheck::litmus {

struct CheckOptions {
  mm::Model model;
  TraceLimits traces;
  mm::Limits limits;
  // Decide one combination per symmetry class of identical threads and
  // rearrange its executions (docs/model-notes.md, "Symmetry between
  // identical threads"); false: every combination is handed to the engine
  // (the previous path, kept for bench/litmus's speedup column and tests).
  bool symmetry = true;
  // Count the executions (herd's Positive/Negative line and each state's
  // count). false, for callers that need only which states are permitted:
  // once a combination has given its state and no location is observed
  // (its state is then the same in all its executions), its other
  // executions are not enumerated (docs/model-notes.md, "Final states
  // rather than executions"). The states, their satisfaction and the
  // verdict are exact either way; without counting, every count is at most
  // the true count and zero exactly when the true count is zero.
  bool count_executions = true;
};

struct StateCount {
  std::string text;  // herd style: "1:r0=1; x=2;"
  uint64_t count = 0;
  bool satisfies = false;
};

struct Witness {
  mm::Skeleton skeleton;
  mm::Execution execution;
  std::string state;
};

struct CheckResult {
  std::vector<StateCount> states;  // sorted by text
  uint64_t positive = 0;           // executions satisfying the proposition
  uint64_t negative = 0;
  bool ok = false;                 // herd's Ok/No
  bool bound_hit = false;          // the loop bound cut some paths
  uint64_t skeletons = 0;          // trace combinations handed to the engine
  uint64_t executions = 0;         // consistent executions
  std::optional<Witness> positive_witness, negative_witness;
  // PTX ISA 8.7.2: some execution has a mixed-size data race (mixed.hpp),
  // so the axioms do not apply and the test is undefined; the states above
  // are those of the granules, not a guarantee. The races found (at most
  // kMaxMixedRaces distinct pairs of instructions).
  std::vector<MixedRace> mixed_races;
  bool undefined() const { return !mixed_races.empty(); }
};
inline constexpr size_t kMaxMixedRaces = 8;

// Evaluates `c` on a final state given by register/location lookups.
bool eval_cond(const Cond& c, const Program& p, const std::vector<const Trace*>& traces,
               const std::vector<uint64_t>& loc_final);

CheckResult check(const Program& p, mm::Engine& engine, const CheckOptions& opt);

// Builds the skeleton of one trace combination (exposed for --explain and tests).
mm::Skeleton make_skeleton(const Program& p, const std::vector<const Trace*>& pick);

}  // namespace ptxcheck::litmus
