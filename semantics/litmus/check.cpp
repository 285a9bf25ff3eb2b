// Combining thread traces into skeletons and judging the condition (check.hpp).
#include "semantics/litmus/check.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <map>
#include <set>

#include "parser/diagnostic.hpp"
#include "semantics/litmus/warp_match.hpp"

namespace ptxcheck::litmus {

namespace {

struct ObsVar {
  bool is_reg = false;
  int thread = -1;
  int index = -1;  // slot or location index
  std::string name;
};

void collect(const Cond& c, std::vector<CondValue>& out) {
  if (c.kind == Cond::Cmp) {
    out.push_back(c.lhs);
    out.push_back(c.rhs);
  }
  for (const Cond& k : c.kids) collect(k, out);
}

// herd prints registers (by thread, then name) before locations.
std::vector<ObsVar> observed(const Program& p) {
  std::vector<CondValue> vs;
  collect(p.test->cond, vs);
  std::set<std::pair<int, std::string>> regs;
  std::set<std::string> locs;
  for (const auto& v : vs) {
    if (v.kind == CondValue::Reg) regs.insert({v.thread, v.name});
    if (v.kind == CondValue::Loc) locs.insert(v.name);
  }
  if (regs.empty() && locs.empty())  // `exists 0==0`: show every register
    for (size_t t = 0; t < p.threads.size(); ++t)
      for (const auto& r : p.threads[t].regs) regs.insert({static_cast<int>(t), r});
  std::vector<ObsVar> out;
  for (const auto& [t, r] : regs) out.push_back({true, t, p.threads[t].slot(r), std::to_string(t) + ":" + r});
  for (const auto& l : locs) out.push_back({false, -1, p.loc_index(l), l});
  return out;
}

int64_t signed_value(uint64_t v, uint32_t size) {
  if (size >= 8) return static_cast<int64_t>(v);
  uint64_t sign = uint64_t{1} << (8 * size - 1);
  v = mask_to(v, size);
  return static_cast<int64_t>((v ^ sign) - sign);
}

uint64_t value_of(const CondValue& v, const Program& p, const std::vector<const Trace*>& traces,
                  const std::vector<uint64_t>& loc_final) {
  switch (v.kind) {
    case CondValue::Reg: return traces[v.thread]->regs[p.threads[v.thread].slot(v.name)];
    case CondValue::Loc: return loc_final[p.loc_index(v.name)];
    case CondValue::Const: return v.value;
  }
  return 0;
}

}  // namespace

bool eval_cond(const Cond& c, const Program& p, const std::vector<const Trace*>& traces,
               const std::vector<uint64_t>& loc_final) {
  switch (c.kind) {
    case Cond::True: return true;
    case Cond::Cmp: return compare(c.cmp, value_of(c.lhs, p, traces, loc_final), value_of(c.rhs, p, traces, loc_final));
    case Cond::And:
      for (const Cond& k : c.kids)
        if (!eval_cond(k, p, traces, loc_final)) return false;
      return true;
    case Cond::Or:
      for (const Cond& k : c.kids)
        if (eval_cond(k, p, traces, loc_final)) return true;
      return false;
    case Cond::Not: return !eval_cond(c.kids[0], p, traces, loc_final);
    case Cond::Implies:
      return !eval_cond(c.kids[0], p, traces, loc_final) || eval_cond(c.kids[1], p, traces, loc_final);
  }
  return false;
}

mm::Skeleton make_skeleton(const Program& p, const std::vector<const Trace*>& pick) {
  mm::Skeleton s;
  s.locations = p.locations;
  for (const auto& th : p.threads) s.threads.push_back(th.place);
  // PTX ISA 8.2.6: one initial write per physical location, first in coherence.
  // A split location's granules carry its events and initial writes (Split).
  std::vector<bool> seen(p.nphys, false);
  for (size_t i = 0; i < p.locations.size(); ++i) {
    const auto& l = p.locations[i];
    if (seen[l.physical] || p.split(static_cast<int>(i)) >= 0) continue;
    seen[l.physical] = true;
    mm::Event e;
    e.kind = mm::EventKind::Init;
    e.thread = -1;
    e.loc = static_cast<int>(i);
    e.value = l.init;
    e.label = l.name + " = " + std::to_string(l.init);
    s.events.push_back(std::move(e));
  }
  s.po.resize(pick.size());
  const bool colls = has_colls(pick);
  CollMatch cm;
  std::vector<int> bases;
  if (colls) {
    cm = match_colls(p, pick);
    int b = static_cast<int>(s.events.size());
    for (const Trace* tr : pick) {
      bases.push_back(b);
      b += static_cast<int>(tr->events.size());
    }
  }
  std::map<std::pair<int, uint64_t>, int> warp_bars;  // (warp, membermask) -> barrier id
  // A dependency on a collective's result (a pseudo event -(k+1)) is one on
  // what the partner lanes' operands depend on.
  auto add_deps = [&](std::vector<std::pair<int, int>>& into, const std::vector<std::pair<int, int>>& from, size_t t,
                      int base) {
    for (auto [a, b] : from) {
      if (a >= 0) {
        into.emplace_back(a + base, b + base);
        continue;
      }
      if (cm.status == CollMatch::Infeasible || cm.group[t].size() <= static_cast<size_t>(-a - 1)) continue;
      std::set<int> src;
      std::set<std::pair<int, int>> done;
      coll_deps(p, pick, cm, bases, static_cast<int>(t), -a - 1, src, done);
      for (int x : src) into.emplace_back(x, b + base);
    }
  };
  for (size_t t = 0; t < pick.size(); ++t) {
    int base = static_cast<int>(s.events.size());
    const int op_base = static_cast<int>(s.async_ops.size());
    for (const mm::Event& e : pick[t]->events) {
      mm::Event c = e;
      if (c.rmw_pair >= 0) c.rmw_pair += base;
      // Events of asynchronous operations are outside program order (8.9.1.1).
      // A bar.warp.sync: one barrier id per (warp, membermask).
      if (c.kind == mm::EventKind::Barrier && c.bar_id == interp::kWarpBarrierId)
        c.bar_id =
            interp::kWarpBarrierId + 1 +
            warp_bars.try_emplace({p.threads[t].warp, c.value}, static_cast<int>(warp_bars.size())).first->second;
      if (c.async_op >= 0)
        c.async_op += op_base;
      else
        s.po[t].push_back(static_cast<int>(s.events.size()));
      s.events.push_back(std::move(c));
    }
    for (const interp::TraceAsyncOp& o : pick[t]->async_ops) {
      mm::AsyncOp op;
      op.kind = o.kind;
      op.thread = static_cast<int>(t);
      op.issued_after = o.issued_after;
      for (int e : o.mem) op.mem.push_back(e + base);
      op.fence = o.fence >= 0 ? o.fence + base : -1;
      op.complete_tx = o.complete_tx >= 0 ? o.complete_tx + base : -1;
      s.async_ops.push_back(std::move(op));
    }
    for (const interp::TraceAsyncWait& w : pick[t]->waits)
      s.async_waits.push_back({w.op + op_base, static_cast<int>(t), w.before, w.reads_only});
    add_deps(s.addr, pick[t]->addr, t, base);
    add_deps(s.data, pick[t]->data, t, base);
    add_deps(s.ctrl, pick[t]->ctrl, t, base);
  }
  return s;
}

namespace {

// Every read must be able to read its guessed value from some write of the
// combination (or the initial value); others have no execution. Per trace,
// precomputed once: the (physical location, value) pairs it writes, and the
// pairs its reads need that neither the initial values nor its own writes
// give; a combination is feasible when every thread's needs are written by
// another thread's trace (no allocation per combination: the loop over
// combinations is the hot path when most are infeasible).
struct ValueNeeds {
  using PV = std::pair<int, uint64_t>;
  std::vector<std::vector<std::vector<PV>>> writes, needs;  // [thread][trace], sorted

