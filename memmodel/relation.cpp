// Bit-matrix relations (see relation.hpp for the contract).
#include "memmodel/relation.hpp"

#include <bit>
#include <cassert>

namespace ptxcheck::mm {

bool EventSet::empty() const {
  for (uint64_t w : w_)
    if (w) return false;
  return true;
}

int EventSet::count() const {
  int c = 0;
  for (uint64_t w : w_) c += std::popcount(w);
  return c;
}

std::vector<int> EventSet::elements() const {
  std::vector<int> out;
  for (size_t i = 0; i < w_.size(); ++i)
    for (uint64_t w = w_[i]; w; w &= w - 1) out.push_back(static_cast<int>(i * 64) + std::countr_zero(w));
  return out;
}

EventSet EventSet::operator|(const EventSet& o) const {
  EventSet r = *this;
  for (size_t i = 0; i < w_.size(); ++i) r.w_[i] |= o.w_[i];
  return r;
}
EventSet EventSet::operator&(const EventSet& o) const {
  EventSet r = *this;
  for (size_t i = 0; i < w_.size(); ++i) r.w_[i] &= o.w_[i];
  return r;
}
EventSet EventSet::operator-(const EventSet& o) const {
  EventSet r = *this;
  for (size_t i = 0; i < w_.size(); ++i) r.w_[i] &= ~o.w_[i];
  return r;
}

Relation Relation::identity(int n) {
  Relation r(n);
  for (int a = 0; a < n; ++a) r.add(a, a);
  return r;
}

Relation Relation::identity(const EventSet& s) {
  Relation r(s.size());
  for (int a : s.elements()) r.add(a, a);
  return r;
}

Relation Relation::product(const EventSet& a, const EventSet& b) {
  Relation r(a.size());
  for (int x : a.elements()) {
    uint64_t* rw = r.row(x);
    for (int i = 0; i < r.wpr_; ++i) rw[i] = b.words()[i];
  }
  return r;
}

bool Relation::empty() const {
  for (uint64_t w : bits_)
    if (w) return false;
  return true;
}

int Relation::count() const {
  int c = 0;
  for (uint64_t w : bits_) c += std::popcount(w);
  return c;
}

std::vector<std::pair<int, int>> Relation::pairs() const {
  std::vector<std::pair<int, int>> out;
  for (int a = 0; a < n_; ++a)
    for (int i = 0; i < wpr_; ++i)
      for (uint64_t w = row(a)[i]; w; w &= w - 1) out.emplace_back(a, i * 64 + std::countr_zero(w));
  return out;
}

EventSet Relation::successors(int a) const {
  EventSet s(n_);
  for (int i = 0; i < wpr_; ++i) s.words()[i] = row(a)[i];
  return s;
}

EventSet Relation::domain() const {
  EventSet s(n_);
  for (int a = 0; a < n_; ++a)
    for (int i = 0; i < wpr_; ++i)
      if (row(a)[i]) {
        s.set(a);
        break;
      }
  return s;
}

EventSet Relation::range() const {
  EventSet s(n_);
  for (int a = 0; a < n_; ++a)
    for (int i = 0; i < wpr_; ++i) s.words()[i] |= row(a)[i];
  return s;
}

Relation Relation::operator|(const Relation& o) const {
  Relation r = *this;
  r |= o;
  return r;
}
Relation Relation::operator&(const Relation& o) const {
  Relation r = *this;
  r &= o;
  return r;
}
Relation Relation::operator-(const Relation& o) const {
  assert(n_ == o.n_);
  Relation r = *this;
  for (size_t i = 0; i < bits_.size(); ++i) r.bits_[i] &= ~o.bits_[i];
  return r;
}
Relation& Relation::operator|=(const Relation& o) {
  assert(n_ == o.n_);
  for (size_t i = 0; i < bits_.size(); ++i) bits_[i] |= o.bits_[i];
  return *this;
}
Relation& Relation::operator&=(const Relation& o) {
  assert(n_ == o.n_);
  for (size_t i = 0; i < bits_.size(); ++i) bits_[i] &= o.bits_[i];
  return *this;
}

bool Relation::subset_of(const Relation& o) const {
  assert(n_ == o.n_);
  for (size_t i = 0; i < bits_.size(); ++i)
    if (bits_[i] & ~o.bits_[i]) return false;
  return true;
}

Relation Relation::compose(const Relation& o) const {
  assert(n_ == o.n_);
  Relation r(n_);
  for (int a = 0; a < n_; ++a) {
    uint64_t* out = r.row(a);
    const uint64_t* ra = row(a);
    for (int i = 0; i < wpr_; ++i)
      for (uint64_t w = ra[i]; w; w &= w - 1) {
        const uint64_t* rb = o.row(i * 64 + std::countr_zero(w));
        for (int j = 0; j < wpr_; ++j) out[j] |= rb[j];
      }
  }
  return r;
}

Relation Relation::inverse() const {
  Relation r(n_);
  for (auto [a, b] : pairs()) r.add(b, a);
  return r;
}

// Warshall's algorithm on bit rows: for each k, every row containing k
// absorbs row k.
Relation Relation::plus() const {
  Relation r = *this;
  for (int k = 0; k < n_; ++k) {
    const uint64_t* rk = r.row(k);
    for (int a = 0; a < n_; ++a) {
      uint64_t* ra = r.row(a);
      if ((ra[k >> 6] >> (k & 63)) & 1U)
        for (int j = 0; j < wpr_; ++j) ra[j] |= rk[j];
    }
  }
  return r;
}

Relation Relation::star() const { return plus().optional(); }

Relation Relation::optional() const {
  Relation r = *this;
  for (int a = 0; a < n_; ++a) r.add(a, a);
  return r;
}

Relation Relation::restrict(const EventSet& dom, const EventSet& ran) const {
  return domain_restrict(dom).range_restrict(ran);
}

Relation Relation::domain_restrict(const EventSet& dom) const {
  Relation r = *this;
  for (int a = 0; a < n_; ++a)
    if (!dom.has(a))
      for (int i = 0; i < wpr_; ++i) r.row(a)[i] = 0;
  return r;
}

Relation Relation::range_restrict(const EventSet& ran) const {
  Relation r = *this;
  for (int a = 0; a < n_; ++a)
    for (int i = 0; i < wpr_; ++i) r.row(a)[i] &= ran.words()[i];
  return r;
}

bool Relation::irreflexive() const {
  for (int a = 0; a < n_; ++a)
    if (has(a, a)) return false;
  return true;
}

bool Relation::acyclic() const { return find_cycle().empty(); }

// Iterative DFS with colours; returns the first back-edge cycle found.
std::vector<int> Relation::find_cycle() const {
  std::vector<uint8_t> colour(n_, 0);  // 0 white, 1 on stack, 2 done
  std::vector<int> parent(n_, -1);
  std::vector<std::pair<int, int>> stack;  // (node, next successor to scan)
  for (int s = 0; s < n_; ++s) {
    if (colour[s]) continue;
    stack.emplace_back(s, 0);
    colour[s] = 1;
    while (!stack.empty()) {
      auto& [a, next] = stack.back();
      int found = -1;
      for (int b = next; b < n_; ++b) {
        if (!has(a, b)) continue;
        next = b + 1;
        found = b;
        break;
      }
      if (found < 0) {
        colour[a] = 2;
        stack.pop_back();
        continue;
      }
      if (colour[found] == 1) {
        std::vector<int> cyc;
        for (int x = a; x != found; x = parent[x]) cyc.push_back(x);
        cyc.push_back(found);
        return {cyc.rbegin(), cyc.rend()};
      }
      if (colour[found] == 0) {
        colour[found] = 1;
        parent[found] = a;
        stack.emplace_back(found, 0);
      }
    }
  }
  return {};
}

std::string Relation::to_string() const {
  std::string s = "{";
  bool first = true;
  for (auto [a, b] : pairs()) {
    if (!first) s += ", ";
    first = false;
    s += "(" + std::to_string(a) + "," + std::to_string(b) + ")";
  }
  return s + "}";
}

}  // namespace ptxcheck::mm
