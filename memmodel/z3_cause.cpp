// Exact SMT definitions of synchronizes-with, base causality,
// proxy-preserved base causality and causality order (PTX ISA 8.9.4-8.9.5,
// readings of memmodel/relations.cpp); see z3_encode.hpp.
#include <cmath>

#include "memmodel/z3_encode.hpp"

namespace ptxcheck::mm::z3e {

// Synchronizes-with edges (PTX ISA 8.9.4 items 1 and 4; barriers, item 2,
// are static) and the exact closure of po | sw over their endpoints K:
// every path with a dynamic edge is a chain of static segments between
// K nodes, so reach(a, b) over K, closed by repeated squaring, suffices.
void Encoding::encode_sync() {
  static_ = f_.po;
  for (int a = 0; a < n_; ++a)
    for (int b = 0; b < n_; ++b)
      if (f_.sb(a, b)) static_.set(a, b);
  close(static_);
  Mat sbpo = f_.sb;  // (sb; po?)+
  for (int a = 0; a < n_; ++a)
    for (int b = 0; b < n_; ++b)
      if (f_.sb(a, b))
        for (int d = 0; d < n_; ++d)
          if (f_.po(b, d)) sbpo.set(a, d);
  close(sbpo);
  static6_ = sbpo;
  for (int x = 0; x < n_; ++x)
    for (int a = 0; a < n_; ++a)
      if (f_.po(x, a))
        for (int y = 0; y < n_; ++y)
          if (sbpo(a, y)) static6_.set(x, y);

  std::vector<std::vector<z3::expr>> terms(size_t(n_) * n_);
  for (auto [x, w] : f_.relpat)
    for (auto [r, y] : f_.acqpat)
      if (f_.ms(x, y) && f_.loc(w, r)) terms[size_t(x) * n_ + y].push_back(obs(w, r));
  for (int a : f_.sc_fences)
    for (int b : f_.sc_fences) terms[size_t(a) * n_ + b].push_back(sf(a, b));
  k_index_.assign(n_, -1);
  for (int x = 0; x < n_; ++x)
    for (int y = 0; y < n_; ++y) {
      auto& t = terms[size_t(x) * n_ + y];
      if (t.empty()) continue;
      z3::expr d = def(t, key("sw", x, y));
      if (d.is_false()) continue;
      dyn_[size_t(x) * n_ + y] = d;
      for (int e : {x, y})
        if (k_index_[e] < 0) k_index_[e] = int(k_.size()), k_.push_back(e);
    }
  const int k = int(k_.size());
  if (k == 0) return;
  std::vector<z3::expr> r;  // current level, |K| x |K|
  for (int a : k_)
    for (int b : k_) {
      const auto& d = dyn_[size_t(a) * n_ + b];
      r.push_back(static_(a, b) ? T_ : d ? *d : F_);
    }
  const int levels = int(std::ceil(std::log2(double(k) + 1))) + 1;
  for (int l = 0; l < levels; ++l) {
    std::vector<z3::expr> next;
    for (int i = 0; i < k; ++i)
      for (int j = 0; j < k; ++j) {
        std::vector<z3::expr> t{r[size_t(i) * k + j]};
        for (int c = 0; c < k; ++c) t.push_back(conj(r[size_t(i) * k + c], r[size_t(c) * k + j]));
        next.push_back(def(t, "reach" + std::to_string(l) + "_" + key("", k_[i], k_[j])));
      }
    r = std::move(next);
  }
  for (auto& e : r) reach_.emplace_back(e);
}

z3::expr Encoding::reach(int a, int b) const {
  return *reach_[size_t(k_index_[a]) * k_.size() + k_index_[b]];
}

// (po | sw)+ : static, or static? to a K node, reach, static? from a K node.
z3::expr Encoding::cbf(int x, int y) {
  if (static_(x, y)) return T_;
  if (k_.empty()) return F_;
  auto& slot = cbf_[size_t(x) * n_ + y];
  if (slot) return *slot;
  std::vector<z3::expr> t;
  for (int a : k_)
    if (a == x || static_(x, a))
      for (int b : k_)
        if (b == y || static_(b, y)) t.push_back(reach(a, b));
  slot = def(t, key("cbf", x, y));
  return *slot;
}

// Base causality order (PTX ISA 8.9.5): po | po?; (sw; po?)+. PTX6 (Dat3M
// v6.0) drops the bare po: a path needs at least one synchronizes-with edge.
// With asynchronous operations (PTX ISA 8.9.1.1): cb0 | cb0?; issue, where
// an issue edge ends the path (relations.cpp base_causality).
z3::expr Encoding::cb(int x, int y) {
  bool any = false;
  for (int z = 0; z < n_ && !any; ++z) any = f_.issue(z, y);
  if (!any) return cb0(x, y);
  auto& slot = cbi_[size_t(x) * n_ + y];
  if (slot) return *slot;
  std::vector<z3::expr> t{cb0(x, y)};
  for (int z = 0; z < n_; ++z)
    if (f_.issue(z, y)) t.push_back(z == x ? T_ : cb0(x, z));
  slot = def(t, key("cbi", x, y));
  return *slot;
}

z3::expr Encoding::cb0(int x, int y) {
  if (f_.kind != ModelKind::PTX6) return cbf(x, y);
  if (static6_(x, y)) return T_;
  auto& slot = cb_[size_t(x) * n_ + y];
  if (slot) return *slot;
  std::vector<z3::expr> t;
  for (int a : k_)
    for (int b : k_) {
      const auto& d = dyn_[size_t(a) * n_ + b];
      if (!d) continue;
      z3::expr pre = a == x ? T_ : cbf(x, a);
      z3::expr post = b == y ? T_ : cbf(b, y);
      t.push_back(conj(*d, conj(pre, post)));
    }
  slot = def(t, key("cb", x, y));
  return *slot;
}

// Proxy-preserved base causality (PTX ISA 8.9.5, Dat3M v7.5 form): a path
// from x starts at x (generic) or at a proxy fence of x's proxy in x's CTA
// after x, and ends symmetrically at y; aliases need an alias proxy fence.
z3::expr Encoding::pp(int x, int y) {
  auto& slot = pp_[size_t(x) * n_ + y];
  if (slot) return *slot;
  std::vector<z3::expr> t;
  if (f_.loc(x, y)) {
    if (f_.vloc(x, y) && f_.same_proxy(x, y) && f_.scta(x, y)) t.push_back(cb(x, y));
    std::vector<int> start, end;
    if (f_.gen[x]) start.push_back(x);
    if (f_.gen[y]) end.push_back(y);
    for (int g = 0; g < n_; ++g) {
      if (!f_.gen[x] && f_.pfo(g, x)) start.push_back(g);
      if (!f_.gen[y] && f_.pfo(g, y)) end.push_back(g);
    }
    for (int s : start)
      for (int e : end) {
        const z3::expr guards = conj(s == x ? T_ : cb(x, s), e == y ? T_ : cb(e, y));
        if (guards.is_false()) continue;
        if (f_.vloc(x, y)) t.push_back(conj(guards, cb(s, e)));
        for (int a = 0; a < n_; ++a)
          if (f_.alias_fence[a]) t.push_back(conj(guards, conj(cb(s, a), cb(a, e))));
      }
  }
  slot = def(t, key("pp", x, y));
  return *slot;
}

// Causality order (PTX ISA 8.9.5). PTX75: ppcb | obs; ppcb.
// PTX6 (Dat3M v6.0): cb | obs; (cb | po-loc).
z3::expr Encoding::cause(int x, int y) {
  auto& slot = cause_[size_t(x) * n_ + y];
  if (slot) return *slot;
  const bool v6 = f_.kind == ModelKind::PTX6;
  std::vector<z3::expr> t{v6 ? cb(x, y) : pp(x, y)};
  if (f_.M[x])
    for (int z = 0; z < n_; ++z) {
      if (!f_.loc(x, z)) continue;
      z3::expr o = obs(x, z);
      if (o.is_false()) continue;
      t.push_back(conj(o, v6 ? (f_.poloc(z, y) ? T_ : cb(z, y)) : pp(z, y)));
    }
  slot = def(t, key("cause", x, y));
  return *slot;
}

}  // namespace ptxcheck::mm::z3e
