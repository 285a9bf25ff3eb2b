// Explicit evaluation of the model on one candidate; see z3_oracle.hpp.
// Relations follow Dat3M's ptx-v7.5.cat (PTX75) and ptx-v6.0.cat (PTX6).
#include "memmodel/z3_oracle.hpp"

#include <algorithm>

namespace ptxcheck::mm::z3e {
namespace {

bool has_cycle(const Mat& r) {
  Mat c = r;
  close(c);
  for (int i = 0; i < c.n; ++i)
    if (c(i, i)) return true;
  return false;
}

// PTX ISA 8.9.2 Observation order: msrf; (rmw; msrf)* when observation
// continues through RMW chains, else Dat3M v7.5's (ms & rf) | rmw.
Mat observation(const Facts& f, const Mat& rf) {
  Mat obs(f.n);
  for (int r : f.reads)
    for (int w : f.writes)
      if (rf(w, r) && f.ms(w, r)) obs.set(w, r);
  if (f.obs_rmw) {
    for (bool changed = true; changed;) {
      changed = false;
      for (auto [r1, w1] : f.rmw)
        for (int w : f.writes)
          for (int r : f.reads)
            if (!obs(w, r) && obs(w, r1) && rf(w1, r) && f.ms(w1, r)) obs.set(w, r), changed = true;
    }
  } else {
    for (auto [r, w] : f.rmw) obs.set(r, w);
  }
  return obs;
}

// PTX ISA 8.9.5 proxy-preserved base causality order (Dat3M v7.5 form):
// vloc & left; cb; right | same-proxy & scta & vloc & cb | loc & left; cb;
// [alias]; cb; right, with left = [GEN] | (cb & pfo^-1), right = [GEN] | (cb & pfo).
Mat proxy_preserved(const Facts& f, const Mat& cb) {
  const int n = f.n;
  std::vector<std::vector<int>> start(n), end(n);
  for (int x = 0; x < n; ++x) {
    if (!f.M[x]) continue;
    if (f.gen[x]) start[x].push_back(x), end[x].push_back(x);
    for (int g = 0; g < n; ++g)
      if (f.pfo(g, x)) {
        if (cb(x, g)) start[x].push_back(g);
        if (cb(g, x)) end[x].push_back(g);
      }
  }
  Mat pp(n);
  for (int x = 0; x < n; ++x)
    for (int y = 0; y < n; ++y) {
      if (!f.loc(x, y)) continue;
      bool ok = f.vloc(x, y) && f.same_proxy(x, y) && f.scta(x, y) && cb(x, y);
      for (int s : start[x])
        for (int e : end[y]) {
          if (f.vloc(x, y) && cb(s, e)) ok = true;
          for (int a = 0; a < n && !ok; ++a)
            if (f.alias_fence[a] && cb(s, a) && cb(a, e)) ok = true;
        }
      if (ok) pp.set(x, y);
    }
  return pp;
}

Mat rf_mat(const Facts& f, const Candidate& c) {
  Mat rf(f.n);
  for (int r : f.reads)
    if (c.rf[r] >= 0) rf.set(c.rf[r], r);
  return rf;
}

}  // namespace

Mat oracle_cause(const Facts& f, const Candidate& c) {
  const int n = f.n;
  const Mat rf = rf_mat(f, c);
  const Mat obs = observation(f, rf);
  Mat sw = f.sb;  // synchronizes-with (PTX ISA 8.9.4)
  for (auto [x, w] : f.relpat)
    for (auto [r, y] : f.acqpat)
      if (obs(w, r) && f.ms(x, y)) sw.set(x, y);
  for (int a : f.sc_fences)
    for (int b : f.sc_fences)
      if (f.sfpair(a, b) && c.fsc[a] < c.fsc[b]) sw.set(a, b);
  // Base causality: po | po?; (sw; po?)+ (PTX6: without the bare po).
  Mat swpo = sw;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (sw(a, b))
        for (int d = 0; d < n; ++d)
          if (f.po(b, d)) swpo.set(a, d);
  close(swpo);
  Mat cb = swpo;
  for (int x = 0; x < n; ++x)
    for (int a = 0; a < n; ++a)
      if (f.po(x, a))
        for (int y = 0; y < n; ++y)
          if (swpo(a, y)) cb.set(x, y);
  if (f.kind != ModelKind::PTX6)
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b)
        if (f.po(a, b)) cb.set(a, b);
  // 8.9.1.1 issue edges: cb?; issue, not continued (relations.cpp).
  {
    const Mat core = cb;
    for (int z = 0; z < n; ++z)
      for (int y = 0; y < n; ++y)
        if (f.issue(z, y)) {
          cb.set(z, y);
          for (int x = 0; x < n; ++x)
            if (core(x, z)) cb.set(x, y);
        }
  }
  Mat cause(n);
  const Mat tail = f.kind == ModelKind::PTX6 ? cb : proxy_preserved(f, cb);
  cause = tail;
  for (int x = 0; x < n; ++x)
    for (int z = 0; z < n; ++z)
      if (obs(x, z))
        for (int y = 0; y < n; ++y)
          if (tail(z, y) || (f.kind == ModelKind::PTX6 && f.poloc(z, y))) cause.set(x, y);
  return cause;
}

