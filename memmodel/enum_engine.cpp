// The explicit enumeration engine: backtracking over rf (pruned with the
// monotone axioms on partial candidates; a read of a location no two threads
// share has only the write the axioms force), then over Fence-SC orders and
// the minimal coherence orders (relations.hpp). An execution is (rf, co, final
// write choice); see engine.hpp and docs/model-notes.md.
#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "memmodel/axioms.hpp"
#include "memmodel/engine.hpp"
#include "memmodel/enum_engine.hpp"
#include "memmodel/fence_sc.hpp"
#include "memmodel/relations.hpp"
#include "memmodel/static_relations.hpp"
#include "support/error.hpp"

namespace ptxcheck::mm {
namespace {

using Clock = std::chrono::steady_clock;

// Candidate writes for each read: same physical location, same value
// (the value the thread trace assumed; any value for a read marked
// Event::any_value, and any for a write marked so: ptxcheck outcomes'
// stand-in for a write whose value varies, compose.hpp UnitShape), not its
// own RMW write; the initial
// value is read from the first initial write of the location.
std::vector<std::vector<int>> rf_candidates(const Skeleton& s, const StaticRelations& st,
                                            const std::vector<int>& reads) {
  std::vector<std::vector<int>> out;
  for (int r : reads) {
    std::vector<int> c;
    const Event& er = s.events[r];
    for (int w : st.writes.elements()) {
      const Event& ew = s.events[w];
      if (s.physical(w) != s.physical(r) || (ew.value != er.value && !er.any_value && !ew.any_value) ||
          w == er.rmw_pair)
        continue;
      if (st.init.has(w) && st.init_of_physical[s.physical(w)] != w) continue;
      c.push_back(w);
    }
    out.push_back(std::move(c));
  }
  return out;
}

// Locations no two threads share (docs/model-notes.md "Locations no two
// threads share"): for each read of a physical location whose accesses are
// all in the program order of one thread, to one virtual address, through
// one proxy, the write it must read from in every consistent execution -- the
// latest write before it in program order, else the location's first
// initial write (-1 if none). -2 for every other event.
std::vector<int> private_sources(const Skeleton& s, const StaticRelations& st) {
  const int n = static_cast<int>(s.events.size());
  std::vector<int> out(n, -2);
  std::vector<int> owner(st.num_physical, -1), vaddr(st.num_physical, -1), proxy(st.num_physical, -1);
  std::vector<bool> ok(st.num_physical, true);
  for (int e = 0; e < n; ++e) {
    const Event& ev = s.events[e];
    if (ev.kind != EventKind::Read && ev.kind != EventKind::Write) continue;
    const int p = s.physical(e);
    if (ev.thread < 0 || ev.async_op >= 0) {
      ok[p] = false;  // asynchronous operations are not in program order (8.9.1.1)
    } else if (owner[p] < 0) {
      owner[p] = ev.thread, vaddr[p] = ev.loc, proxy[p] = static_cast<int>(ev.proxy);
    } else if (owner[p] != ev.thread || vaddr[p] != ev.loc || proxy[p] != static_cast<int>(ev.proxy)) {
      ok[p] = false;
    }
  }
  std::vector<int> last(st.init_of_physical);  // per physical location: latest write so far
  std::vector<bool> seen(n, false);
  for (const auto& thread : s.po)
    for (int e : thread) {
      const Event& ev = s.events[e];
      seen[e] = true;
      if ((ev.kind != EventKind::Read && ev.kind != EventKind::Write) || !ok[s.physical(e)]) continue;
      const int p = s.physical(e);
      if (ev.kind == EventKind::Read) {
        out[e] = last[p];
      } else {
        // The read half of an RMW comes first in program order; any other
        // shape is left to the search.
        if (ev.rmw_pair >= 0 && !seen[ev.rmw_pair]) ok[p] = false;
        last[p] = e;
      }
    }
  for (int e = 0; e < n; ++e) {
    const Event& ev = s.events[e];
    if ((ev.kind == EventKind::Read || ev.kind == EventKind::Write) && !seen[e]) ok[s.physical(e)] = false;
  }
  for (int e = 0; e < n; ++e)
    if (out[e] != -2 && !ok[s.physical(e)]) out[e] = -2;
  return out;
}

class Search {
 public:
  Search(const Skeleton& s, const Model& m, const Limits& lim, const Visitor& visit, const EnumOptions& opt)
      : s_(s),
        m_(m),
        lim_(lim),
        visit_(visit),
        st_(build_static(s, m)),
        start_(Clock::now()),
        permutations_(opt.permutations),
        fsc_search_(s_, st_, m_, [this] { tick(); }) {
    reads_ = st_.reads.elements();
    cands_ = rf_candidates(s, st_, reads_);
    find_units();
    if (opt.private_locations) {
      const std::vector<int> src = private_sources(s, st_);
      for (size_t i = 0; i < reads_.size(); ++i)
        if (src[reads_[i]] != -2) std::erase_if(cands_[i], [&](int w) { return w != src[reads_[i]]; });
    }
    // Fewest candidates first (reads of one location next to each other
    // among equals): forced choices then constrain the branching reads
    // before they multiply (cas_lock_counter_2x2: 8.5 s of CPU instead of
    // more than 15 minutes). Any order visits the same executions.
    {
      std::vector<size_t> idx(reads_.size());
      for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
      std::stable_sort(idx.begin(), idx.end(), [&](size_t x, size_t y) {
        const int px = s.physical(reads_[x]), py = s.physical(reads_[y]);
        return cands_[x].size() != cands_[y].size() ? cands_[x].size() < cands_[y].size() : px < py;
      });
      std::vector<int> r2;
      std::vector<std::vector<int>> c2;
      for (size_t i : idx) r2.push_back(reads_[i]), c2.push_back(std::move(cands_[i]));
      reads_ = std::move(r2);
      cands_ = std::move(c2);
    }
    set_aside_free_reads();
    fences_ = ordered_sc_fences(st_);
    std::sort(fences_.begin(), fences_.end());
    pairs_ = must_order_pairs(st_, m);
    rmw_read_.assign(s.events.size(), -1);
    for (auto [r, w] : st_.rmw.pairs()) rmw_read_[w] = r;
    for (const auto& [a, b] : pairs_)
      if (rmw_read_[a] >= 0 && rmw_read_[b] >= 0) rmw_pairs_.emplace_back(a, b);
    rf_.assign(s.events.size(), -1);
    branches_after_.assign(reads_.size(), false);
    for (size_t i = reads_.size(); i-- > 1;) branches_after_[i - 1] = branches_after_[i] || cands_[i].size() > 1;
  }

