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
  order.clear();
  EventSet placed(st_.n);
  return dfs(order, placed, Relation(st_.n));
}

// `sync`: the Fence-SC synchronizes-with edges fixed by the prefix: each
// placed fence to every fence placed after it or not yet placed.
bool FenceScSearch::dfs(std::vector<int>& prefix, EventSet& placed, const Relation& sync) {
  if (tick_) tick_();
  ++nodes_;
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
    Relation next = sync;
    for (int u : fences_)
      if (u != f && !placed.has(u) && st_.sc_fence_pairs.has(f, u)) next.add(f, u);
    placed.set(f);
    prefix.push_back(f);
    if (dfs(prefix, placed, next)) return true;
    prefix.pop_back();
    placed.set(f, false);
  }
  failed_.insert(std::move(key));
  return false;
}

}  // namespace ptxcheck::mm