bool oracle_co_minimal(const Facts& f, const Candidate& c) {
  Mat base(f.n);
  const Mat cause = f.kind == ModelKind::SC ? Mat(f.n) : oracle_cause(f, c);
  for (int a : f.writes)
    for (int b : f.writes) {
      if (a == b || !f.loc(a, b)) continue;
      if (f.init[a] && !f.init[b]) base.set(a, b);
      if (f.init[a] || f.init[b]) continue;
      if (cause(a, b) || ((f.co_total || f.ms(a, b)) && c.co(a, b))) base.set(a, b);
    }
  close(base);
  return base.bits == c.co.bits;
}

std::vector<std::string> oracle_violations(const Facts& f, const Candidate& c) {
  const int n = f.n;
  std::vector<std::string> out;
  const Mat rf = rf_mat(f, c);
  Mat fr(n);
  for (int r : f.reads)
    for (int w : f.writes)
      if (c.rf[r] >= 0 && c.co(c.rf[r], w)) fr.set(r, w);
  // PTX ISA 8.10.4 No Thin Air: acyclic (rf | dep).
  Mat rd = f.dep;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (rf(a, b)) rd.set(a, b);
  if (has_cycle(rd)) out.push_back("No-Thin-Air (PTX ISA 8.10.4)");

  if (f.kind == ModelKind::SC) {
    Mat hb = f.po;  // with the async ordering (8.9.1.1)
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b)
        if (f.issue(a, b)) hb.set(a, b);
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b)
        if (rf(a, b) || c.co(a, b) || fr(a, b)) hb.set(a, b);
    bool atom = false;
    for (auto [r, w] : f.rmw)
      for (int w2 : f.writes)
        if (fr(r, w2) && c.co(w2, w)) atom = true;
    if (has_cycle(hb) || atom) out.push_back("Sequential consistency (one total order)");
    return out;
  }
  const Mat cause = oracle_cause(f, c);
  // PTX ISA 8.10.1 Coherence (+ 8.9.6: morally strong writes are ordered).
  bool coh = false;
  for (int a : f.writes)
    for (int b : f.writes)
      if (f.loc(a, b) && ((cause(a, b) && !c.co(a, b)) ||
                          (f.ms(a, b) && !c.co(a, b) && !c.co(b, a))))
        coh = true;
  if (coh) out.push_back("Coherence (PTX ISA 8.10.1)");
  // PTX ISA 8.10.2 Fence-SC: cause between fence.sc lies in Fence-SC sync.
  bool fsc = false;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (f.sc_fence[a] && f.sc_fence[b] && cause(a, b) &&
          !(f.sfpair(a, b) && c.fsc[a] >= 0 && c.fsc[b] >= 0 && c.fsc[a] < c.fsc[b]))
        fsc = true;
  if (fsc) out.push_back("Fence-SC (PTX ISA 8.10.2)");
  // PTX ISA 8.10.3 Atomicity: ((ms & fr); (ms & co)) & rmw is empty.
  bool atom = false;
  for (auto [r, w] : f.rmw)
    for (int w2 : f.writes)
      if (f.ms(r, w2) && fr(r, w2) && f.ms(w2, w) && c.co(w2, w)) atom = true;
  if (atom) out.push_back("Atomicity (PTX ISA 8.10.3)");
  // PTX ISA 8.10.5: acyclic ((ms & (rf | co | fr)) | po-overlap).
  if (f.sc_per_loc) {
    Mat sl = f.spl_overlap;
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b)
        if (f.ms(a, b) && (rf(a, b) || c.co(a, b) || fr(a, b))) sl.set(a, b);
    if (has_cycle(sl)) out.push_back("SC-per-Location (PTX ISA 8.10.5)");
  }
  // PTX ISA 8.10.6 Causality: irreflexive ((rf | fr); cause).
  bool caus = false;
  for (int a = 0; a < n && !caus; ++a)
    for (int b = 0; b < n; ++b)
      if ((rf(a, b) || fr(a, b)) && cause(b, a)) caus = true;
  if (caus) out.push_back("Causality (PTX ISA 8.10.6)");
  return out;
}

bool oracle_consistent_some_fsc(const Facts& f, Candidate& c) {
  std::vector<int> order = f.sc_fences;
  c.fsc.assign(f.n, -1);
  do {
    for (size_t i = 0; i < order.size(); ++i) c.fsc[order[i]] = int(i);
    if (oracle_violations(f, c).empty()) return true;
  } while (std::next_permutation(order.begin(), order.end()));
  return false;
}

}  // namespace ptxcheck::mm::z3e
