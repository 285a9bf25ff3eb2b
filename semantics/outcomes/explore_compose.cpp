// The composition phase of an exploration (explorer.hpp): the runs are the
// compositions of one trace per unit, pruned by location, pair and prefix
// checks, and the loop bound is judged on the cut traces.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

#include "semantics/outcomes/explorer.hpp"

namespace ptxcheck::outcomes {

// The checks that prune compositions, and each trace's key for each.
void Explorer::index_checks() {
  nlocs_ = sh_.locs.size();
  // Cluster barrier phases (hook_barrier.cpp) are not checked, alone or in
  // pairs: each is a location of one cluster, so of one unit, whose
  // accesses alone always have a consistent execution (the arrives' RMW
  // chain in the machine's order, 0 -> 1 -> ... -> n, and the waits of the
  // completed phase reading n), and whose events are an RMW and a read of
  // every thread of the cluster (two clusters of 2 x 64 threads: 0.3 to
  // 0.7 s per check with the shapes of the other unit). Leaving a check out
  // keeps the result exact (each is a necessary condition).
  skip_.assign(nlocs_, 0);
  std::vector<int> data;
  for (size_t x = 0; x < nlocs_; ++x) {
    const uint64_t key = sh_.locs[x].key;
    skip_[x] = (key & kClusterBarKey) && !(key & interp::kHookSharedKey);
    if (!skip_[x]) data.push_back(static_cast<int>(x));
  }
  const size_t ndata = data.size();
  // Location pairs (x, y) checked after the single locations: the accesses
  // to both with the fences of their threads (docs/outcomes.md, "How the
  // search scales", item 2). With two locations a pair is about the whole
  // run (deciding it costs as much), so only from three; up to kPairLocs
  // locations every pair, beyond only the pairs that some trace of one unit
  // accesses both of (a last block reading every CTA's partial after taking
  // the ticket: only the ticket and one partial together order the read
  // after the partial's write), and none if those are more than kMaxPairs,
  // so that the keys stay few. Which pairs are checked does not matter to
  // the result: each check is a necessary condition.
  // PTXCHECK_OUTCOMES_NO_PAIRS turns them off (for cross-checks).
  if (opt_.prune && ndata >= 3 && nunits_ >= 2 && !std::getenv("PTXCHECK_OUTCOMES_NO_PAIRS")) {
    std::set<std::pair<int, int>> both;
    for (const auto& list : traces_)
      for (const UnitTrace& t : list) {
        std::set<int> at;
        for (const auto& [g, r] : t.th)
          for (const mm::Event& e : r.events)
            if ((e.kind == mm::EventKind::Read || e.kind == mm::EventKind::Write) && e.loc >= 0 &&
                static_cast<size_t>(e.loc) < nlocs_ && !skip_[static_cast<size_t>(e.loc)])
              at.insert(e.loc);
        for (auto a = at.begin(); a != at.end(); ++a)
          for (auto b = std::next(a); b != at.end(); ++b)
            if (ndata > kPairLocs) both.emplace(*a, *b);
      }
    for (size_t i = 0; i < ndata && ndata <= kPairLocs; ++i)
      for (size_t j = i + 1; j < ndata; ++j) both.emplace(data[i], data[j]);
    if (both.size() <= kMaxPairs) pairs_.assign(both.begin(), both.end());
  }
  // Prefix checks (docs/outcomes.md, "How the search scales", item 2;
  // Composer::project_prefix argues them) use the same locations and
  // pairs, and with two locations also the pair of both (a lock and the
  // counter it protects: only both together tie the counter's order to the
  // lock's), which then checks compositions too: with the memo keys sorted
  // (below), one check stands for every order of the same traces, cheaper
  // than deciding each run. PTXCHECK_OUTCOMES_NO_PREFIX turns this off (for
  // cross-checks).
  prefixes_ = opt_.prune && nunits_ >= 2 && !std::getenv("PTXCHECK_OUTCOMES_NO_PREFIX");
  if (prefixes_ && ndata == 2 && pairs_.empty()) pairs_.emplace_back(data[0], data[1]);
  npcons_ = nlocs_ + pairs_.size();
  skip_.resize(npcons_, 0);
  // With several units (the clusters, or the CTAs of a launch without
  // clusters, item 1), every two threads of different units are related
  // alike (other CTA, other cluster, same GPU: the scopes of PTX ISA 8.5),
  // and the axioms (8.10) see threads only through these relations and
  // program order: renaming units (keeping each thread's CTA rank and
  // index, so the relations within a unit) maps the consistent executions
  // of a check's events onto those of the renamed events. So a check is
  // decided by the multiset of its units' keys, with threads named by their
  // index in their cluster: the memo keys below are sorted.
  local_ = nunits_ > 1;
  std::vector<std::map<std::string, int>> key_ids(npcons_);
  for (auto& list : traces_)
    for (UnitTrace& t : list) {
      t.proj.resize(npcons_);
      for (size_t x = 0; x < npcons_; ++x) {
        std::string key = skip_[x]     ? std::string()
                          : x < nlocs_ ? access_key(t, static_cast<int>(x), -1, local_)
                                       : access_key(t, pairs_[x - nlocs_].first, pairs_[x - nlocs_].second, local_);
        auto [it, fresh] = key_ids[x].emplace(std::move(key), static_cast<int>(key_ids[x].size()));
        t.proj[x] = it->second;
      }
    }
  memo_.assign(npcons_, {});
  miss_s_.assign(npcons_, 0);
  misses_.assign(npcons_, 0);
}

std::string Explorer::con_name(size_t x) const {
  return x < nlocs_ ? sh_.locs[x].name
                    : sh_.locs[static_cast<size_t>(pairs_[x - nlocs_].first)].name + "+" +
                          sh_.locs[static_cast<size_t>(pairs_[x - nlocs_].second)].name;
}

Result::Run Explorer::project(size_t x, const std::vector<const UnitTrace*>& pick) const {
  return x < nlocs_ ? comp_->project(pick, static_cast<int>(x))
                    : comp_->project(pick, pairs_[x - nlocs_].first, pairs_[x - nlocs_].second);
}

Result::Run Explorer::project_prefix(size_t x, const std::vector<const UnitTrace*>& prefix,
                                     const std::vector<const UnitShape*>& rest) const {
  return x < nlocs_ ? comp_->project_prefix(prefix, rest, static_cast<int>(x))
                    : comp_->project_prefix(prefix, rest, pairs_[x - nlocs_].first, pairs_[x - nlocs_].second);
}

// The composition's accesses to each checked location (and pair) alone have
// a consistent execution reading their values (else the whole has none:
// docs/outcomes.md). Memoised by the units' keys.
bool Explorer::passes(const std::vector<const UnitTrace*>& pick) {
  if (!opt_.prune) return true;
  std::vector<int> key(pick.size());
  for (size_t x = 0; x < npcons_; ++x) {
    if (skip_[x]) continue;
    for (size_t u = 0; u < pick.size(); ++u) key[u] = pick[u]->proj[x];
    if (local_) std::sort(key.begin(), key.end());
    auto it = memo_[x].find(key);
    if (it == memo_[x].end()) {
      check_time();
      Result::Run p = project(x, pick);
      const double t0 = debug_ ? elapsed() : 0;
      it = memo_[x].emplace(key, feasible(p, engine_, opt_.model, limits_left(), &res_.stats.symmetric)).first;
      if (debug_) miss_s_[x] += elapsed() - t0, ++misses_[x];
      if (debug_ && elapsed() - t0 > 0.1) {
        std::fprintf(stderr, "  slow check %s %.3f s -> %d:", con_name(x).c_str(), elapsed() - t0, (int)it->second);
        for (const auto& e : p.skeleton.events)
          std::fprintf(stderr, " %d:%d%c%llu", e.thread, (int)e.kind, e.rmw_pair >= 0 ? 'r' : ' ',
                       (unsigned long long)e.value);
        std::fprintf(stderr, "\n");
      }
    }
    if (!it->second) {
      ++res_.stats.pruned;
      return false;
    }
  }
  return true;
}

// The runs: compositions of one trace per unit. A composition whose
// accesses to some location alone have no consistent execution reading
// their values has none as a whole (docs/outcomes.md): skipped.
std::vector<Result::Run> Explorer::compose() {
  comp_.emplace(Composer{sh_, out_base_, init_out_, static_cast<uint32_t>(nthreads_)});
  index_checks();
  check_bound();
  std::vector<Result::Run> runs;
  std::vector<std::vector<UnitTrace>> fin(nunits_);
  for (uint32_t u = 0; u < nunits_; ++u)
    for (UnitTrace& t : traces_[u])
      if (t.st == UnitTrace::St::Finished) fin[u].push_back(std::move(t));
  traces_.clear();
  if (!prefixes_) {
    std::vector<const std::vector<UnitTrace>*> lists;
    for (auto& f : fin) lists.push_back(&f);
    for_each_composition(lists, [&](const std::vector<const UnitTrace*>& pick) {
      check_time();
      ++res_.stats.finished_runs;
      if (passes(pick)) runs.push_back(comp_->build(pick));
      return true;
    });
  } else {
    compose_with_prefixes(fin, runs);
  }
  res_.stats.communicating = sh_.locs.size();
  if (debug_) {
    std::fprintf(stderr, "composed in %.3f s: %llu compositions, %llu pruned, %zu runs\n", elapsed(),
                 (unsigned long long)res_.stats.finished_runs, (unsigned long long)res_.stats.pruned, runs.size());
    for (size_t x = 0; x < npcons_; ++x)
      std::fprintf(stderr, "  %s: %llu checks, %.3f s\n", con_name(x).c_str(), (unsigned long long)misses_[x],
                   miss_s_[x]);
  }
  return runs;
}

// The loop bound is hit if a cut prefix (finished units, then one cut unit;
// the later units did not run) has a consistent execution whose reads read
// their values. With decomposed units, a cut unit's threads are parked and
// the later units run on: a cut prefix of one unit may read what a later
// unit wrote before it was cut too (a producer and a consumer both in
// counted loops), so the cut traces are also composed with the finished or
// cut traces of every other unit.
void Explorer::check_bound() {
  res_.bound_hit = false;
  res_.unroll = opt_.unroll;
  for (uint32_t k = 0; k < nunits_ && !res_.bound_hit; ++k) {
    std::vector<UnitTrace> cuts;
    for (const UnitTrace& t : traces_[k])
      if (t.st == UnitTrace::St::Cut) cuts.push_back(t);
    if (cuts.empty()) continue;
    for (const bool all : {false, true}) {
      if (res_.bound_hit || (all && nunits_ == 1)) break;
      std::vector<std::vector<UnitTrace>> other(all ? nunits_ : k);
      for (uint32_t u = 0; u < other.size(); ++u)
        for (const UnitTrace& t : traces_[u])
          if (u != k && (t.st == UnitTrace::St::Finished || (all && t.st == UnitTrace::St::Cut))) other[u].push_back(t);
      std::vector<const std::vector<UnitTrace>*> lists;
      for (uint32_t u = 0; u < other.size(); ++u) lists.push_back(u == k ? &cuts : &other[u]);
      if (!all) lists.push_back(&cuts);
      for_each_composition(lists, [&](const std::vector<const UnitTrace*>& pick) {
        check_time();
        if (!passes(pick)) return true;
        Result::Run pr = comp_->build(pick);
        res_.bound_hit = feasible(pr, engine_, opt_.model, limits_left(), &res_.stats.symmetric);
        return !res_.bound_hit;
      });
    }
  }
}

// The compositions of the finished traces in the same order as
// for_each_composition, depth first over the units, where a prefix of k
// units under which lie at least kPrefixMin compositions is first checked
// location by location (and pair by pair) with the shapes of units k..
// (compose.hpp) in place of their traces: when a check fails, no
// composition under the prefix has a consistent execution
// (Composer::project_prefix), and all of them are skipped. A unit without a
// shape at a location leaves that check out for the prefixes it is not in.
void Explorer::compose_with_prefixes(std::vector<std::vector<UnitTrace>>& fin, std::vector<Result::Run>& runs) {
  std::vector<std::vector<std::optional<UnitShape>>> shape(npcons_, std::vector<std::optional<UnitShape>>(nunits_));
  for (size_t x = 0; x < npcons_; ++x)
    for (uint32_t u = 0; u < nunits_ && !skip_[x]; ++u)
      shape[x][u] = x < nlocs_ ? unit_shape(fin[u], static_cast<int>(x))
                               : unit_shape(fin[u], pairs_[x - nlocs_].first, pairs_[x - nlocs_].second);
  auto product = [&] {
    uint64_t n = 1;
    for (const auto& f : fin) n = f.empty() ? 0 : std::min<uint64_t>(n, UINT64_MAX / f.size()) * f.size();
    return n;
  };
  // First each trace of units 1.. alone with the shapes of all the other
  // units (the order of the units in a composition does not matter to its
  // projections, so the same argument holds): a trace that fails is in no
  // consistent composition and leaves its unit's list (unit 0's traces are
  // the prefixes of length 1 below).
  if (const uint64_t all = product(); all >= kPrefixMin) {
    for (uint32_t u = 1; u < nunits_; ++u) {
      std::vector<std::unordered_map<int, bool>> memo1(npcons_);
      std::vector<UnitTrace> keep;
      for (UnitTrace& t : fin[u]) {
        bool ok = true;
        for (size_t x = 0; x < npcons_ && ok; ++x) {
          if (skip_[x]) continue;
          std::vector<const UnitShape*> rest;
          for (uint32_t v = 0; v < nunits_; ++v)
            if (v != u && shape[x][v]) rest.push_back(&*shape[x][v]);
          if (rest.size() + 1 != nunits_) continue;
          auto it = memo1[x].find(t.proj[x]);
          if (it == memo1[x].end()) {
            check_time();
            Result::Run p = project_prefix(x, {&t}, rest);
            it = memo1[x]
                     .emplace(t.proj[x], feasible(p, engine_, opt_.model, limits_left(), &res_.stats.symmetric))
                     .first;
          }
          ok = it->second;
        }
        if (ok) keep.push_back(std::move(t));
      }
      fin[u] = std::move(keep);
    }
    const uint64_t gone = all - product();
    res_.stats.finished_runs += gone;
    res_.stats.pruned += gone;
    res_.stats.prefix_pruned += gone;
  }
  std::vector<uint64_t> below(nunits_ + 1, 1);  // compositions under a prefix of k units
  for (size_t k = nunits_; k-- > 0;)
    below[k] = fin[k].empty() ? 0 : std::min<uint64_t>(below[k + 1], UINT64_MAX / fin[k].size()) * fin[k].size();
  // Per prefix length and constraint: prefix keys -> check result.
  std::vector<std::vector<std::unordered_map<std::vector<int>, bool, KeyHash>>> pmemo(
      nunits_, std::vector<std::unordered_map<std::vector<int>, bool, KeyHash>>(npcons_));
  // Per prefix length and constraint: whether some check failed, and the
  // seconds its checks took. After kPrefixTries checks that all passed and
  // took kPrefixCheckCost each on average, a length and constraint is not
  // checked again: leaving a check out keeps the result exact (each is a
  // necessary condition) and saves the engine calls that a check which
  // does not tell prefixes apart costs (a lock's counter with shapes that
  // write any value: every prefix of distinct values passes). Cheap checks
  // go on: they still save the enumeration below a prefix that fails.
  std::vector<std::vector<char>> pfailed(nunits_, std::vector<char>(npcons_, 0));
  std::vector<std::vector<double>> pcost(nunits_, std::vector<double>(npcons_, 0));
  std::vector<const UnitTrace*> pick(nunits_);
  auto prefix_passes = [&](size_t k) {
    std::vector<const UnitTrace*> prefix(pick.begin(), pick.begin() + static_cast<std::ptrdiff_t>(k));
    std::vector<int> key(k);
    for (size_t x = 0; x < npcons_; ++x) {
      if (skip_[x]) continue;
      std::vector<const UnitShape*> rest;
      for (size_t u = k; u < nunits_ && rest.size() == u - k; ++u)
        if (shape[x][u]) rest.push_back(&*shape[x][u]);
      if (rest.size() != nunits_ - k) continue;
      for (size_t u = 0; u < k; ++u) key[u] = pick[u]->proj[x];
      std::sort(key.begin(), key.end());  // the shapes of units k.. are the same for every prefix
      auto it = pmemo[k][x].find(key);
      if (it == pmemo[k][x].end() && pmemo[k][x].size() >= kPrefixTries && !pfailed[k][x] &&
          pcost[k][x] >= kPrefixTries * kPrefixCheckCost)
        continue;
      if (it == pmemo[k][x].end()) {
        check_time();
        Result::Run p = project_prefix(x, prefix, rest);
        const double t0 = elapsed();
        it = pmemo[k][x].emplace(key, feasible(p, engine_, opt_.model, limits_left(), &res_.stats.symmetric)).first;
        pcost[k][x] += elapsed() - t0;
        if (debug_) miss_s_[x] += elapsed() - t0, ++misses_[x];
      }
      if (!it->second) {
        pfailed[k][x] = 1;
        return false;
      }
    }
    return true;
  };
  std::function<void(size_t)> descend = [&](size_t k) {
    if (k == nunits_) {
      check_time();
      ++res_.stats.finished_runs;
      if (passes(pick)) runs.push_back(comp_->build(pick));
      return;
    }
    for (const UnitTrace& t : fin[k]) {
      pick[k] = &t;
      if (k + 1 < nunits_ && below[k + 1] >= kPrefixMin && !prefix_passes(k + 1)) {
        res_.stats.finished_runs += below[k + 1];
        res_.stats.pruned += below[k + 1];
        res_.stats.prefix_pruned += below[k + 1];
        continue;
      }
      descend(k + 1);
    }
  };
  descend(0);
}

}  // namespace ptxcheck::outcomes
