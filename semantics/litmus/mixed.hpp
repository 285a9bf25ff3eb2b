// Mixed-size accesses in the executions of a litmus combination (Split,
// program.hpp). A split location's accesses are one event per granule, and
// the engines decide the granules as locations of their own; two checks
// bring the answer back to the PTX model's accesses, which are whole:
//  * whole(): an execution of the granules is one of the accesses' only if
//    (PTX ISA 8.9.6) two writes that share granules are not ordered one way
//    in coherence on one granule and the other way on another, and (8.10.3
//    Single-Copy Atomicity) a read that reads a granule from a morally
//    strong write W reads no shared granule from a write coherence-before W.
//    (Partially overlapping accesses are never morally strong: memmodel
//    compares mm::Event::span, 8.7 condition 3.) And (8.7.2 Atomicity of
//    mixed-size RMW operations) of two overlapping atomics whose scopes
//    include each other, one reads what the other wrote, or later, on every
//    byte they share.
//  * race(): PTX ISA 8.7.2: a data race (8.7.1: conflicting, not related in
//    causality order, not morally strong) between accesses that overlap
//    partially is a mixed-size data race, and the axioms do not apply to a
//    program that contains one: the test is undefined. Not under the sc
//    model, which has no causality order (every execution is defined).
#pragma once
#include <optional>
#include <vector>

#include "memmodel/engine.hpp"
#include "memmodel/static_relations.hpp"
#include "semantics/litmus/traces.hpp"

namespace ptxcheck::litmus {

struct RaceAccess {
  int thread = -1;
  int instr = -1;  // index into Thread::code
};

// Two accesses in a mixed-size data race.
struct MixedRace {
  RaceAccess a, b;
};

class MixedSize {
 public:
  MixedSize(const std::vector<const Trace*>& pick, const mm::Skeleton& sk, const mm::Model& m);
  bool whole(const mm::Execution& ex) const;
  std::optional<MixedRace> race(const mm::Execution& ex) const;

 private:
  struct Access {
    int thread = -1, instr = -1;
    bool write = false;
    bool rmw = false;  // the read half of an atom/red that writes (its events' rmw_pair)
    uint32_t span = 0;
    std::vector<int> ev;  // skeleton event ids, one per granule
  };
  // Pairs (i, j) of `acc_` indices that share granules, with their events
  // on each shared granule.
  struct Shared {
    int i = -1, j = -1;
    std::vector<std::pair<int, int>> ev;
  };
  const mm::Skeleton& sk_;
  const mm::Model& m_;
  mm::StaticRelations st_;
  std::vector<Access> acc_;
  std::vector<Shared> shared_;
};

}  // namespace ptxcheck::litmus