  EngineStats run() {
    if (st_.barrier_hangs) return stats_;  // a barrier never completes: no terminating execution
    for (const auto& c : cands_)
      if (c.empty()) return stats_;
    for (const auto& f : free_)
      if (f.second.empty()) return stats_;
    descend(0);
    return stats_;
  }

 private:
  void tick() {
    if ((++ticks_ & 63U) != 0 || lim_.timeout_s <= 0) return;
    const double el = std::chrono::duration<double>(Clock::now() - start_).count();
    if (el > lim_.timeout_s)
      throw LimitError("memory-model enumeration exceeded the time limit of " + std::to_string(lim_.timeout_s) + " s");
  }

  // Sound pruning: rf, cause (without Fence-SC edges) and the forced part of
  // co only grow as more reads are assigned, and every check below is
  // violated by a subset only if it is violated by every completion.
  bool partial_ok() const {
    const Relation rf = rf_relation(st_, rf_);
    if (!no_thin_air_holds(st_, rf)) return false;
    if (m_.kind == ModelKind::SC) {
      const Relation co = forced_coherence(s_, st_, Relation(st_.n));
      return sc_order_holds(st_, rf, co, from_reads(rf, co));
    }
    const CauseInfo c = compute_cause(st_, m_, rf_, {});
    const Relation co = forced_coherence(s_, st_, c.cause);
    if (!co.irreflexive()) return false;
    const Relation fr = from_reads(rf, co);
    if (!causality_holds(rf, fr, c.cause)) return false;
    if ((m_.kind == ModelKind::PTX6 || m_.sc_per_location) && !sc_per_location_holds(st_, m_, rf, co, fr)) return false;
    return atomicity_possible(co);
  }

