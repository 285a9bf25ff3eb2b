// SMT encoding of candidate executions and derived relations; see
// z3_encode.hpp. The axioms are in z3_axioms.cpp.
#include "memmodel/z3_encode.hpp"

namespace ptxcheck::mm::z3e {

Encoding::Encoding(z3::context& ctx, const Facts& f, z3::solver& s)
    : ctx_(ctx), f_(f), s_(s), n_(f.n), T_(ctx.bool_val(true)), F_(ctx.bool_val(false)) {
  const size_t nn = size_t(n_) * n_;
  for (auto* m : {&rf_, &co_, &fr_, &cbf_, &cb_, &cbi_, &pp_, &cause_, &dyn_}) m->assign(nn, std::nullopt);
  rank_.assign(n_, std::nullopt);
  fw_.assign(n_, std::nullopt);
  rmw_levels_.assign(f_.loc_writes.size(), 0);
  for (auto [r, w] : f_.rmw) ++rmw_levels_[f_.phys[r]];
  encode_rf();
  encode_co();
  encode_final();
  if (f_.kind == ModelKind::SC) {
    encode_sc();
    return;
  }
  encode_fsc();
  encode_obs();
  encode_sync();
  encode_axioms();
  encode_minimal_co();
}

// An exact definition: a fresh variable equivalent to the disjunction.
z3::expr Encoding::def(std::vector<z3::expr>& terms, const std::string& name) {
  z3::expr_vector live(ctx_);
  for (auto& t : terms) {
    if (t.is_true()) return T_;
    if (!t.is_false()) live.push_back(t);
  }
  if (live.empty()) return F_;
  if (live.size() == 1) return live[0];
  z3::expr v = ctx_.bool_const(name.c_str());
  s_.add(v == z3::mk_or(live));
  return v;
}

// ---- rf: each read returns the value of exactly one candidate write.
void Encoding::encode_rf() {
  for (int r : f_.reads) {
    const auto& cands = f_.rf_cands[r];
    if (cands.empty()) {
      s_.add(F_);
      continue;
    }
    if (cands.size() == 1) {
      rf_[size_t(cands[0]) * n_ + r] = T_;
      continue;
    }
    z3::expr_vector any(ctx_);
    for (int w : cands) {
      z3::expr v = ctx_.bool_const(key("rf", w, r).c_str());
      rf_[size_t(w) * n_ + r] = v;
      primary_.push_back({v, 'r', w, r});
      any.push_back(v);
    }
    s_.add(z3::mk_or(any));
    for (size_t i = 0; i < cands.size(); ++i)
      for (size_t j = i + 1; j < cands.size(); ++j)
        s_.add(!(rf(cands[i], r) && rf(cands[j], r)));
  }
}

z3::expr Encoding::rf(int w, int r) const {
  const auto& e = rf_[size_t(w) * n_ + r];
  return e ? *e : F_;
}

// ---- co (PTX ISA 8.9.6): a strict partial order per physical location
// (total under SC) as pair variables with explicit transitivity; initial
// writes precede every other write (8.2.6) and are mutually unordered.
void Encoding::encode_co() {
  for (const auto& ws : f_.loc_writes) {
    for (int a : ws)
      for (int b : ws) {
        if (a == b) continue;
        auto& slot = co_[size_t(a) * n_ + b];
        if (f_.init[a] || f_.init[b]) {
          slot = ctx_.bool_val(f_.init[a] && !f_.init[b]);
        } else if (f_.co_total && a > b) {
          slot = !*co_[size_t(b) * n_ + a];
        } else {
          slot = ctx_.bool_const(key("co", a, b).c_str());
          primary_.push_back({*slot, 'c', a, b});
          if (!f_.co_total && a > b) s_.add(!(*slot && co(b, a)));
        }
      }
    for (int a : ws)
      for (int b : ws)
        for (int c : ws)
          if (a != b && b != c && a != c && !f_.init[a] && !f_.init[b] && !f_.init[c])
            s_.add(z3::implies(co(a, b) && co(b, c), co(a, c)));
  }
}

z3::expr Encoding::co(int a, int b) const {
  const auto& e = co_[size_t(a) * n_ + b];
  return e ? *e : F_;
}

// The final value of a location comes from one co-maximal write (the
// first initial write when nothing else writes it).
void Encoding::encode_final() {
  for (const auto& ws : f_.loc_writes) {
    std::vector<int> own;
    for (int w : ws)
      if (!f_.init[w]) own.push_back(w);
    if (own.size() < 2) {
      if (own.size() == 1) fw_[own[0]] = T_;
      continue;
    }
    z3::expr_vector any(ctx_);
    for (int w : own) {
      z3::expr v = ctx_.bool_const(("fw" + std::to_string(w)).c_str());
      fw_[w] = v;
      primary_.push_back({v, 'f', w, -1});
      any.push_back(v);
      for (int b : own)
        if (b != w) s_.add(z3::implies(v, !co(w, b)));
    }
    s_.add(z3::mk_or(any));
    for (size_t i = 0; i < own.size(); ++i)
      for (size_t j = i + 1; j < own.size(); ++j) s_.add(!(*fw_[own[i]] && *fw_[own[j]]));
  }
}

// fr = rf^-1; co (PTX ISA 8.9.7 item 3).
z3::expr Encoding::fr(int r, int w) {
  auto& slot = fr_[size_t(r) * n_ + w];
  if (slot) return *slot;
  std::vector<z3::expr> terms;
  for (int w0 : f_.rf_cands[r]) terms.push_back(conj(rf(w0, r), co(w0, w)));
  slot = def(terms, key("fr", r, w));
  return *slot;
}

// ---- Fence-SC order (PTX ISA 8.9.3): integer ranks, distinct for every
// pair of fence.sc it must relate.
void Encoding::encode_fsc() {
  for (int a : f_.sc_fences) rank_[a] = ctx_.int_const(("fsc" + std::to_string(a)).c_str());
  for (int a : f_.sc_fences)
    for (int b : f_.sc_fences)
      if (a < b && f_.sfpair(a, b)) s_.add(*rank_[a] != *rank_[b]);
}

z3::expr Encoding::sf(int a, int b) const {
  if (!f_.sfpair(a, b) || !rank_[a] || !rank_[b]) return F_;
  return *rank_[a] < *rank_[b];
}

// ---- Observation order (PTX ISA 8.9.2): msrf; (rmw; msrf)*, unrolled by
// the number of RMWs on the location; or Dat3M v7.5's (ms & rf) | rmw.
z3::expr Encoding::msrf(int w, int r) const { return f_.ms(w, r) ? rf(w, r) : F_; }

// obs(w, r) <=> msrf(w, r) | OR over atomics (r1, w1): msrf(w1, r) & obs(w, r1).
// The recursion follows rmw; msrf edges; they are made acyclic by integer
// ranks, which makes the fixpoint unique (the least one). A cycle of such
// edges is inconsistent anyway: each W_i -obs-> R_i+1 -po-> W_i+1 is a
// causality edge between writes (8.9.5), so Coherence would need a cyclic co.
void Encoding::encode_obs() {
  if (!f_.obs_rmw || f_.rmw.empty()) return;
  std::vector<Opt> rank(n_);
  for (auto [r, w] : f_.rmw) rank[r] = ctx_.int_const(("obsd" + std::to_string(r)).c_str());
  for (auto [r1, w1] : f_.rmw)
    for (auto [r2, w2] : f_.rmw)
      if (r1 != r2 && f_.loc(w1, r2) && f_.ms(w1, r2))
        s_.add(z3::implies(rf(w1, r2), *rank[r1] < *rank[r2]));
  obs_.assign(size_t(n_) * n_, std::nullopt);
  for (int w : f_.writes)
    for (int r : f_.reads)
      if (f_.loc(w, r) && rmw_levels_[f_.phys[w]] > 0)
        obs_[size_t(w) * n_ + r] = ctx_.bool_const(key("obs", w, r).c_str());
  for (int w : f_.writes)
    for (int r : f_.reads) {
      const auto& v = obs_[size_t(w) * n_ + r];
      if (!v) continue;
      z3::expr_vector t(ctx_);
      t.push_back(msrf(w, r));
      for (auto [r1, w1] : f_.rmw)
        if (r1 != r && f_.loc(w1, r) && f_.ms(w1, r)) t.push_back(rf(w1, r) && *obs_[size_t(w) * n_ + r1]);
      s_.add(*v == z3::mk_or(t));
    }
}

// Observation order between x and y: W -> R edges as above, and (Dat3M
// v7.5 reading, !obs_rmw) the rmw edge from an atomic's read to its write.
z3::expr Encoding::obs(int x, int y) {
  if (f_.W[x] && f_.R[y] && f_.loc(x, y)) {
    if (!obs_.empty())
      if (const auto& v = obs_[size_t(x) * n_ + y]) return *v;
    return msrf(x, y);
  }
  if (!f_.obs_rmw && f_.R[x])
    for (auto [r, w] : f_.rmw)
      if (r == x && w == y) return T_;
  return F_;
}

}  // namespace ptxcheck::mm::z3e
