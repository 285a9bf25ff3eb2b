// Cross-checks: the Z3 engine and the enumeration engine return the same
// executions (rf, co, final write) with the same counts, on the named shapes
// and on random small Skeletons, under every model reading; and limits.
#include <catch2/catch.hpp>

#include "parser/diagnostic.hpp"
#include "tests/z3/z3_shapes.hpp"

using namespace ptxcheck::mm;
using namespace ptxcheck::mm::z3test;

namespace {

std::vector<std::pair<std::string, Model>> readings() {
  std::vector<std::pair<std::string, Model>> out;
  for (ModelKind k : {ModelKind::PTX75, ModelKind::PTX6, ModelKind::SC}) {
    Model m;
    m.kind = k;
    out.push_back({"kind" + std::to_string(int(k)), m});
  }
  Model v75;
  v75.observation_through_rmw = false;
  v75.sc_per_location = false;
  out.push_back({"dat3m-v7.5", v75});
  Model nosc;
  nosc.fence_sc_is_acq_rel = false;
  out.push_back({"fence.sc-not-acq_rel", nosc});
  return out;
}

// Returns the number of executions.
uint64_t same(const std::string& what, const Skeleton& s, const Model& m) {
  INFO(what);
  const Run z = run_engine("z3", s, m);
  const Run e = run_engine("enum", s, m);
  CHECK(z.count == z.keys.size());  // each execution reported once
  CHECK(e.count == e.keys.size());
  CHECK(z.count == e.count);
  CHECK(z.keys == e.keys);
  return z.count;
}

}  // namespace

TEST_CASE("z3 and enum engines agree on every named shape", "[crosscheck]") {
  for (const Shape& sh : catalogue())
    for (const auto& [name, m] : readings()) same(sh.name + " / " + name, sh.s, m);
}

TEST_CASE("z3 and enum engines agree on random Skeletons", "[random]") {
  uint64_t executions = 0;
  for (uint32_t seed = 1; seed <= 400; ++seed) {
    const Skeleton s = random_skeleton(seed);
    for (const auto& [name, m] : readings())
      executions += same("seed " + std::to_string(seed) + " / " + name, s, m);
  }
  CHECK(executions > 400);  // the generator yields non-trivial Skeletons
}

TEST_CASE("z3 engine honours Limits", "[limits]") {
  const Skeleton s = two_two_w(Order::Relaxed);
  auto eng = make_z3_engine();
  Limits one;
  one.max_executions = 1;
  CHECK_THROWS_AS(eng->enumerate(s, Model{}, one, [](const Execution&) { return true; }),
                  ptxcheck::LimitError);
  Limits tiny;
  tiny.timeout_s = 1e-9;
  CHECK_THROWS_AS(eng->enumerate(s, Model{}, tiny, [](const Execution&) { return true; }),
                  ptxcheck::LimitError);
  // Stopping early: the visitor's false ends the enumeration.
  uint64_t calls = 0;
  eng->enumerate(s, Model{}, {}, [&](const Execution&) { return ++calls < 2; });
  CHECK(calls == 2);
}