  // Atomicity (PTX ISA 8.10.3 Atomicity) seen from rf alone. Every
  // consistent completion's co contains the forced part `co` and orders each
  // morally strong pair of overlapping writes (8.9.6 Coherence Order:
  // must_order_pairs). For two RMWs (ra,a) and (rb,b) whose writes are such
  // a pair: if rb reads a write that `co` orders before a, then a before b
  // in co puts a between rb's source and b (rb fr a co b: the violation
  // (ms & fr);(ms & co) & rmw when rb, a, b are morally strong), and
  // symmetrically. If both orientations break atomicity, no completion is
  // consistent. This catches two successful RMWs reading the same write,
  // which the coherence enumeration would otherwise refute once per
  // complete rf assignment.
  bool atomicity_possible(const Relation& co) const {
    // x before w in co breaks the RMW (r, w) when r fr x: r's source is
    // co-before x.
    auto breaks = [&](int r, int w, int x) {
      const int src = rf_[r];
      return src >= 0 && co.has(src, x) && st_.ms.has(r, x) && st_.ms.has(x, w);
    };
    for (const auto& [a, b] : rmw_pairs_) {
      if (co.has(a, b) || co.has(b, a)) continue;
      const int ra = rmw_read_[a], rb = rmw_read_[b];
      // a co b breaks via rb fr a; b co a breaks via ra fr b.
      if (breaks(rb, b, a) && breaks(ra, a, b)) return false;
    }
    return true;
  }

  // The axioms that only get worse as co grows (more co, more fr): a
  // partial coherence order that breaks one cannot be completed.
  bool co_prefix_ok(const CauseInfo& c, const Relation& co) {
    tick();
    const Relation fr = from_reads(c.rf, co);
    if (m_.kind == ModelKind::SC) return sc_order_holds(st_, c.rf, co, fr);
    if (!atomicity_holds(st_, fr, co) || !causality_holds(c.rf, fr, c.cause)) return false;
    return !(m_.kind == ModelKind::PTX6 || m_.sc_per_location) || sc_per_location_holds(st_, m_, c.rf, co, fr);
  }

  void descend(size_t i) {
    tick();
    if (i == reads_.size()) {
      complete();
      return;
    }
    const int r = reads_[i];
    const int ur = unit_of(r);
    if (ur >= 0) ++touched_[ur];
    for (int w : cands_[i]) {
      if (!any_agrees(r, w)) continue;
      if (!canonical(w)) {
        ++stats_.symmetric;
        continue;
      }
      const int uw = unit_of(w);
      if (uw >= 0) ++touched_[uw];
      rf_[r] = w;
      // Pruning pays only where it can cut a subtree with more than one
      // leaf; below the last branching read it is checked once, at the
      // last read (complete() checks every axiom in full anyway).
      if ((!branches_after_[i] && i + 1 < reads_.size()) || partial_ok()) descend(i + 1);
      if (uw >= 0) --touched_[uw];
      if (stop_) break;
    }
    if (ur >= 0) --touched_[ur];
    rf_[r] = -1;
  }

  // With Limits::exists_only, a write of any value (Event::any_value)
  // still writes one value: the reads of a value that read from it read the
  // same one (ptxcheck outcomes' reads_their_values asks this of the
  // execution it accepts).
  bool any_agrees(int r, int w) const {
    const Event& er = s_.events[r];
    if (!lim_.exists_only || er.any_value || !s_.events[w].any_value) return true;
    for (int q : reads_)
      if (rf_[q] == w && !s_.events[q].any_value && s_.events[q].value != er.value) return false;
    return true;
  }

