// The bit-matrix relation algebra (memmodel/relation.hpp), checked against
// naive set-of-pairs definitions on random relations.
#include <catch2/catch.hpp>

#include <random>
#include <set>

#include "memmodel/relation.hpp"

using ptxcheck::mm::EventSet;
using ptxcheck::mm::Relation;

namespace {
using Pairs = std::set<std::pair<int, int>>;
Pairs as_set(const Relation& r) {
  auto v = r.pairs();
  return {v.begin(), v.end()};
}
Relation random_rel(std::mt19937& g, int n, double p) {
  Relation r(n);
  std::bernoulli_distribution d(p);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (d(g)) r.add(a, b);
  return r;
}
}  // namespace

TEST_CASE("composition, inverse and closure agree with set definitions", "[relation]") {
  std::mt19937 g(7);
  for (int n : {1, 5, 63, 64, 65, 130}) {
    Relation a = random_rel(g, n, 2.0 / n), b = random_rel(g, n, 2.0 / n);
    Pairs comp;
    for (auto [x, y] : a.pairs())
      for (auto [y2, z] : b.pairs())
        if (y == y2) comp.insert({x, z});
    CHECK(as_set(a.compose(b)) == comp);
    Pairs inv;
    for (auto [x, y] : a.pairs()) inv.insert({y, x});
    CHECK(as_set(a.inverse()) == inv);
    // Closure: fixpoint of R | R;R.
    Relation c = a;
    while (true) {
      Relation next = c | c.compose(c);
      if (next == c) break;
      c = next;
    }
    CHECK(a.plus() == c);
    CHECK(a.plus().irreflexive() == a.acyclic());
    CHECK((a | b).subset_of(a) == b.subset_of(a));
    CHECK(((a & b) - a).empty());
  }
}

TEST_CASE("find_cycle returns a real cycle", "[relation]") {
  Relation r(6);
  r.add(0, 1);
  r.add(1, 2);
  r.add(2, 3);
  CHECK(r.acyclic());
  r.add(3, 1);
  auto cyc = r.find_cycle();
  REQUIRE(cyc.size() == 3);
  for (size_t i = 0; i < cyc.size(); ++i) CHECK(r.has(cyc[i], cyc[(i + 1) % cyc.size()]));
  Relation self(3);
  self.add(2, 2);
  CHECK_FALSE(self.acyclic());
}

TEST_CASE("restriction and products", "[relation]") {
  EventSet s(70), t(70);
  s.set(1);
  s.set(69);
  t.set(68);
  Relation p = Relation::product(s, t);
  CHECK(p.count() == 2);
  CHECK(p.has(69, 68));
  Relation all = Relation::product(EventSet::full(70), EventSet::full(70));
  CHECK(all.restrict(s, t) == p);
  CHECK(Relation::identity(s).count() == 2);
  CHECK(all.domain_restrict(s).range() == EventSet::full(70));
  CHECK(p.domain() == s);
  CHECK((EventSet::full(70) - s).count() == 68);
}
