// Generator tests: forms cover every type and rounding, kernels are
// deterministic and valid PTX (ptxcheck's parser; ptxas when present), and
// every generated kernel runs under the interpreter without a diagnostic.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <regex>
#include <set>

#include "hw/instr/compare.hpp"
#include "hw/instr/forms.hpp"
#include "hw/instr/gen.hpp"
#include "hw/instr/tests/support.hpp"
#include "parser/parse.hpp"
#include "semantics/interp/run.hpp"

namespace fs = std::filesystem;
using namespace ptxcheck::instrgen;
using ptxcheck::instrgen::test::find_ptxas;

namespace {

fs::path tmpdir(const std::string& what) { return ptxcheck::instrgen::test::tmpdir("instrgen", what); }

}  // namespace

TEST_CASE("forms cover every arithmetic type and rounding mode", "[instrgen]") {
  const auto& fs = forms();
  REQUIRE(fs.size() > 300);
  std::set<std::string> types, f32_rnd, cvt_rnd;
  unsigned sm90_only = 0;
  for (const auto& f : fs) {
    types.insert(f.dst.ty);
    for (const auto& s : f.srcs) types.insert(s.ty);
    for (const char* r : {".rn.", ".rz.", ".rm.", ".rp."})
      if (f.mnemonic.find(r) != std::string::npos && f.mnemonic.find("f32") != std::string::npos) f32_rnd.insert(r);
    for (const char* r : {".rni.", ".rzi.", ".rmi.", ".rpi."})
      if (f.family == "cvt" && f.mnemonic.find(r) != std::string::npos) cvt_rnd.insert(r);
    if (f.sm_mask == 2) ++sm90_only;
    // Every form resolves in the arithmetic layer: what `ptxcheck run` needs.
    Form again;
    CHECK(make_form(f.mnemonic, again));
  }
  for (const char* t : {"s16", "u16", "s32", "u32", "s64", "u64", "f16", "f16x2", "bf16", "bf16x2", "f32", "f64", "pred"})
    CHECK(types.count(t));
  CHECK(f32_rnd.size() == 4);
  CHECK(cvt_rnd.size() == 4);
  CHECK(sm90_only > 0);  // bf16 add/sub/mul and friends
}

TEST_CASE("generation is deterministic and parses", "[instrgen]") {
  for (unsigned i = 0; i < 6; ++i) {
    Test a = generate(7, i), b = generate(7, i);
    REQUIRE(a.variants.size() == b.variants.size());
    REQUIRE(!a.variants.empty());
    for (size_t k = 0; k < a.variants.size(); ++k) {
      CHECK(a.variants[k].ptx == b.variants[k].ptx);
      CHECK(a.variants[k].spec_json == b.variants[k].spec_json);
      REQUIRE_NOTHROW(ptxcheck::parse_module(a.variants[k].ptx, a.variants[k].name));
    }
    CHECK(a.slots.size() == 40);
    CHECK(generate(8, i).variants[0].ptx != a.variants[0].ptx);
  }
}

TEST_CASE("approx results never feed later instructions", "[instrgen]") {
  unsigned approx_seen = 0;
  for (unsigned i = 0; i < 20; ++i) {
    Test t = generate(3, i, {60, 4});
    const std::string& ptx = t.variants[0].ptx;
    std::istringstream in(ptx);
    std::string line;
    std::set<std::string> tainted;
    while (std::getline(in, line)) {
      std::smatch m;
      for (const auto& r : tainted)
        if (line.find(r + ",") != std::string::npos || line.find(r + ";") != std::string::npos)
          CHECK((line.find("st.global") != std::string::npos || line.find("selp.u32") == 1));
      static const std::regex approx_re(R"(^\t\S+\.approx\S* (%\w+),)");
      if (std::regex_search(line, m, approx_re)) {
        tainted.insert(m[1].str());
        ++approx_seen;
      }
    }
  }
  CHECK(approx_seen > 0);
}

TEST_CASE("ptxas accepts generated kernels for sm_80 and sm_90", "[instrgen-ptxas]") {
  const std::string ptxas = find_ptxas();
  if (ptxas.empty()) {
    WARN("ptxas not found; skipping");
    return;
  }
  auto dir = tmpdir("ptxas");
  std::vector<std::pair<std::string, int>> files;
  for (unsigned i = 0; i < 16; ++i) {
    Test t = generate(11, i, {60, 4});
    write_test(t, dir.string());
    for (const auto& k : t.variants) files.push_back({(dir / (k.name + ".ptx")).string(), k.sm});
  }
  auto job = [&](size_t i) {
    std::string cmd = ptxas + " -arch=sm_" + std::to_string(files[i].second) + " " + files[i].first + " -o /dev/null";
    return std::system(cmd.c_str()) == 0;
  };
  for (size_t i = 0; i < files.size(); i += 2) {
    auto a = std::async(std::launch::async, job, i);
    bool b = i + 1 < files.size() ? job(i + 1) : true;
    INFO(files[i].first);
    CHECK(a.get());
    INFO(files[i + 1 < files.size() ? i + 1 : i].first);
    CHECK(b);
  }
  fs::remove_all(dir);
}

TEST_CASE("generated kernels run under ptxcheck without a diagnostic", "[instrgen-run]") {
  auto dir = tmpdir("run");
  std::set<std::string> used;
  for (unsigned i = 0; i < 80; ++i) {
    Test t = generate(5, i);
    write_test(t, dir.string());
    used.insert(t.mnemonics.begin(), t.mnemonics.end());
    for (const auto& k : t.variants) {
      const std::string spec = (dir / (k.name + ".json")).string();
      INFO(spec);
      ptxcheck::interp::RunReport r = ptxcheck::interp::run_spec_file(spec, {});
      CHECK(r.result.ok);
      CHECK(r.result.diagnostics.empty());
      // ptxcheck's own values, written as a recording, compare equal.
      std::string rec = (dir / (k.name + ".recording.json")).string();
      std::ofstream(rec) << self_recording(spec, dir.string());
      CompareResult c = compare_recording(rec);
      CHECK(c.ok());
      CHECK(c.compared == 32 * t.slots.size());
    }
  }
  CHECK(used.size() > 500);
  fs::remove_all(dir);
}