  int unit_of(int e) const {
    const int t = s_.events[e].thread;
    return t < 0 || unit_.empty() ? -1 : unit_[t];
  }

  // Interchangeable CTAs (Limits::exists_only). A write of a CTA in which
  // no assigned read and no assigned source lies is taken only from the
  // first such CTA of its class. Swapping the two CTAs (find_units) leaves
  // the current assignment as it is and maps every consistent completion
  // that reads from the later one onto a consistent completion that reads
  // from the earlier one, so whenever some consistent execution extends the
  // assignment, one extends it through the earlier CTA: the search still
  // finds an execution when there is one (standard symmetry breaking; by
  // induction over the reads).
  bool canonical(int w) const {
    const int u = unit_of(w);
    if (u < 0 || touched_[u] != 0) return true;
    for (int v : class_members_[cls_[u]]) {
      if (v == u) return true;
      if (touched_[v] == 0) return false;
    }
    return true;
  }

  // The CTAs (ThreadPlace::cta) of the skeleton and their classes: two
  // CTAs are in one class when their threads, in skeleton order, have the
  // same events in program order (all but the thread; RMW pairs at the
  // same distance) and the same pattern of warps, and no thread of another
  // CTA shares a cluster with them; every thread on one GPU, no
  // dependencies and no asynchronous operations. Swapping two such CTAs,
  // thread for thread and event for event, keeps every relation the axioms
  // look at: the scopes between threads (PTX ISA 8.5: same CTA, cluster or
  // GPU, each the same for a thread and its image), program order and
  // barrier instances within the CTA, and each event's kind, semantics,
  // scope, proxy, location and value (8.7 morally strong, 8.8 release and
  // acquire patterns, 8.9 orders, 8.10 axioms: none names a thread), so it
  // maps consistent executions onto consistent executions, and an
  // execution whose reads read their values onto one whose reads do.
  void find_units() {
    const Skeleton& s = s_;
    if (!lim_.exists_only || !s.addr.empty() || !s.data.empty() || !s.ctrl.empty() || !s.async_ops.empty() ||
        !s.async_waits.empty())
      return;
    const size_t nt = s.threads.size();
    std::map<int, int> unit_of_cta;
    std::vector<int> unit(nt, -1);
    for (size_t t = 0; t < nt; ++t) {
      if (s.threads[t].gpu != s.threads[0].gpu) return;
      unit[t] = unit_of_cta.try_emplace(s.threads[t].cta, static_cast<int>(unit_of_cta.size())).first->second;
    }
    std::map<int, int> cluster_unit;
    for (size_t t = 0; t < nt; ++t) {
      auto [it, fresh] = cluster_unit.try_emplace(s.threads[t].cluster, unit[t]);
      if (!fresh && it->second != unit[t]) return;  // a cluster of several CTAs
    }
    const size_t nu = unit_of_cta.size();
    std::vector<std::vector<int64_t>> sig(nu);
    std::vector<std::map<int, int>> warps(nu);
    for (size_t t = 0; t < nt; ++t) {
      std::vector<int64_t>& g = sig[static_cast<size_t>(unit[t])];
      auto& wm = warps[static_cast<size_t>(unit[t])];
      const int w = wm.try_emplace(s.threads[t].warp, static_cast<int>(wm.size())).first->second;
      g.insert(g.end(), {-1, w, static_cast<int64_t>(s.po[t].size())});
      for (int e : s.po[t]) {
        const Event& ev = s.events[e];
        g.insert(g.end(), {static_cast<int64_t>(ev.kind), static_cast<int64_t>(ev.order),
                           static_cast<int64_t>(ev.scope), static_cast<int64_t>(ev.proxy), ev.loc,
                           static_cast<int64_t>(ev.value), ev.rmw_pair < 0 ? INT64_MIN : ev.rmw_pair - e, ev.any_value,
                           ev.reduction, static_cast<int64_t>(ev.pfence), static_cast<int64_t>(ev.fspace), ev.async_op,
                           static_cast<int64_t>(ev.bar), ev.bar_id, ev.bar_count, ev.span});
      }
    }
    std::map<std::vector<int64_t>, int> class_of;
    cls_.assign(nu, -1);
    for (size_t u = 0; u < nu; ++u) {
      auto [it, fresh] = class_of.try_emplace(sig[u], static_cast<int>(class_members_.size()));
      if (fresh) class_members_.emplace_back();
      cls_[u] = it->second;
      class_members_[static_cast<size_t>(it->second)].push_back(static_cast<int>(u));
    }
    if (class_members_.size() == nu) return;  // no two alike
    unit_ = std::move(unit);
    touched_.assign(nu, 0);
  }

