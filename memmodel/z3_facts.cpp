// Skeleton-only facts for the Z3 engine, converted from the shared static
// relations (static_relations.hpp); see z3_facts.hpp.
#include "memmodel/z3_facts.hpp"

#include "memmodel/static_relations.hpp"

namespace ptxcheck::mm::z3e {

void close(Mat& m) {
  for (int k = 0; k < m.n; ++k)
    for (int i = 0; i < m.n; ++i)
      if (m(i, k))
        for (int j = 0; j < m.n; ++j)
          if (m(k, j)) m.set(i, j);
}

namespace {

Mat to_mat(const Relation& r) {
  Mat m(r.size());
  for (auto [a, b] : r.pairs()) m.set(a, b);
  return m;
}

std::vector<char> to_vec(const EventSet& s) {
  std::vector<char> v(s.size(), 0);
  for (int e : s.elements()) v[e] = 1;
  return v;
}

}  // namespace

Facts build_facts(const Skeleton& s, const Model& m) { return build_facts(s, build_static(s, m), m); }

Facts build_facts(const Skeleton& s, const StaticRelations& st, const Model& m) {
  Facts f;
  const int n = st.n;
  f.n = n;
  f.kind = m.kind;
  f.co_total = m.kind == ModelKind::SC;  // must_order_pairs: every pair under SC
  f.sc_per_loc = m.kind == ModelKind::PTX6 || m.sc_per_location;
  f.obs_rmw = m.observation_through_rmw;
  f.R = to_vec(st.reads), f.W = to_vec(st.writes), f.M = to_vec(st.mem);
  f.init = to_vec(st.init), f.sc_fence = to_vec(st.sc_fences);
  f.alias_fence = to_vec(st.alias_fences), f.gen = to_vec(st.generic);
  f.phys.assign(n, -1);
  for (int e = 0; e < n; ++e)
    if (f.M[e]) f.phys[e] = s.physical(e);
  f.po = to_mat(st.ord), f.issue = to_mat(st.async_issue), f.vloc = to_mat(st.vloc), f.loc = to_mat(st.loc), f.ms = to_mat(st.ms);
  f.same_proxy = to_mat(st.same_proxy), f.scta = to_mat(st.scta);
  for (const Relation& r : st.sync_barrier_choices) f.sb_choices.push_back(to_mat(r));
  if (f.sb_choices.empty()) f.sb_choices.push_back(to_mat(st.sync_barrier));
  f.sb = f.sb_choices.front();
  f.barrier_hangs = st.barrier_hangs;
  f.pfo = to_mat(st.proxy_fence_ops), f.dep = to_mat(st.dep), f.poloc = to_mat(st.po & st.loc);
  f.spl_overlap = to_mat(st.po & (m.kind == ModelKind::PTX6 ? st.loc : st.vloc));
  f.sfpair = to_mat(st.sc_fence_pairs);
  f.rmw = st.rmw.pairs();
  f.relpat = st.release_pattern.pairs();
  f.acqpat = st.acquire_pattern.pairs();
  f.reads = st.reads.elements();
  f.writes = st.writes.elements();
  for (int a : st.sc_fences.elements())
    if (!st.sc_fence_pairs.successors(a).empty()) f.sc_fences.push_back(a);

  f.loc_writes.assign(st.num_physical, {});
  for (int w : f.writes)
    if (f.init[w]) f.loc_writes[f.phys[w]].push_back(w);
  for (int w : f.writes)
    if (!f.init[w]) f.loc_writes[f.phys[w]].push_back(w);
  f.rf_cands.assign(n, {});
  for (int r : f.reads)
    for (int w : f.writes) {
      const Event& er = s.events[r];
      if (f.phys[w] != f.phys[r] || (s.events[w].value != er.value && !er.any_value && !s.events[w].any_value) || w == er.rmw_pair) continue;
      if (f.init[w] && st.init_of_physical[f.phys[w]] != w) continue;
      f.rf_cands[r].push_back(w);
    }
  return f;
}

}  // namespace ptxcheck::mm::z3e