  ValueNeeds(const Program& p, const TraceSet& ts) {
    std::vector<std::set<uint64_t>> inits(p.nphys);
    for (const auto& l : p.locations) inits[l.physical].insert(l.init);
    writes.resize(ts.threads.size());
    needs.resize(ts.threads.size());
    for (size_t t = 0; t < ts.threads.size(); ++t)
      for (const Trace& tr : ts.threads[t].traces) {
        std::set<PV> w, r;
        for (const auto& e : tr.events) {
          if ((e.kind != mm::EventKind::Write && e.kind != mm::EventKind::Read) || e.loc < 0) continue;
          const int ph = p.locations[e.loc].physical;
          if (e.kind == mm::EventKind::Write) w.insert({ph, e.value});
          if (e.kind == mm::EventKind::Read && !inits[ph].count(e.value)) r.insert({ph, e.value});
        }
        std::vector<PV> need;
        for (const PV& x : r)
          if (!w.count(x)) need.push_back(x);
        writes[t].emplace_back(w.begin(), w.end());
        needs[t].push_back(std::move(need));
      }
  }

  bool feasible(const std::vector<size_t>& idx) const {
    for (size_t t = 0; t < idx.size(); ++t)
      for (const PV& x : needs[t][idx[t]]) {
        bool given = false;
        for (size_t u = 0; u < idx.size() && !given; ++u)
          given = u != t && std::binary_search(writes[u][idx[u]].begin(), writes[u][idx[u]].end(), x);
        if (!given) return false;
      }
    return true;
  }
};

}  // namespace

namespace {

bool same_event(const mm::Event& a, const mm::Event& b) {
  return a.kind == b.kind && a.order == b.order && a.scope == b.scope && a.proxy == b.proxy && a.loc == b.loc &&
         a.value == b.value && a.rmw_pair == b.rmw_pair && a.reduction == b.reduction && a.pfence == b.pfence &&
         a.fspace == b.fspace && a.async_op == b.async_op && a.bar == b.bar && a.bar_id == b.bar_id &&
         a.bar_count == b.bar_count && a.label == b.label;
}

bool same_trace(const Trace& a, const Trace& b) {
  if (a.events.size() != b.events.size() || a.addr != b.addr || a.data != b.data || a.ctrl != b.ctrl ||
      a.regs != b.regs || a.async_ops.size() != b.async_ops.size() || a.waits.size() != b.waits.size() ||
      a.colls.size() != b.colls.size())
    return false;
  for (size_t i = 0; i < a.colls.size(); ++i) {
    const auto &x = a.colls[i], &y = b.colls[i];
    if (x.pc != y.pc || x.mask != y.mask || x.lane != y.lane || x.a != y.a || x.b != y.b || x.c != y.c ||
        x.d0 != y.d0 || x.d1 != y.d1 || x.a_deps != y.a_deps || x.blocked != y.blocked)
      return false;
  }
  for (size_t i = 0; i < a.events.size(); ++i)
    if (!same_event(a.events[i], b.events[i])) return false;
  for (size_t i = 0; i < a.async_ops.size(); ++i) {
    const auto &x = a.async_ops[i], &y = b.async_ops[i];
    if (x.kind != y.kind || x.issued_after != y.issued_after || x.mem != y.mem || x.fence != y.fence ||
        x.complete_tx != y.complete_tx)
      return false;
  }
  for (size_t i = 0; i < a.waits.size(); ++i) {
    const auto &x = a.waits[i], &y = b.waits[i];
    if (x.op != y.op || x.before != y.before || x.reads_only != y.reads_only) return false;
  }
  return true;
}

// The placement predicates the model reads (mm::scope_includes, barrier
// instances, scta): same CTA, same cluster scope, same GPU.
std::array<bool, 3> placement(const mm::ThreadPlace& a, const mm::ThreadPlace& b) {
  const bool gpu = a.gpu == b.gpu, cta = gpu && a.cta == b.cta;
  return {cta, gpu && (a.cluster == b.cluster || a.cta == b.cta), gpu};
}

// Symmetry classes (docs/model-notes.md, "Symmetry between identical
// threads"): threads i and j are interchangeable when they have the same
// register names and the same traces in the same order (the same code,
// run alone), and swapping them preserves every placement predicate with
// every thread (the transposition is an automorphism of the scope tree).
// Transpositions that are automorphisms compose, so this is an equivalence.
// Returns, per thread, the previous thread of its class, or -1.
std::vector<int> symmetry_prev(const Program& p, const TraceSet& ts) {
  const size_t n = p.threads.size();
  auto swap_ok = [&](size_t i, size_t j) {
    auto img = [&](size_t t) { return t == i ? j : t == j ? i : t; };
    for (size_t a = 0; a < n; ++a)
      for (size_t b = 0; b < n; ++b)
        if (placement(p.threads[a].place, p.threads[b].place) !=
            placement(p.threads[img(a)].place, p.threads[img(b)].place))
          return false;
    return true;
  };
  std::vector<int> rep(n), prev(n, -1);
  for (size_t t = 0; t < n; ++t) {
    rep[t] = static_cast<int>(t);
    for (size_t r = 0; r < t; ++r) {
      if (rep[r] != static_cast<int>(r)) continue;
      const auto &a = ts.threads[r].traces, &b = ts.threads[t].traces;
      if (p.threads[r].regs != p.threads[t].regs || a.size() != b.size() || !swap_ok(r, t)) continue;
      bool same = true;
      for (size_t k = 0; k < a.size() && same; ++k) same = same_trace(a[k], b[k]);
      if (!same) continue;
      rep[t] = static_cast<int>(r);
      break;
    }
    for (size_t u = t; u-- > 0;)
      if (rep[u] == rep[t]) {
        prev[t] = static_cast<int>(u);
        break;
      }
  }
  return prev;
}

// The distinct rearrangements of a canonical combination (trace indices
// non-decreasing within each class): every permutation of the indices
// within each class, each distinct index vector once; the first is the
// combination itself, the lexicographically smallest of them.
class Orbit {
 public:
  Orbit(const std::vector<int>& prev, const std::vector<size_t>& idx) : idx_(idx) {
    for (size_t t = 0; t < prev.size(); ++t)
      if (prev[t] < 0) {
        std::vector<size_t> members{t};
        for (size_t u = t + 1; u < prev.size(); ++u)
          if (prev[u] >= 0 && static_cast<size_t>(prev[u]) == members.back()) members.push_back(u);
        if (members.size() > 1) classes_.push_back(std::move(members));
      }
  }
  const std::vector<size_t>& current() const { return idx_; }
  bool next() {
    for (size_t c = classes_.size(); c-- > 0;) {
      std::vector<size_t> v;
      for (size_t t : classes_[c]) v.push_back(idx_[t]);
      const bool more = std::next_permutation(v.begin(), v.end());  // wraps to sorted when done
      for (size_t k = 0; k < v.size(); ++k) idx_[classes_[c][k]] = v[k];
      if (more) return true;
    }
    return false;
  }

