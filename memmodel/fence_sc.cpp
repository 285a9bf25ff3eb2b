// Fence-SC order by search (fence_sc.hpp).
#include "memmodel/fence_sc.hpp"

#include "memmodel/axioms.hpp"

namespace ptxcheck::mm {

std::vector<int> ordered_sc_fences(const StaticRelations& st) {
  std::vector<int> out;
  for (int f : st.sc_fences.elements())
    if (!st.sc_fence_pairs.successors(f).empty()) out.push_back(f);
  return out;
}

FenceScSearch::FenceScSearch(const Skeleton& s, const StaticRelations& st, const Model& m, std::function<void()> tick)
    : s_(s), st_(st), m_(m), tick_(std::move(tick)), fences_(ordered_sc_fences(st)) {}

bool FenceScSearch::decide(const std::vector<int>& rf, const Relation& co, size_t bar, std::vector<int>& order) {
  rf_ = &rf;
  co_ = &co;
  bar_ = bar;
  rfrel_ = rf_relation(st_, rf);
  fr_ = from_reads(rfrel_, co);
  failed_.clear();
  // The axioms that do not depend on causality, once.
  if (!atomicity_holds(st_, fr_, co) || !no_thin_air_holds(st_, rfrel_)) return false;
  if ((m_.kind == ModelKind::PTX6 || m_.sc_per_location) && !sc_per_location_holds(st_, m_, rfrel_, co, fr_))
    return false;
  // A short search first (most consistent candidates have an order found
  // at once); then pairwise forcing, and the search within the forced edges.
  forced_ = Relation(st_.n);
  order.clear();
  EventSet placed(st_.n);
  budget_ = 4 * fences_.size() + 4;
  aborted_ = false;
  if (dfs(order, placed, forced_)) return true;
  if (!aborted_) return false;
  budget_ = 0;
  aborted_ = false;
  failed_.clear();
  if (!force(forced_)) return false;
  order.clear();
  placed = EventSet(st_.n);
  return dfs(order, placed, forced_);
}

// Pairwise forcing. If the Fence-SC edge f -> g together with edges every
// consistent order has already violates Coherence or Causality, every
// order placing f before g does too (causality is monotone in the
// synchronizes-with edges, and both axioms only fail more with more
// causality), so every consistent order places g before f: g -> f is
// forced. Repeated to a fixpoint; a pair forced both ways (or a cycle)
// refutes the candidate.
bool FenceScSearch::force(Relation& forced) {
  auto fails = [&](const Relation& sync) {
    if (tick_) tick_();
    ++nodes_;
    const CauseInfo c = compute_cause_sync(st_, m_, *rf_, sync, bar_);
    return !coherence_holds(st_, c.cause, *co_) || !causality_holds(rfrel_, fr_, c.cause);
  };
  if (fails(forced)) return false;
  for (bool changed = true; changed;) {
    changed = false;
    for (int f : fences_)
      for (int g : fences_) {
        if (f == g || !st_.sc_fence_pairs.has(f, g) || forced.has(f, g) || forced.has(g, f)) continue;
        Relation with = forced;
        with.add(f, g);
        if (!fails(with)) continue;
        forced.add(g, f);
        if (!forced.plus().irreflexive()) return false;
        changed = true;
      }
  }
  return true;
}

// `sync`: the Fence-SC synchronizes-with edges fixed by the prefix: each
// placed fence to every fence placed after it or not yet placed.
bool FenceScSearch::dfs(std::vector<int>& prefix, EventSet& placed, const Relation& sync) {
  if (tick_) tick_();
  ++nodes_;
  if (budget_ && --budget_ == 0) aborted_ = true;
  if (aborted_) return false;
  const CauseInfo c = compute_cause_sync(st_, m_, *rf_, sync, bar_);
  if (!coherence_holds(st_, c.cause, *co_) || !causality_holds(rfrel_, fr_, c.cause)) return false;
  // 8.10.2 on the prefix: causality between fence.sc must be a
  // synchronizes-with edge already, or one that can still be added (both
  // fences unplaced and morally strong).
  const Relation open = c.cause.restrict(st_.sc_fences, st_.sc_fences) - sync;
  for (auto [x, y] : open.pairs())
    if (placed.has(x) || placed.has(y) || !st_.sc_fence_pairs.has(x, y)) return false;
  if (prefix.size() == fences_.size())
    return violations(st_, m_, c, *co_).empty() && coherence_minimal(s_, st_, m_, c.cause, *co_);
  auto key = std::make_pair(placed.words(), c.cause_base.words());
  if (failed_.count(key)) return false;
  for (int f : fences_) {
    if (placed.has(f)) continue;
    // Placing f before an unplaced g that causality already orders before
    // it fails Fence-SC in the child (causality only grows): skip it.
    // Likewise before a g that every consistent order places before f.
    bool preceded = false;
    for (int g : fences_)
      if (g != f && !placed.has(g) && (c.cause.has(g, f) || forced_.has(g, f))) preceded = true;
    if (preceded) continue;
    Relation next = sync;
    for (int u : fences_)
      if (u != f && !placed.has(u) && st_.sc_fence_pairs.has(f, u)) next.add(f, u);
    placed.set(f);
    prefix.push_back(f);
    if (dfs(prefix, placed, next)) return true;
    prefix.pop_back();
    placed.set(f, false);
    if (aborted_) return false;  // not explored in full: nothing to record
  }
  failed_.insert(std::move(key));
  return false;
}

}  // namespace ptxcheck::mm
