// Replays corpus/regress/: shrunk counterexamples and pinned cases found by
// the property suites, each with the outcome set the model must give.
// expected.csv rows: `file,model,outcomes` where model is ptx75|ptx6|sc and
// outcomes are herd state lines joined by '|' (the states of the condition's
// registers and locations, as `ptxcheck` prints them). Both engines must
// give exactly that set, and the file must print/parse back in the native
// format.
#include <catch2/catch.hpp>

#include <fstream>
#include <set>
#include <sstream>

#include "memmodel/models.hpp"
#include "parser/litmus/print.hpp"
#include "semantics/litmus/check.hpp"
#include "tests/props/props_common.hpp"

using namespace ptxcheck;
using namespace ptxcheck::litmus;

namespace {

std::set<std::string> run(const Test& t, mm::Engine& e, const mm::Model& m) {
  Program p = lower(t);
  CheckOptions opt;
  opt.model = m;
  std::set<std::string> out;
  for (const auto& s : check(p, e, opt).states) out.insert(s.text);
  return out;
}

std::string join(const std::set<std::string>& s) {
  std::string r;
  for (const auto& x : s) r += (r.empty() ? "" : "|") + x;
  return r;
}

}  // namespace

TEST_CASE("regression tests give their recorded outcomes", "[props-regress]") {
  const std::string dir = props::src_root() + "/corpus/regress/";
  std::ifstream csv(dir + "expected.csv");
  REQUIRE(csv);
  auto z3 = mm::make_z3_engine();
  auto en = mm::make_enum_engine();
  std::string line;
  int rows = 0;
  while (std::getline(csv, line)) {
    if (line.empty() || line[0] == '#') continue;
    size_t a = line.find(','), b = line.find(',', a + 1);
    REQUIRE(b != std::string::npos);
    const std::string file = line.substr(0, a), model = line.substr(a + 1, b - a - 1), want = line.substr(b + 1);
    INFO(file << " under " << model);
    auto named = mm::model_from_name(model);
    REQUIRE(named);
    const mm::Model& m = *named;
    Test t = parse_litmus_file(dir + file);
    CHECK(test_difference(t, parse_native(print_native(t), file)) == "");
    CHECK(join(run(t, *en, m)) == want);
    CHECK(join(run(t, *z3, m)) == want);
    ++rows;
  }
  CHECK(rows > 0);
}
