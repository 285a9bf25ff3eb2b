// The Z3 engine's own explicit checker: evaluates the model's relations and
// axioms on one fully given candidate (rf, co, Fence-SC order) by plain
// relation algebra. It is the definition the SMT encoding (z3_encode.cpp)
// must match: every model Z3 returns is re-checked here, and the tests
// compare the engine against brute-force enumeration filtered by it.
#pragma once
#include <string>
#include <vector>

#include "memmodel/z3_facts.hpp"

namespace ptxcheck::mm::z3e {

struct Candidate {
  std::vector<int> rf;   // per event: the write a read reads from, else -1
  Mat co;                // coherence, transitively closed, init writes first
  std::vector<int> fsc;  // per event: rank of an sc fence in Fence-SC order, else -1
  std::vector<int> final_write;  // per physical location (engine output only)
};

// Names of the violated axioms ("Causality (PTX ISA 8.10.6)", ...); empty
// when the candidate is consistent under facts.kind.
std::vector<std::string> oracle_violations(const Facts& f, const Candidate& c);

// Causality order (PTX ISA 8.9.5) of the candidate (uses rf and fsc only).
Mat oracle_cause(const Facts& f, const Candidate& c);

// Whether c.co is a minimal coherence order: the transitive closure of the
// initial writes first, causality between writes, and one orientation of
// each morally strong pair (every pair under SC). Engines enumerate only these.
bool oracle_co_minimal(const Facts& f, const Candidate& c);

// Whether some Fence-SC order makes (rf, co) consistent (tries every order
// of the sc fences); on success stores the witness ranks in c.fsc.
bool oracle_consistent_some_fsc(const Facts& f, Candidate& c);

}  // namespace ptxcheck::mm::z3e