 private:
  std::vector<size_t> idx_;
  std::vector<std::vector<size_t>> classes_;
};

}  // namespace

CheckResult check(const Program& p, mm::Engine& engine, const CheckOptions& opt) {
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  CheckResult res;
  TraceSet ts = build_traces(p, opt.traces);
  res.bound_hit = ts.bound_hit();
  auto obs = observed(p);
  std::map<std::string, StateCount> states;

  size_t n = p.threads.size();
  for (const auto& t : ts.threads)
    if (t.traces.empty()) n = 0;  // some thread never terminates: no execution
  const bool observes_location = std::any_of(obs.begin(), obs.end(), [](const ObsVar& v) { return !v.is_reg; });
  const std::vector<int> prev = opt.symmetry ? symmetry_prev(p, ts) : std::vector<int>(p.threads.size(), -1);
  auto pick_of = [&](const std::vector<size_t>& idx) {
    std::vector<const Trace*> pick(p.threads.size());
    for (size_t t = 0; t < pick.size(); ++t) pick[t] = &ts.threads[t].traces[idx[t]];
    return pick;
  };
  auto loc_final_of = [&](const mm::Skeleton& sk, const mm::Execution& ex) {
    return p.final_values(sk.events, ex.final_write);
  };
  const bool mixed = !p.splits.empty();
  std::set<std::pair<std::pair<int, int>, std::pair<int, int>>> races_seen;
  // herd style: "1:r0=1; x=2;"
  auto state_text = [&](const std::vector<const Trace*>& pk, const std::vector<uint64_t>& loc_final) {
    std::string text;
    for (const auto& v : obs) {
      const uint64_t x = v.is_reg ? pk[v.thread]->regs[v.index] : loc_final[v.index];
      text += v.name + "=" + std::to_string(signed_value(x, v.is_reg ? 8 : p.locations[v.index].size)) + "; ";
    }
    if (!text.empty()) text.pop_back();
    return text;
  };
  // The executions of a skeleton that read what its traces guessed.
  auto guessed = [](const mm::Skeleton& sk, const mm::Execution& ex) {
    for (size_t e = 0; e < sk.events.size(); ++e) {
      if (sk.events[e].kind != mm::EventKind::Read) continue;
      int w = ex.rf[e];
      if (w < 0 || sk.events[w].value != sk.events[e].value) return false;  // not this trace's guess
    }
    return true;
  };
  // The witnesses are those of the combination first in odometer order
  // (lexicographic), the first execution the engine gives there; with
  // symmetry that combination may be a rearrangement, whose witness is
  // computed at the end.
  std::optional<std::vector<size_t>> best[2];
  bool best_missing[2] = {false, false};

  const ValueNeeds value_needs(p, ts);
  std::vector<size_t> idx(p.threads.size(), 0), cur;
  bool more = n > 0 || p.threads.empty();
  while (more) {
    cur = idx;
    // Next canonical combination: lexicographic odometer, each thread of a
    // symmetry class at least its class predecessor.
    more = false;
    for (size_t t = idx.size(); t-- > 0;) {
      if (++idx[t] < ts.threads[t].traces.size()) {
        more = true;
        for (size_t u = t + 1; u < idx.size(); ++u) idx[u] = prev[u] >= 0 ? idx[prev[u]] : 0;
        break;
      }
    }
    if (!value_needs.feasible(cur)) continue;
    const std::vector<const Trace*> pick = pick_of(cur);
    CollMatch cm;
    if (has_colls(pick)) {
      cm = match_colls(p, pick);
      if (cm.status == CollMatch::Infeasible) continue;
    }
    if (opt.limits.timeout_s > 0 && elapsed() > opt.limits.timeout_s)
      throw LimitError("timeout after " + std::to_string(opt.limits.timeout_s) + " s");
    mm::Skeleton sk = make_skeleton(p, pick);
    ++res.skeletons;
    mm::Limits lim = opt.limits;
    if (lim.timeout_s > 0) lim.timeout_s = std::max(0.001, lim.timeout_s - elapsed());
    std::vector<std::vector<uint64_t>> finals;  // per execution read as guessed
    bool found[2] = {false, false};
    bool anomalous = false;
    auto account = [&](const std::vector<const Trace*>& pk, const std::vector<uint64_t>& loc_final) {
      bool sat = eval_cond(p.test->cond, p, pk, loc_final);
      std::string text = state_text(pk, loc_final);
      auto& sc = states[text];
      sc.text = text;
      ++sc.count;
      sc.satisfies = sat;
      ++res.executions;
      (sat ? res.positive : res.negative) += 1;
      return std::make_pair(sat, text);
    };
    std::optional<MixedSize> ms;
    if (mixed) ms.emplace(pick, sk, opt.model);
    engine.enumerate(sk, opt.model, lim, [&](const mm::Execution& ex) {
      if (!guessed(sk, ex)) return true;
      if (ms && !ms->whole(ex)) return true;
      if (ms && res.mixed_races.size() < kMaxMixedRaces)
        if (auto r = ms->race(ex)) {
          std::pair<int, int> a{r->a.thread, r->a.instr}, b{r->b.thread, r->b.instr};
          if (b < a) std::swap(a, b);
          if (races_seen.insert({a, b}).second) res.mixed_races.push_back(*r);
        }
      if (cm.status == CollMatch::Anomaly) {
        anomalous = true;
        return false;
      }
      std::vector<uint64_t> loc_final = loc_final_of(sk, ex);
      auto [sat, text] = account(pick, loc_final);
      if (!found[sat] && (!best[sat] || cur < *best[sat])) {
        best[sat] = cur;
        best_missing[sat] = false;
        (sat ? res.positive_witness : res.negative_witness) = Witness{sk, ex, text};
      }
      found[sat] = true;
      finals.push_back(std::move(loc_final));
      return opt.count_executions || observes_location || mixed;
    });
    // The combination has an execution but its collectives are not modelled.
    if (anomalous) throw InputError(p.test->file, cm.pos, cm.message);
    if (finals.empty()) continue;
    // The rearrangements of this combination: the same executions, with the
    // interchanged threads' registers exchanged (docs/model-notes.md).
    Orbit orbit(prev, cur);
    while (orbit.next()) {
      const std::vector<const Trace*> pk = pick_of(orbit.current());
      bool seen[2] = {false, false};
      for (const auto& lf : finals) seen[account(pk, lf).first] = true;
      for (int sat = 0; sat < 2; ++sat)
        if (seen[sat] && (!best[sat] || orbit.current() < *best[sat])) {
          best[sat] = orbit.current();
          best_missing[sat] = true;
        }
    }
  }
  for (int sat = 0; sat < 2; ++sat) {
    if (!best_missing[sat]) continue;
    const std::vector<const Trace*> pk = pick_of(*best[sat]);
    mm::Skeleton sk = make_skeleton(p, pk);
    std::optional<MixedSize> ms;
    if (mixed) ms.emplace(pk, sk, opt.model);
    engine.enumerate(sk, opt.model, opt.limits, [&](const mm::Execution& ex) {
      if (!guessed(sk, ex)) return true;
      if (ms && !ms->whole(ex)) return true;
      const std::vector<uint64_t> lf = loc_final_of(sk, ex);
      if (eval_cond(p.test->cond, p, pk, lf) != static_cast<bool>(sat)) return true;
      (sat ? res.positive_witness : res.negative_witness) = Witness{sk, ex, state_text(pk, lf)};
      return false;
    });
  }
  for (auto& [k, v] : states) res.states.push_back(v);
  switch (p.test->quant) {
    case Quant::Exists: res.ok = res.positive > 0; break;
    case Quant::NotExists: res.ok = res.positive == 0; break;
    case Quant::Forall: res.ok = res.negative == 0; break;
  }
  return res;
}

}  // namespace ptxcheck::litmus
