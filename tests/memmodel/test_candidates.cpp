// mm::for_each_candidate (memmodel/candidates.hpp): rf by value, co by
// permutation, the budget, and violated_axioms on what it yields.
#include <catch2/catch.hpp>

#include <set>

#include "memmodel/axioms.hpp"
#include "memmodel/candidates.hpp"
#include "memmodel/engine.hpp"
#include "tests/memmodel/skel_builder.hpp"

using namespace ptxcheck::mm;
using namespace ptxcheck::mm::test;

namespace {
// x = 0; P0: st x 1; st x 2.  P1: ld x (1); ld x (2).
struct TwoWrites {
  SkelBuilder b;
  int t0, t1, w1, w2, r1, r2;
  Skeleton s;
  TwoWrites() {
    const int x = b.loc("x");
    t0 = b.thread();
    t1 = b.thread();
    w1 = b.st(t0, x, 1);
    w2 = b.st(t0, x, 2);
    r1 = b.ld(t1, x, 1);
    r2 = b.ld(t1, x, 2);
    s = b.build();
  }
};
}  // namespace

TEST_CASE("Candidates: rf by value, every co order, final write co-last", "[candidates]") {
  TwoWrites c;
  const int w1 = c.b.id(c.t0, c.w1), w2 = c.b.id(c.t0, c.w2), r1 = c.b.id(c.t1, c.r1), r2 = c.b.id(c.t1, c.r2);
  std::set<std::vector<std::pair<int, int>>> cos;
  int n = 0, consistent = 0;
  for_each_candidate(c.s, 1, UINT64_MAX, [&](const Execution& ex) {
    ++n;
    CHECK(ex.rf[static_cast<size_t>(r1)] == w1);
    CHECK(ex.rf[static_cast<size_t>(r2)] == w2);
    REQUIRE(ex.co.size() == 2);  // init first, then the two writes in some order
    CHECK(ex.final_write.at(0) == ex.co.back().second);
    cos.insert(ex.co);
    if (violated_axioms(c.s, Model{}, ex).empty()) ++consistent;
    return true;
  });
  CHECK(n == 2);
  CHECK(cos.size() == 2);
  // co w2 -> w1 against po-loc breaks SC-per-Location (PTX ISA 8.10.5);
  // w1 -> w2 is consistent.
  CHECK(consistent == 1);
}

TEST_CASE("Candidates: any_value reads, stopping, the budget", "[candidates]") {
  TwoWrites c;
  c.s.events[static_cast<size_t>(c.b.id(c.t1, c.r2))].any_value = true;  // may read init, w1 or w2
  int n = 0;
  for_each_candidate(c.s, 1, UINT64_MAX, [&](const Execution&) { return ++n, true; });
  CHECK(n == 6);
  n = 0;
  for_each_candidate(c.s, 1, UINT64_MAX, [&](const Execution&) { return ++n < 4; });
  CHECK(n == 4);
  // The budget counts rf choices and co orders: 1 + 2 leaves room for two candidates.
  n = 0;
  for_each_candidate(c.s, 1, 3, [&](const Execution&) { return ++n, true; });
  CHECK(n == 2);
  // A read with no write of its value: no candidate at all.
  SkelBuilder b;
  const int x = b.loc("x");
  b.ld(b.thread(), x, 7);
  n = 0;
  for_each_candidate(b.build(), 1, UINT64_MAX, [&](const Execution&) { return ++n, true; });
  CHECK(n == 0);
}

// The enumeration engine's free reads (memmodel/enum_engine.cpp): a weak
// plain read of any value with no dependency from it is one existential
// choice, with a source the Causality axiom allows (PTX ISA 8.10.6).
TEST_CASE("Enum engine: a weak read of any value is one choice, with a source causality allows", "[candidates]") {
  auto eng = make_enum_engine();
  auto count = [&](const Skeleton& s, int read, std::set<int>* srcs) {
    int n = 0;
    eng->enumerate(s, Model{}, {}, [&](const Execution& ex) {
      ++n;
      if (srcs) srcs->insert(ex.rf[static_cast<size_t>(read)]);
      return true;
    });
    return n;
  };
  // x = 0; P0: st x 1.  P1: ld x (any value): init or w, one execution.
  for (Order o : {Order::Weak, Order::Relaxed}) {
    for (bool dep : {false, true}) {
      SkelBuilder b;
      const int x = b.loc("x"), y = b.loc("y");
      const int t0 = b.thread(), t1 = b.thread();
      b.st(t0, x, 1);
      const int r = b.ld(t1, x, 0, o);
      if (dep) b.data(t1, r, b.st(t1, y, 0));
      Skeleton s = b.build();
      s.events[static_cast<size_t>(b.id(t1, r))].any_value = true;
      // Strong, or with a dependency from it: each source is an execution.
      CHECK(count(s, b.id(t1, r), nullptr) == (o == Order::Weak && !dep ? 1 : 2));
    }
  }
  // With a barrier between, the write precedes the read in causality
  // order: its only allowed source is the write, not the initial value.
  SkelBuilder b;
  const int x = b.loc("x");
  const int t0 = b.thread(), t1 = b.thread();
  const int w = b.st(t0, x, 1);
  b.bar(t0, 1);
  b.bar(t1, 1);
  const int r = b.ld(t1, x, 0);
  Skeleton s = b.build();
  s.events[static_cast<size_t>(b.id(t1, r))].any_value = true;
  std::set<int> srcs;
  CHECK(count(s, b.id(t1, r), &srcs) == 1);
  CHECK(srcs == std::set<int>{b.id(t0, w)});
}