  // Free reads: a weak plain read of any value (Event::any_value; ptxcheck
  // outcomes' lazy loads, semantics/outcomes/hook_lazy.cpp, whose values
  // reach nothing) with no dependency from it, under the PTX ISA 9.2 model.
  // Its source changes no other relation the axioms use: it is morally
  // strong with nothing (8.7), so its rf is in no observation (8.9.2) and no
  // release or acquire pattern (8.8), hence in no synchronization or
  // causality order (8.9.5), and it adds no coherence edge (8.10.1: writes
  // only), no SC-per-location edge (8.10.5: morally strong operations) and,
  // with no dependency from it, no No-Thin-Air cycle (8.10.4). The only
  // axiom on it is Causality (8.10.6) for its own rf and fr: it must not
  // read a write it precedes in causality order, nor a write coherence-
  // before another write that precedes it in causality order. So the
  // search leaves it out (its rf one existential choice, not a branch):
  // every consistent execution of the other events whose coherence order
  // gives it such a source extends to a consistent execution with it, every
  // consistent execution with it restricts to one of the others with the
  // same coherence order (more coherence only removes sources), and each is
  // emitted once, with the first such source (emit). Races do not change:
  // they are the unordered conflicting pairs under causality order, which
  // its source does not change. Thousands of speculated loads of a racy
  // slot (probe9j's j12n) then cost nothing here.
  void set_aside_free_reads() {
    bool any = false;
    for (int r : reads_) any = any || s_.events[r].any_value;
    if (!any || m_.kind != ModelKind::PTX75) return;
    std::vector<char> dep_from(s_.events.size(), 0);
    for (const auto* d : {&s_.addr, &s_.data, &s_.ctrl})
      for (auto [a, b] : *d)
        if (a >= 0 && static_cast<size_t>(a) < dep_from.size()) dep_from[static_cast<size_t>(a)] = 1;
    std::vector<int> r2;
    std::vector<std::vector<int>> c2;
    for (size_t i = 0; i < reads_.size(); ++i) {
      const Event& e = s_.events[reads_[i]];
      if (e.any_value && e.rmw_pair < 0 && e.async_op < 0 && e.order == Order::Weak && !dep_from[reads_[i]] &&
          !st_.rmw.domain().has(reads_[i]))
        free_.emplace_back(reads_[i], std::move(cands_[i]));
      else
        r2.push_back(reads_[i]), c2.push_back(std::move(cands_[i]));
    }
    reads_ = std::move(r2);
    cands_ = std::move(c2);
  }

  // The source of each free read in an execution of the others with
  // coherence order `co` and causality order `cause`: the first candidate
  // the Causality axiom allows (8.10.6); false if one has none.
  bool free_sources(const Relation& co, const Relation& cause, std::vector<int>& rf) const {
    for (const auto& [r, cands] : free_) {
      int pick = -1;
      for (int w : cands) {
        if (cause.has(r, w)) continue;
        bool ok = true;
        for (int w2 : cands)
          if (w2 != w && co.has(w, w2) && cause.has(w2, r)) {
            ok = false;
            break;
          }
        if (ok) {
          pick = w;
          break;
        }
      }
      if (pick < 0) return false;
      rf[static_cast<size_t>(r)] = pick;
    }
    return true;
  }

