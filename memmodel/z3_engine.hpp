// The Z3 engine: enumerates the consistent executions of a Skeleton by
// solving the SMT encoding of z3_encode.hpp and blocking each (rf, co) found.
// Contract (engine.hpp): calls the visitor once per distinct (rf, co, final write) that
// some Fence-SC order makes consistent; Execution::fsc is that witness,
// Execution::co lists every ordered pair (transitively closed, initial
// writes included), Execution::final_write the co-last write per physical
// location (one execution per choice among co-maximal writes, as the
// enumeration engine counts). Each model is re-checked by the one checker
// both engines share (check_axioms, axioms.hpp: the axioms and minimality of
// co); a disagreement throws std::logic_error: it would be an encoding bug.
// Throws LimitError when Limits::timeout_s passes or more than
// Limits::max_executions executions exist.
#pragma once
#include <memory>

#include "memmodel/engine.hpp"
#include "memmodel/z3_facts.hpp"

namespace ptxcheck::mm::z3e {

// The Execution (engine.hpp form) of a decoded candidate.
struct Candidate;
Execution to_execution(const Facts& f, const Candidate& c);

}  // namespace ptxcheck::mm::z3e
