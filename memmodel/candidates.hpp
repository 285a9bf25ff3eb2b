// Candidate executions by brute force, for explanations (ptxcheck litmus
// --explain, outcomes --state): why no consistent execution reaches an
// outcome. Not for checking; the engines enumerate only minimal coherence
// orders (relations.hpp enumerate_coherence) and prune with the axioms.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "memmodel/engine.hpp"

namespace ptxcheck::mm {

// Calls `f` with every candidate execution of `s` (PTX ISA 8.9.6 Coherence
// and 8.9.7 reads-from without the axioms): rf maps each read to a write or
// init of its physical location with the read's value (any value for a read
// or a write marked Event::any_value), never to the write half of
// its own atom; co is every total order of each physical location's writes
// after its init, and final_write (sized `num_physical`) the co-last write.
// No candidate exists when some read has no write to read. Stops when `f`
// returns false or after `budget` candidate rf or co choices.
void for_each_candidate(const Skeleton& s, int num_physical, uint64_t budget,
                        const std::function<bool(const Execution&)>& f);

}  // namespace ptxcheck::mm
