// Relations that depend on a candidate execution: rf, co, and a Fence-SC
// order. One function per relation of PTX ISA 9.2 section 8.9, each the
// direct transcription of the definition (with the Dat3M cat reading where
// the prose is ambiguous; docs/model-notes.md). Shared by both engines.
#pragma once
#include <functional>
#include <vector>

#include "memmodel/engine.hpp"
#include "memmodel/relation.hpp"
#include "memmodel/static_relations.hpp"

namespace ptxcheck::mm {

// rf as a relation W -> R from the per-read vector (-1 entries ignored).
Relation rf_relation(const StaticRelations& st, const std::vector<int>& rf);

// 8.9.2 Observation order: morally strong rf, continued through atomic RMW
// chains when m.observation_through_rmw (else Dat3M v7.5: (ms & rf) | rmw).
Relation observation(const StaticRelations& st, const Model& m, const Relation& rf);

// 8.9.4 item 4: a release pattern synchronizes with an acquire pattern when
// a write of the first precedes a read of the second in observation order
// and the pattern's first and last operations are morally strong.
Relation release_acquire_sync(const StaticRelations& st, const Relation& obs);

// 8.9.3 / 8.9.4 item 1: X synchronizes with Y if X precedes Y in the Fence-SC
// order `fsc` (sc fence ids, earliest first) and they are morally strong.
Relation fence_sc_sync(const StaticRelations& st, const std::vector<int>& fsc);

// 8.9.5 Base causality order from all synchronizes-with edges (release/
// acquire, fence-SC, barriers): po | po?; (sw; po?)+ (PTX6: without bare po).
Relation base_causality(const StaticRelations& st, const Model& m, const Relation& sw);

// 8.9.5 Proxy-preserved base causality order (PTX75; identity map for PTX6).
Relation proxy_preserved(const StaticRelations& st, const Relation& cb);

// 8.9.5 Causality order: observation?; proxy-preserved base causality
// (PTX6: cb | obs; (cb | po-loc)).
Relation causality(const StaticRelations& st, const Model& m, const Relation& obs, const Relation& cb);

// Everything rf- and fsc-dependent, computed once per (rf, fsc).
struct CauseInfo {
  Relation rf, obs, sync, sync_fence, cause_base, cause;
};
// `bar` selects one of st.sync_barrier_choices; the default, kBarrierCommon,
// uses their intersection st.sync_barrier (a lower bound, for pruning).
inline constexpr size_t kBarrierCommon = static_cast<size_t>(-1);
CauseInfo compute_cause(const StaticRelations& st, const Model& m, const std::vector<int>& rf,
                        const std::vector<int>& fsc, size_t bar = kBarrierCommon);
// The same with the Fence-SC synchronizes-with edges given as a relation
// (a partial order's edges while a search places the fences).
CauseInfo compute_cause_sync(const StaticRelations& st, const Model& m, const std::vector<int>& rf,
                             const Relation& sync_fence, size_t bar = kBarrierCommon);

// 8.9.6 Coherence order lower bound: init writes first, plus writes ordered
// by causality (8.10.1), transitively closed. May be cyclic (then no co works).
Relation forced_coherence(const Skeleton& s, const StaticRelations& st, const Relation& cause);

// Pairs of writes that every coherence order must relate one way or the
// other (unordered pairs a<b): morally strong same-location writes (8.9.6);
// under ModelKind::SC, every same-location pair.
std::vector<std::pair<int, int>> must_order_pairs(const StaticRelations& st, const Model& m);

// Enumerates the minimal coherence orders: the transitive closure of
// `forced` plus one orientation of each must-order pair, each once. Calls
// `visit(co)` for each acyclic one; stop early when visit returns false.
// Returns false if stopped early.
// `prune` (optional) sees each partial order on the way; returning false
// cuts the subtree. It must be monotone: false for a partial order only if
// false for every order that extends it.
bool enumerate_coherence(const Relation& forced, const std::vector<std::pair<int, int>>& pairs,
                         const std::function<bool(const Relation&)>& visit,
                         const std::function<bool(const Relation&)>& prune = nullptr);

// A pair of same-location writes that a coherence order may leave unordered
// or order in an allowed direction (a before b when ab, b before a when ba).
struct OptionalPair {
  int a, b;
  bool ab, ba;
};

// As enumerate_coherence, and each optional pair not yet related is left
// unordered or ordered in each allowed direction. The same order may be
// visited more than once (an unordered choice later implied by closure).
bool enumerate_coherence_opt(const Relation& forced, const std::vector<std::pair<int, int>>& pairs,
                             const std::vector<OptionalPair>& optional,
                             const std::function<bool(const Relation&)>& visit,
                             const std::function<bool(const Relation&)>& prune = nullptr);

// Whether co (transitively closed, initial writes first) is a minimal
// coherence order for `cause`: the closure of the initial writes first,
// causality between same-location writes (8.10.1) and co's own edges between
// morally strong writes (every pair under ModelKind::SC). Engines report only
// minimal orders; enumerate_coherence generates exactly these.
bool coherence_minimal(const Skeleton& s, const StaticRelations& st, const Model& m, const Relation& cause,
                       const Relation& co);

// fr = rf^-1; co (8.9.7 item 3).
Relation from_reads(const Relation& rf, const Relation& co);

// The writes that may give a physical location its final value: the
// non-init writes with no co-successor, or the initial write if there are no
// others. Indexed by physical location.
std::vector<std::vector<int>> final_write_candidates(const Skeleton& s, const StaticRelations& st,
                                                     const Relation& co);

}  // namespace ptxcheck::mm
