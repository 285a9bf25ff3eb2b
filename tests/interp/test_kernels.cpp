// Golden runner: every corpus/kernels/NAME.json runs and matches
// NAME.expected.json (written from independent C++ references), and every
// tests/interp/faults/NAME.json produces the diagnostic it names in its
// "_expect_diagnostic" key (with "_expect_status", default "error").
#include <catch2/catch.hpp>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "semantics/interp/json_pos.hpp"
#include "semantics/interp/run.hpp"

using namespace ptxcheck;
using namespace ptxcheck::interp;
namespace fs = std::filesystem;

namespace {
std::string src_dir() {
  const char* s = std::getenv("PTXCHECK_SRC");
  return s ? s : ".";
}
std::vector<fs::path> specs_in(const fs::path& dir) {
  std::vector<fs::path> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::string n = e.path().filename().string();
    if (e.path().extension() == ".json" && n.find(".expected.") == std::string::npos) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}
std::string errors_of(const RunReport& r) {
  std::string s;
  for (const auto& d : r.result.diagnostics)
    s += d.file + ":" + std::to_string(d.line) + ": " + d.severity + ": " + d.kind + ": " + d.message + "\n";
  return s;
}
}  // namespace

TEST_CASE("corpus kernels compute their expected outputs", "[kernels]") {
  auto specs = specs_in(fs::path(src_dir()) / "corpus" / "kernels");
  REQUIRE(!specs.empty());
  for (const auto& spec : specs) {
    DYNAMIC_SECTION(spec.filename().string()) {
      RunOptions opt;
      opt.max_steps = 200'000'000;
      RunReport r = run_spec_file(spec.string(), opt);
      INFO(errors_of(r));
      CHECK(r.result.ok);
      fs::path exp = spec;
      exp.replace_extension(".expected.json");
      if (fs::exists(exp)) {
        ExpectOutcome e = check_expected(r, exp.string());
        std::string mm;
        for (const auto& m : e.mismatches) mm += m + "\n";
        INFO(mm);
        CHECK(e.ok);
        CHECK(e.compared > 0);
      }
    }
  }
}

TEST_CASE("faulting kernels get the diagnostic they name", "[diagnostics]") {
  auto specs = specs_in(fs::path(src_dir()) / "tests" / "interp" / "faults");
  REQUIRE(!specs.empty());
  for (const auto& spec : specs) {
    DYNAMIC_SECTION(spec.filename().string()) {
      JNode root = parse_json(spec.string(), read_file_text(spec.string()));
      const JNode* want = root.find("_expect_diagnostic");
      REQUIRE(want);
      const JNode* st = root.find("_expect_status");
      std::string want_status = st ? st->text : "error";
      RunOptions opt;
      opt.max_steps = 1'000'000;
      RunReport r = run_spec_file(spec.string(), opt);
      INFO(errors_of(r));
      bool found = false;
      for (const auto& d : r.result.diagnostics) {
        if (d.kind != want->text) continue;
        found = true;
        CHECK(d.line > 0);
        CHECK(d.kernel == r.spec.kernel);
      }
      CHECK(found);
      CHECK((r.result.ok ? "ok" : "error") == want_status);
    }
  }
}
