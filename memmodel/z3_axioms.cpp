// The axioms of PTX ISA 8.10 (and of SC) over the encoding of
// z3_encode.cpp, and decoding of models; see z3_encode.hpp.
#include <algorithm>
#include <string>

#include "memmodel/z3_encode.hpp"

namespace ptxcheck::mm::z3e {

// Acyclicity by integer ranks: every edge goes to a strictly larger rank.
void Encoding::acyclic(const std::vector<std::pair<int, int>>& static_edges,
                       const std::vector<std::tuple<z3::expr, int, int>>& dyn_edges,
                       const char* name) {
  std::vector<std::optional<z3::expr>> t(n_);
  auto rank = [&](int e) -> z3::expr {
    if (!t[e]) t[e] = ctx_.int_const((std::string(name) + std::to_string(e)).c_str());
    return *t[e];
  };
  for (auto [a, b] : static_edges) s_.add(rank(a) < rank(b));
  for (const auto& [c, a, b] : dyn_edges)
    if (!c.is_false()) s_.add(z3::implies(c, rank(a) < rank(b)));
}

void Encoding::encode_axioms() {
  // PTX ISA 8.10.1 Coherence: causality between writes to one location
  // implies coherence (a causality cycle on a write is a violation), and
  // (8.9.6, Dat3M's axiom-Coherence2) morally strong writes are ordered.
  for (int a : f_.writes)
    for (int b : f_.writes) {
      if (!f_.loc(a, b) || f_.init[b] || f_.init[a]) continue;
      z3::expr c = cause(a, b);
      if (!c.is_false()) s_.add(z3::implies(c, co(a, b)));
      if (a < b && f_.ms(a, b)) s_.add(co(a, b) || co(b, a));
    }
  // PTX ISA 8.10.2 Fence-SC: causality between fence.sc lies in Fence-SC sync.
  for (int a = 0; a < n_; ++a)
    for (int b = 0; b < n_; ++b)
      if (f_.sc_fence[a] && f_.sc_fence[b]) {
        z3::expr c = cause(a, b);
        if (!c.is_false()) s_.add(z3::implies(c, sf(a, b)));
      }
  // PTX ISA 8.10.3 Atomicity: ((ms & fr); (ms & co)) & rmw is empty.
  for (auto [r, w] : f_.rmw)
    for (int w2 : f_.writes)
      if (w2 != w && f_.loc(r, w2) && f_.ms(r, w2) && f_.ms(w2, w))
        s_.add(!(fr(r, w2) && co(w2, w)));
  // PTX ISA 8.10.5 Sequential Consistency Per Location:
  // acyclic ((ms & (rf | co | fr)) | po-overlap).
  if (f_.sc_per_loc) {
    std::vector<std::pair<int, int>> poloc;
    std::vector<std::tuple<z3::expr, int, int>> comm;
    for (int a = 0; a < n_; ++a)
      for (int b = 0; b < n_; ++b) {
        if (f_.spl_overlap(a, b)) poloc.emplace_back(a, b);
        if (a == b || !f_.loc(a, b) || !f_.ms(a, b)) continue;
        if (f_.W[a] && f_.R[b]) comm.emplace_back(rf(a, b), a, b);
        if (f_.W[a] && f_.W[b]) comm.emplace_back(co(a, b), a, b);
        if (f_.R[a] && f_.W[b]) comm.emplace_back(fr(a, b), a, b);
      }
    acyclic(poloc, comm, "spl");
  }
  // PTX ISA 8.10.6 Causality: irreflexive ((rf | fr); cause).
  for (int r : f_.reads) {
    for (int w : f_.rf_cands[r]) {
      z3::expr c = cause(r, w);
      if (!c.is_false()) s_.add(z3::implies(rf(w, r), !c));
    }
    for (int w : f_.writes)
      if (f_.loc(r, w) && !f_.init[w]) {
        z3::expr x = fr(r, w);
        if (x.is_false()) continue;
        z3::expr c = cause(w, r);
        if (!c.is_false()) s_.add(z3::implies(x, !c));
      }
  }
  no_thin_air();
}

// PTX ISA 8.10.4 No Thin Air: acyclic (rf | dep).
void Encoding::no_thin_air() {
  std::vector<std::pair<int, int>> deps;
  for (int a = 0; a < n_; ++a)
    for (int b = 0; b < n_; ++b)
      if (f_.dep(a, b)) deps.emplace_back(a, b);
  if (deps.empty()) return;  // rf alone (W -> R) has no cycle
  std::vector<std::tuple<z3::expr, int, int>> rfs;
  for (int r : f_.reads)
    for (int w : f_.rf_cands[r]) rfs.emplace_back(rf(w, r), w, r);
  acyclic(deps, rfs, "nta");
}

// Engines enumerate minimal coherence orders only (relations.hpp): co is
// the closure of init-first, causality and one orientation per morally
// strong pair, so every co edge that is neither must have a co-path
// through a third write (the covering edges of co are all justified).
void Encoding::encode_minimal_co() {
  for (const auto& ws : f_.loc_writes)
    for (int a : ws)
      for (int b : ws) {
        if (a == b || f_.init[a] || f_.init[b] || f_.ms(a, b)) continue;
        z3::expr_vector why(ctx_);
        z3::expr c = cause(a, b);
        if (!c.is_false()) why.push_back(c);
        for (int m : ws)
          if (m != a && m != b && !f_.init[m]) why.push_back(co(a, m) && co(m, b));
        s_.add(z3::implies(co(a, b), z3::mk_or(why)));
      }
}

// Sequential consistency: acyclic (po | rf | co | fr), and an atomic's read
// and write are adjacent in coherence: rmw & (fr; co) is empty.
void Encoding::encode_sc() {
  std::vector<std::pair<int, int>> po;
  std::vector<std::tuple<z3::expr, int, int>> comm;
  for (int a = 0; a < n_; ++a)
    for (int b = 0; b < n_; ++b) {
      if (f_.po(a, b) || f_.issue(a, b)) po.emplace_back(a, b);  // with the async ordering (8.9.1.1)
      if (a == b || !f_.loc(a, b)) continue;
      if (f_.W[a] && f_.R[b]) comm.emplace_back(rf(a, b), a, b);
      if (f_.W[a] && f_.W[b]) comm.emplace_back(co(a, b), a, b);
      if (f_.R[a] && f_.W[b]) comm.emplace_back(fr(a, b), a, b);
    }
  acyclic(po, comm, "sc");
  for (auto [r, w] : f_.rmw)
    for (int w2 : f_.writes)
      if (w2 != w && f_.loc(r, w2)) s_.add(!(fr(r, w2) && co(w2, w)));
  no_thin_air();
}

Candidate Encoding::decode(const z3::model& m) const {
  Candidate c;
  c.rf.assign(n_, -1);
  c.co = Mat(n_);
  c.fsc.assign(n_, -1);
  for (int r : f_.reads)
    for (int w : f_.rf_cands[r])
      if (m.eval(rf(w, r), true).is_true()) c.rf[r] = w;
  for (const auto& ws : f_.loc_writes)
    for (int a : ws)
      for (int b : ws)
        if (a != b && m.eval(co(a, b), true).is_true()) c.co.set(a, b);
  // Ranks are any integers; normalise them to positions 0..k-1 (ties, which
  // only unordered fences can have, broken by event id).
  std::vector<std::pair<int, int>> ranked;
  for (int a : f_.sc_fences)
    if (rank_[a]) ranked.emplace_back(m.eval(*rank_[a], true).get_numeral_int(), a);
  std::sort(ranked.begin(), ranked.end());
  for (size_t i = 0; i < ranked.size(); ++i) c.fsc[ranked[i].second] = int(i);
  c.final_write.assign(f_.loc_writes.size(), -1);
  for (size_t l = 0; l < f_.loc_writes.size(); ++l)
    for (int w : f_.loc_writes[l])
      if (f_.init[w] ? c.final_write[l] < 0 : (fw_[w] && m.eval(*fw_[w], true).is_true()))
        c.final_write[l] = w;
  return c;
}

z3::expr Encoding::blocking_clause(const z3::model& m) const {
  z3::expr_vector diff(ctx_);
  for (const Primary& p : primary_) diff.push_back(m.eval(p.v, true).is_true() ? !p.v : p.v);
  return z3::mk_or(diff);
}

z3::expr Encoding::exclusion_clause(const Candidate& c) const {
  z3::expr_vector diff(ctx_);
  for (const Primary& p : primary_) {
    const bool val = p.kind == 'r'   ? c.rf[p.b] == p.a
                     : p.kind == 'c' ? c.co(p.a, p.b)
                                     : c.final_write[f_.phys[p.a]] == p.a;
    diff.push_back(val ? !p.v : p.v);
  }
  return z3::mk_or(diff);
}

}  // namespace ptxcheck::mm::z3e