  void complete() {
    if (permutations_ || m_.kind == ModelKind::SC || fences_.size() < 2)
      complete_orders();
    else
      complete_search();
  }

  // Coherence first, then the Fence-SC order as an existential
  // (fence_sc.hpp). The candidates cover every minimal coherence order of
  // every Fence-SC order: causality without Fence-SC edges (`lo`) is in
  // every order's causality, causality with all of them in both directions
  // (`hi`) contains every order's, so each minimal co is the closure of
  // lo's forced edges, one orientation per morally strong pair, and some
  // non-morally-strong pairs that hi relates (optional pairs). Each
  // candidate is kept if some order makes it consistent and minimal.
  void complete_search() {
    std::set<std::vector<int>> seen;
    std::set<std::vector<std::pair<int, int>>> emitted;
    const size_t nbar = st_.sync_barrier_choices.size();
    for (size_t bar = 0; bar < nbar; ++bar) {
      tick();
      const CauseInfo lo = compute_cause(st_, m_, rf_, {}, bar);
      const CauseInfo hi = compute_cause_sync(st_, m_, rf_, st_.sc_fence_pairs, bar);
      const Relation forced = forced_coherence(s_, st_, lo.cause);
      std::vector<OptionalPair> optional;
      const std::vector<int> ws = (st_.writes - st_.init).elements();
      for (size_t i = 0; i < ws.size(); ++i)
        for (size_t j = i + 1; j < ws.size(); ++j) {
          const int a = ws[i], b = ws[j];
          if (!st_.loc.has(a, b) || st_.ms.has(a, b) || forced.has(a, b) || forced.has(b, a)) continue;
          if (hi.cause.has(a, b) || hi.cause.has(b, a))
            optional.push_back({a, b, hi.cause.has(a, b), hi.cause.has(b, a)});
        }
      std::set<std::vector<std::pair<int, int>>> failed;
      enumerate_coherence_opt(
          forced, pairs_, optional,
          [&](const Relation& co) {
            tick();
            ++stats_.candidates;
            auto key = co.pairs();
            if (emitted.count(key) || failed.count(key)) return true;
            std::vector<int> order;
            if (!fsc_search_.decide(rf_, co, bar, order)) {
              failed.insert(std::move(key));
              return true;
            }
            emitted.insert(std::move(key));
            std::optional<CauseInfo> full;  // free reads: causality with this Fence-SC order
            if (!free_.empty()) full = compute_cause(st_, m_, rf_, order, bar);
            emit(co, order, seen, full ? &full->cause : nullptr);
            return !stop_;
          },
          [&](const Relation& co) { return co_prefix_ok(lo, co); });
      if (stop_) return;
    }
  }

  // All Fence-SC orders for this rf, then all minimal co orders.
  void complete_orders() {
    std::set<std::vector<int>> seen;  // co pairs + final writes, for this rf
    const size_t nbar = m_.kind == ModelKind::SC ? 1 : st_.sync_barrier_choices.size();
    for (size_t bar = 0; bar < nbar; ++bar) {
      std::vector<int> fsc = fences_;
      do {
        tick();
        const CauseInfo c = compute_cause(st_, m_, rf_, fsc, bar);
        if (!fence_sc_holds(st_, c.cause, c.sync_fence)) continue;
        const Relation forced = forced_coherence(s_, st_, m_.kind == ModelKind::SC ? Relation(st_.n) : c.cause);
        enumerate_coherence(
            forced, pairs_,
            [&](const Relation& co) {
              tick();
              ++stats_.candidates;
              if (!violations(st_, m_, c, co).empty()) return true;
              emit(co, fsc, seen, &c.cause);
              return !stop_;
            },
            [&](const Relation& co) { return co_prefix_ok(c, co); });
        if (stop_) return;
      } while (m_.kind != ModelKind::SC && std::next_permutation(fsc.begin(), fsc.end()));
    }
  }

