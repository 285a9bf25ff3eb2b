// The axioms of PTX ISA 9.2 section 8.10, one predicate each (true = holds),
// and the whole-candidate check used by both engines and by --explain.
#pragma once
#include <string>
#include <vector>

#include "memmodel/engine.hpp"
#include "memmodel/relations.hpp"
#include "memmodel/static_relations.hpp"

namespace ptxcheck::mm {

enum class Axiom : uint8_t {
#define AXIOM(id, text) id,
#include "memmodel/axioms.def"
#undef AXIOM
};
const char* axiom_name(Axiom a);

// 8.10.1: writes ordered by causality are ordered the same way in co, and
// (8.9.6) morally strong overlapping writes are related by co.
bool coherence_holds(const StaticRelations& st, const Relation& cause, const Relation& co);
// 8.10.2: causality between morally strong fence.sc pairs agrees with Fence-SC.
bool fence_sc_holds(const StaticRelations& st, const Relation& cause, const Relation& sync_fence);
// 8.10.3: no morally strong write lies in co between the write an atomic
// reads from and the atomic's own write: ((ms & fr); (ms & co)) & rmw = 0.
bool atomicity_holds(const StaticRelations& st, const Relation& fr, const Relation& co);
// 8.10.4: acyclic(rf | dep).
bool no_thin_air_holds(const StaticRelations& st, const Relation& rf);
// 8.10.5: acyclic((ms & (rf | co | fr)) | po-loc).
bool sc_per_location_holds(const StaticRelations& st, const Model& m, const Relation& rf,
                           const Relation& co, const Relation& fr);
// 8.10.6: irreflexive((rf | fr); cause).
bool causality_holds(const Relation& rf, const Relation& fr, const Relation& cause);
// ModelKind::SC: acyclic(po | rf | co | fr) and RMW atomicity.
bool sc_order_holds(const StaticRelations& st, const Relation& rf, const Relation& co, const Relation& fr);

// All axioms `m` checks that the candidate (cause info for its rf and
// Fence-SC order, and its co) violates; empty = consistent.
std::vector<Axiom> violations(const StaticRelations& st, const Model& m, const CauseInfo& c, const Relation& co);

// The one check of a whole candidate (violated_axioms(), engine.hpp, is it
// by name): the axioms are checked under the Fence-SC order ex.fsc, or when
// that is empty under every order of the sc fences (k!, lazily), and under
// every barrier completion choice. `violated` is empty when some (order,
// choice) satisfies every axiom; then `fsc` and `bar` are the first such,
// with `need_minimal` the first under which ex.co is also a minimal
// coherence order (relations.hpp coherence_minimal; `co_minimal`; the
// engines report only minimal orders) if one is. When none satisfies the
// axioms, `violated` is the shortest list of violations found.
struct AxiomCheck {
  std::vector<Axiom> violated;
  std::vector<int> fsc;  // sc fence ids, earliest first
  size_t bar = 0;        // index into StaticRelations::sync_barrier_choices
  bool co_minimal = false;
};
AxiomCheck check_axioms(const Skeleton& s, const StaticRelations& st, const Model& m, const Execution& ex,
                        bool need_minimal = false);

}  // namespace ptxcheck::mm
