// Execution-dependent relations of PTX ISA 9.2 section 8.9 (relations.hpp).
#include "memmodel/relations.hpp"

namespace ptxcheck::mm {

Relation rf_relation(const StaticRelations& st, const std::vector<int>& rf) {
  Relation r(st.n);
  for (int e = 0; e < static_cast<int>(rf.size()); ++e)
    if (rf[e] >= 0) r.add(rf[e], e);
  return r;
}

// 8.9.2: W precedes R if (1) they are morally strong and R reads from W, or
// (2) W precedes an atomic Z and Z precedes R, i.e. msrf; (rmw; msrf)*.
Relation observation(const StaticRelations& st, const Model& m, const Relation& rf) {
  const Relation msrf = st.ms & rf;
  if (!m.observation_through_rmw) return msrf | st.rmw;  // Dat3M ptx-v7.5.cat
  return msrf | msrf.compose(st.rmw.compose(msrf).plus());
}

Relation release_acquire_sync(const StaticRelations& st, const Relation& obs) {
  return st.ms & st.release_pattern.compose(obs).compose(st.acquire_pattern);
}

Relation fence_sc_sync(const StaticRelations& st, const std::vector<int>& fsc) {
  Relation r(st.n);
  for (size_t i = 0; i < fsc.size(); ++i)
    for (size_t j = i + 1; j < fsc.size(); ++j)
      if (st.sc_fence_pairs.has(fsc[i], fsc[j])) r.add(fsc[i], fsc[j]);
  return r;
}

// 8.9.5 items 1-3: po, sw, and their compositions; po?; (sw; po?)+ is the
// closure of the composition rules 3.1-3.3 over at least one sw edge. The
// ordering of asynchronous operations (8.9.1.1, st.async_order) composes
// like po; the issue edges (st.async_issue) end a path: an operation is
// ordered after prior instructions, but its complete-tx "does not
// transitively establish ordering with respect to prior instructions from
// the issuing thread" (8.9.1.1).
Relation base_causality(const StaticRelations& st, const Model& m, const Relation& sw) {
  const Relation po_opt = st.ord.optional();
  Relation cb = po_opt.compose(sw.compose(po_opt).plus());
  if (m.kind != ModelKind::PTX6) cb |= st.ord;  // 8.9.5 item 1 (Dat3M v6.0 drops it)
  if (!st.async_issue.empty()) cb |= cb.optional().compose(st.async_issue);
  return cb;
}

// 8.9.5 proxy-preserved base causality, in Dat3M's v7.5 formulation:
//   1. X, Y to the same (virtual) address via the generic proxy;
//   2. same address, same proxy, same thread block;
//   3. X, Y aliases with an alias proxy fence on the path;
// where proxy fences on the path let a non-generic access stand in for a
// generic one (proxy-fence-ops: a fence of the access's proxy, same CTA).
Relation proxy_preserved(const StaticRelations& st, const Relation& cb) {
  const Relation id_gen = Relation::identity(st.generic);
  const Relation a = cb & st.proxy_fence_ops.inverse();  // X -> fence of X's proxy
  const Relation b = cb & st.proxy_fence_ops;            // fence of Y's proxy -> Y
  const Relation left = id_gen | a;
  const Relation right = id_gen | b;
  Relation r = st.vloc & left.compose(cb).compose(right);
  r |= (st.same_proxy & st.scta & st.vloc & cb).restrict(st.mem, st.mem);
  if (!st.alias_fences.empty()) {
    const Relation via_alias = left.compose(cb.range_restrict(st.alias_fences)).compose(cb).compose(right);
    r |= st.loc & via_alias;
  }
  return r;
}

Relation causality(const StaticRelations& st, const Model& m, const Relation& obs, const Relation& cb) {
  if (m.kind == ModelKind::PTX6) {
    const Relation poloc = st.po & st.loc;
    return cb | obs.compose(cb | poloc);
  }
  const Relation pp = proxy_preserved(st, cb);
  return pp | obs.compose(pp);
}

CauseInfo compute_cause(const StaticRelations& st, const Model& m, const std::vector<int>& rf,
                        const std::vector<int>& fsc, size_t bar) {
  return compute_cause_sync(st, m, rf, fence_sc_sync(st, fsc), bar);
}

CauseInfo compute_cause_sync(const StaticRelations& st, const Model& m, const std::vector<int>& rf,
                             const Relation& sync_fence, size_t bar) {
  CauseInfo c;
  c.rf = rf_relation(st, rf);
  c.obs = observation(st, m, c.rf);
  c.sync = release_acquire_sync(st, c.obs);
  c.sync_fence = sync_fence;
  c.cause_base = base_causality(st, m, c.sync | c.sync_fence | (bar == kBarrierCommon ? st.sync_barrier : st.sync_barrier_choices[bar]));
  c.cause = causality(st, m, c.obs, c.cause_base);
  return c;
}

Relation forced_coherence(const Skeleton& s, const StaticRelations& st, const Relation& cause) {
  Relation co = (cause & st.loc).restrict(st.writes - st.init, st.writes - st.init);
  for (int i : st.init.elements())
    for (int w : (st.writes - st.init).elements())
      if (s.physical(i) == s.physical(w)) co.add(i, w);
  return co.plus();
}

std::vector<std::pair<int, int>> must_order_pairs(const StaticRelations& st, const Model& m) {
  std::vector<std::pair<int, int>> out;
  const std::vector<int> ws = (st.writes - st.init).elements();
  for (size_t i = 0; i < ws.size(); ++i)
    for (size_t j = i + 1; j < ws.size(); ++j) {
      const int a = ws[i], b = ws[j];
      if (!st.loc.has(a, b)) continue;
      if (m.kind == ModelKind::SC || st.ms.has(a, b)) out.emplace_back(a, b);
    }
  return out;
}

namespace {

// Adds (a,b) to a transitive relation and keeps it transitive.
Relation add_closed(const Relation& r, int a, int b) {
  Relation out = r;
  EventSet before = r.inverse().successors(a);  // cheap enough for tens of writes
  before.set(a);
  EventSet after = r.successors(b);
  after.set(b);
  for (int x : before.elements())
    for (int y : after.elements()) out.add(x, y);
  return out;
}

bool enum_co(const Relation& r, const std::vector<std::pair<int, int>>& pairs, size_t from,
             const std::function<bool(const Relation&)>& visit, const std::function<bool(const Relation&)>& prune) {
  size_t i = from;
  while (i < pairs.size() && (r.has(pairs[i].first, pairs[i].second) || r.has(pairs[i].second, pairs[i].first)))
    ++i;
  if (i == pairs.size()) return visit(r);
  const auto [a, b] = pairs[i];
  for (int dir = 0; dir < 2; ++dir) {
    const Relation next = dir == 0 ? add_closed(r, a, b) : add_closed(r, b, a);
    if (!next.irreflexive() || (prune && !prune(next))) continue;
    if (!enum_co(next, pairs, i + 1, visit, prune)) return false;
  }
  return true;
}

bool enum_co_opt(const Relation& r, const std::vector<std::pair<int, int>>& pairs,
                 const std::vector<OptionalPair>& optional, size_t from,
                 const std::function<bool(const Relation&)>& visit, const std::function<bool(const Relation&)>& prune) {
  size_t i = from;
  auto related = [&](int a, int b) { return r.has(a, b) || r.has(b, a); };
  while (i < pairs.size() && related(pairs[i].first, pairs[i].second)) ++i;
  if (i < pairs.size()) {
    const auto [a, b] = pairs[i];
    for (int dir = 0; dir < 2; ++dir) {
      const Relation next = dir == 0 ? add_closed(r, a, b) : add_closed(r, b, a);
      if (!next.irreflexive() || (prune && !prune(next))) continue;
      if (!enum_co_opt(next, pairs, optional, i + 1, visit, prune)) return false;
    }
    return true;
  }
  size_t j = from > pairs.size() ? from - pairs.size() : 0;
  while (j < optional.size() && related(optional[j].a, optional[j].b)) ++j;
  if (j == optional.size()) return visit(r);
  const OptionalPair& o = optional[j];
  const size_t next_from = pairs.size() + j + 1;
  if (!enum_co_opt(r, pairs, optional, next_from, visit, prune)) return false;  // left unordered
  for (int dir = 0; dir < 2; ++dir) {
    if (!(dir == 0 ? o.ab : o.ba)) continue;
    const Relation next = dir == 0 ? add_closed(r, o.a, o.b) : add_closed(r, o.b, o.a);
    if (!next.irreflexive() || (prune && !prune(next))) continue;
    if (!enum_co_opt(next, pairs, optional, next_from, visit, prune)) return false;
  }
  return true;
}

}  // namespace

bool enumerate_coherence_opt(const Relation& forced, const std::vector<std::pair<int, int>>& pairs,
                             const std::vector<OptionalPair>& optional,
                             const std::function<bool(const Relation&)>& visit,
                             const std::function<bool(const Relation&)>& prune) {
  if (!forced.irreflexive() || (prune && !prune(forced))) return true;
  return enum_co_opt(forced, pairs, optional, 0, visit, prune);
}

bool coherence_minimal(const Skeleton& s, const StaticRelations& st, const Model& m, const Relation& cause,
                       const Relation& co) {
  Relation base = forced_coherence(s, st, m.kind == ModelKind::SC ? Relation(st.n) : cause);
  const EventSet w = st.writes - st.init;
  const Relation strong = m.kind == ModelKind::SC ? st.loc : st.ms;
  base |= (strong & co).restrict(w, w);
  return base.plus() == co;
}

bool enumerate_coherence(const Relation& forced, const std::vector<std::pair<int, int>>& pairs,
                         const std::function<bool(const Relation&)>& visit,
                         const std::function<bool(const Relation&)>& prune) {
  if (!forced.irreflexive() || (prune && !prune(forced))) return true;
  return enum_co(forced, pairs, 0, visit, prune);
}

Relation from_reads(const Relation& rf, const Relation& co) { return rf.inverse().compose(co); }

std::vector<std::vector<int>> final_write_candidates(const Skeleton& s, const StaticRelations& st,
                                                     const Relation& co) {
  std::vector<std::vector<int>> out(st.num_physical);
  for (int w : (st.writes - st.init).elements())
    if (co.successors(w).empty()) out[s.physical(w)].push_back(w);
  for (int p = 0; p < st.num_physical; ++p)
    if (out[p].empty() && st.init_of_physical[p] >= 0) out[p].push_back(st.init_of_physical[p]);
  return out;
}

}  // namespace ptxcheck::mm
