// Fence-SC order (PTX ISA 8.9.3 Fence-SC order) as an existential, decided
// by search instead of by trying all k! orders of k fence.sc.
//
// A Fence-SC order is built fence by fence, earliest first. Placing fence f
// after the prefix P fixes every synchronizes-with edge between f and the
// fences not yet placed (f precedes all of them), so the edges known after
// a prefix are a subset of those of every completion. Causality grows with
// them (memmodel/relations.hpp: every relation is monotone in sw), and the
// checks made on a prefix only fail more with more causality: Coherence
// (causality between writes lies in co), Causality (irreflexive
// (rf | fr); cause) and Fence-SC itself (causality between fences that the
// prefix has ordered, or between a placed fence and an unplaced one, must
// agree with the order). A prefix failing one has no consistent completion.
//
// Memoisation: what a completion adds depends on the prefix only through
// the set of placed fences (which fences remain, hence which edges can still
// come) and base causality so far (causality of the completion is a function
// of it and the added edges: closures compose). A failed (placed set, base
// causality) state is recorded and never searched again. docs/model-notes.md
// gives the argument in full.
#pragma once
#include <functional>
#include <set>
#include <utility>
#include <vector>

#include "memmodel/engine.hpp"
#include "memmodel/relations.hpp"
#include "memmodel/static_relations.hpp"

namespace ptxcheck::mm {

// The fence.sc events that some other fence.sc must be ordered against
// (8.9.3: morally strong pairs); the others never synchronize.
std::vector<int> ordered_sc_fences(const StaticRelations& st);

class FenceScSearch {
 public:
  // `tick` is called once per search node (for time limits); may throw.
  FenceScSearch(const Skeleton& s, const StaticRelations& st, const Model& m, std::function<void()> tick = nullptr);

  // Whether some Fence-SC order makes the candidate (rf, co) consistent
  // under barrier choice `bar` with co a minimal coherence order for it
  // (coherence_minimal); on success `order` is the witness, earliest first.
  bool decide(const std::vector<int>& rf, const Relation& co, size_t bar, std::vector<int>& order);

  uint64_t nodes() const { return nodes_; }

 private:
  bool dfs(std::vector<int>& prefix, EventSet& placed, const Relation& sync);
  // The Fence-SC edges every consistent order must have (pairwise forcing,
  // docs/model-notes.md); false when some pair can be ordered neither way.
  bool force(Relation& forced);

  const Skeleton& s_;
  const StaticRelations& st_;
  const Model& m_;
  std::function<void()> tick_;
  std::vector<int> fences_;
  // Per decide():
  const std::vector<int>* rf_ = nullptr;
  const Relation* co_ = nullptr;
  Relation rfrel_, fr_;
  size_t bar_ = 0;
  Relation forced_;        // edges every consistent order has (empty until forced)
  uint64_t budget_ = 0;    // nodes left before the first, unforced search gives up (0: none)
  bool aborted_ = false;
  std::set<std::pair<std::vector<uint64_t>, std::vector<uint64_t>>> failed_;
  uint64_t nodes_ = 0;
};

}  // namespace ptxcheck::mm
