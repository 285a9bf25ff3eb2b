// Unit tests of semantics/litmus/transform: where each change applies, what
// it does, and that the verdicts move the way the spec says on the classic
// message-passing tests (PTX ISA 8.8 patterns, 8.10.6 causality).
#include <catch2/catch.hpp>

#include "parser/litmus/print.hpp"
#include "semantics/litmus/check.hpp"
#include "semantics/litmus/transform.hpp"
#include "tests/props/props_common.hpp"

using namespace ptxcheck;
using namespace ptxcheck::litmus;

namespace {

Test load(const char* rel) { return parse_litmus_file(props::src_root() + "/" + rel); }

bool allowed(const Test& t) {  // herd's Ok for an `exists` test
  auto eng = mm::make_enum_engine();
  Program p = lower(t);
  return check(p, *eng, CheckOptions{}).ok;
}

}  // namespace

TEST_CASE("mutations list every place a change applies", "[props-transform]") {
  Test mp = load("litmus/mp.litmus");  // T0: st weak; st.release.gpu | T1: ld.acquire.gpu; ld weak
  CHECK(mutations(mp, Change::DropFence).empty());
  auto acq = mutations(mp, Change::AcquireToRelaxed);
  REQUIRE(acq.size() == 1);
  CHECK((acq[0].thread == 1 && acq[0].instr == 0));
  auto rel = mutations(mp, Change::ReleaseToRelaxed);
  REQUIRE(rel.size() == 1);
  CHECK((rel[0].thread == 0 && rel[0].instr == 1));
  CHECK(mutations(mp, Change::NarrowScope).size() == 4);  // two .gpu accesses, to .cta or .cluster
  CHECK(mutations(mp, Change::WidenScope).size() == 2);   // to .sys
  CHECK(mutations(mp, Change::StrongToWeak).size() == 2);
  CHECK(mutations(mp, Change::InsertFenceSc).size() == 2 * 3 * 4);  // 3 gaps per thread, 4 scopes
  Test f = load("litmus/mp+fences.litmus");
  CHECK(mutations(f, Change::DropFence).size() == 2);
}

TEST_CASE("apply makes the change and nothing else", "[props-transform]") {
  Test mp = load("litmus/mp.litmus");
  for (Change k : all_changes()) {
    for (const Mutation& m : mutations(mp, k)) {
      INFO(m.describe());
      Test r = apply(mp, m);
      CHECK(r.name.rfind(mp.name + "+" + change_name(k), 0) == 0);
      CHECK(test_difference(r, parse_native(print_native(r), "x")) == "");
      // Exactly one thread changes.
      int changed = 0;
      for (size_t t = 0; t < mp.threads.size(); ++t) {
        Test a = mp, b = r;
        a.threads = {mp.threads[t]};
        b.threads = {r.threads[t]};
        b.name = a.name;
        changed += test_difference(a, b) != "";
      }
      CHECK(changed == 1);
      const auto& code = r.threads[m.thread].code;
      switch (k) {
        case Change::InsertFenceSc:
          CHECK(code.size() == mp.threads[m.thread].code.size() + 1);
          CHECK(code[m.instr].kind == InstrKind::Fence);
          CHECK(code[m.instr].order == mm::Order::SC);
          CHECK(code[m.instr].scope == m.scope);
          break;
        case Change::NarrowScope:
        case Change::WidenScope: CHECK(code[m.instr].scope == m.scope); break;
        case Change::StrongToWeak: CHECK(code[m.instr].order == mm::Order::Weak); break;
        case Change::AcquireToRelaxed:
        case Change::ReleaseToRelaxed: CHECK(code[m.instr].order == mm::Order::Relaxed); break;
        case Change::DropFence: break;
      }
    }
  }
  Mutation bad{Change::DropFence, 0, 0, mm::Scope::Sys};
  CHECK_THROWS_AS(apply(mp, bad), std::invalid_argument);
  Mutation far{Change::InsertFenceSc, 5, 0, mm::Scope::Sys};
  CHECK_THROWS_AS(apply(mp, far), std::invalid_argument);
}

TEST_CASE("acq_rel atomics lose one half", "[props-transform]") {
  Test t = parse_native(
      "PTX a\n{\n}\nT0 @ cta 0 {\n  atom.global.acq_rel.gpu.exch.b32 %r0, [x], 1;\n}\nexists (x == 1)\n", "a");
  auto a = mutations(t, Change::AcquireToRelaxed);
  auto r = mutations(t, Change::ReleaseToRelaxed);
  REQUIRE(a.size() == 1);
  REQUIRE(r.size() == 1);
  CHECK(apply(t, a[0]).threads[0].code[0].order == mm::Order::Release);
  CHECK(apply(t, r[0]).threads[0].code[0].order == mm::Order::Acquire);
}

TEST_CASE("verdicts move as the spec says on message passing", "[props-transform]") {
  Test mp = load("litmus/mp.litmus");
  REQUIRE(!allowed(mp));  // release/acquire synchronize (8.8, 8.10.6)
  for (Change k : {Change::AcquireToRelaxed, Change::ReleaseToRelaxed})
    for (const Mutation& m : mutations(mp, k)) CHECK(allowed(apply(mp, m)));
  Test f = load("litmus/mp+fences.litmus");
  REQUIRE(!allowed(f));
  for (const Mutation& m : mutations(f, Change::DropFence)) CHECK(allowed(apply(f, m)));
  // The threads are in different CTAs, each its own cluster: .cta or
  // .cluster scope makes the pair not morally strong (8.5, 8.7).
  for (const Mutation& m : mutations(mp, Change::NarrowScope)) CHECK(allowed(apply(mp, m)));
  for (const Mutation& m : mutations(mp, Change::WidenScope)) CHECK(!allowed(apply(mp, m)));
  for (const Mutation& m : mutations(mp, Change::InsertFenceSc)) CHECK(!allowed(apply(mp, m)));
}