  void emit(const Relation& co, const std::vector<int>& fsc, std::set<std::vector<int>>& seen, const Relation* cause) {
    std::vector<int> rf = rf_;
    if (!free_.empty() && (!cause || !free_sources(co, *cause, rf))) return;
    const auto finals = final_write_candidates(s_, st_, co);
    std::vector<size_t> idx(finals.size(), 0);
    const auto copairs = co.pairs();
    while (true) {
      Execution ex;
      ex.rf = rf;
      ex.co = copairs;
      ex.fsc = m_.kind == ModelKind::SC ? std::vector<int>{} : fsc;
      ex.final_write.resize(finals.size(), -1);
      for (size_t p = 0; p < finals.size(); ++p)
        if (!finals[p].empty()) ex.final_write[p] = finals[p][idx[p]];
      std::vector<int> key;
      for (auto [a, b] : copairs) key.insert(key.end(), {a, b});
      key.push_back(-1);
      key.insert(key.end(), ex.final_write.begin(), ex.final_write.end());
      if (seen.insert(std::move(key)).second) {
        ++stats_.consistent;
        if (lim_.max_executions && stats_.consistent > lim_.max_executions)
          throw LimitError("more than " + std::to_string(lim_.max_executions) + " executions");
        if (!visit_(ex)) {
          stop_ = true;
          return;
        }
      }
      size_t p = 0;
      while (p < finals.size() && (finals[p].empty() || ++idx[p] == finals[p].size())) {
        idx[p] = 0;
        ++p;
      }
      if (p == finals.size()) return;
    }
  }

  const Skeleton& s_;
  const Model& m_;
  const Limits& lim_;
  const Visitor& visit_;
  StaticRelations st_;
  Clock::time_point start_;
  std::vector<int> reads_;
  std::vector<std::vector<int>> cands_;
  std::vector<std::pair<int, std::vector<int>>> free_;  // free reads and their candidates (set_aside_free_reads)
  std::vector<int> fences_;
  std::vector<std::pair<int, int>> pairs_;
  std::vector<std::pair<int, int>> rmw_pairs_;  // must-order pairs of two RMW writes
  std::vector<int> rmw_read_;                   // per RMW write: its read half (-1 otherwise)
  std::vector<int> rf_;
  std::vector<bool> branches_after_;  // per read level: some later read has several candidates
  // Interchangeable CTAs (find_units): per thread its CTA's unit (empty:
  // none), per unit its class, per class its units in order, and per unit
  // how many assigned reads and sources lie in it.
  std::vector<int> unit_;
  std::vector<int> cls_;
  std::vector<std::vector<int>> class_members_;
  std::vector<int> touched_;
  EngineStats stats_;
  uint64_t ticks_ = 0;
  bool stop_ = false;
  bool permutations_;
  FenceScSearch fsc_search_;
};

class EnumEngine : public Engine {
 public:
  explicit EnumEngine(const EnumOptions& opt) : opt_(opt) {}
  std::string name() const override { return opt_.permutations ? "enum-perm" : "enum"; }
  EngineStats enumerate(const Skeleton& s, const Model& m, const Limits& lim, const Visitor& visit) override {
    Search search(s, m, lim, visit, opt_);
    return search.run();
  }

 private:
  EnumOptions opt_;
};

}  // namespace

std::vector<int> private_read_sources(const Skeleton& s, const Model& m) {
  return private_sources(s, build_static(s, m));
}

std::unique_ptr<Engine> make_enum_engine(const EnumOptions& opt) { return std::make_unique<EnumEngine>(opt); }
std::unique_ptr<Engine> make_enum_engine() { return make_enum_engine(EnumOptions{}); }
std::unique_ptr<Engine> make_enum_perm_engine() {
  EnumOptions opt;
  opt.permutations = true;
  return make_enum_engine(opt);
}

}  // namespace ptxcheck::mm
