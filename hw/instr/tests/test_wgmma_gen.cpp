// wgmma and mma.sp test generators (ptxcheck-instrgen wgmma, mma-sp): deterministic, covers
// every operand type, both A sources, every swizzle mode in both
// major-nesses, and the scale/transpose/satfinite options; ptxas accepts the
// kernels; they run under ptxcheck without a diagnostic, with non-trivial
// results that compare equal to ptxcheck's own recording and unequal once
// one element is changed.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "hw/instr/compare.hpp"
#include "hw/instr/tests/support.hpp"
#include "hw/instr/wgmma_gen.hpp"
#include "parser/parse.hpp"
#include "semantics/interp/run.hpp"

namespace fs = std::filesystem;
using namespace ptxcheck::instrgen;
using ptxcheck::instrgen::test::find_ptxas;

namespace {

fs::path tmpdir(const std::string& what) { return ptxcheck::instrgen::test::tmpdir("wgmmagen", what); }

}  // namespace

TEST_CASE("wgmma tests are deterministic and cover the types and layouts", "[instrgen-wgmma]") {
  std::set<std::string> seen;
  for (unsigned i = 0; i < 500; ++i) {
    Test a = generate_wgmma(1, i);
    REQUIRE(a.variants.size() == 1);
    const std::string& ptx = a.variants[0].ptx;
    if (i < 8) {
      Test b = generate_wgmma(1, i);
      CHECK(ptx == b.variants[0].ptx);
      CHECK(a.variants[0].spec_json == b.variants[0].spec_json);
      CHECK(generate_wgmma(2, i).variants[0].spec_json != a.variants[0].spec_json);
      REQUIRE_NOTHROW(ptxcheck::parse_module(ptx, a.variants[0].name));
    }
    const std::string& mn = a.mnemonics.at(0);
    for (const char* t : {".f16.f16", ".bf16.bf16", ".tf32.tf32", ".e4m3.", ".e5m2.", ".s8.", ".u8.", ".b1.b1"})
      if (mn.find(t) != std::string::npos) seen.insert(t);
    for (const char* d : {"k16.f16.", "k32.f16.", ".f32.", ".s32.", ".satfinite"})
      if (mn.find(d) != std::string::npos) seen.insert(d);
    for (const char* w :
         {"A from registers", "A K-major, no swizzle", "B K-major, 128B swizzle, K at +96", "64B swizzle, K at +32",
          "K-major, 32B swizzle", "A MN-major, 128B swizzle", "B MN-major, 64B swizzle", "B MN-major, 32B swizzle",
          "MN-major, no swizzle", "scale-d 0", "inf/NaN/-0", ", -1, 1", ", 1, -1"})
      if (ptx.find(w) != std::string::npos) seen.insert(w);
  }
  for (const auto& s : seen) UNSCOPED_INFO(s);
  CHECK(seen.size() == 8 + 5 + 13);
}

// wgmma.mma_async.sp tests (ptxcheck-instrgen wgmma --sparse): deterministic,
// every sparse type family, both selectors, both A sources, every B layout
// family the generator draws; the dense stream is unchanged by them.
TEST_CASE("sparse wgmma tests are deterministic and cover the types and layouts", "[instrgen-wgmma]") {
  std::set<std::string> seen;
  for (unsigned i = 0; i < 300; ++i) {
    Test a = generate_wgmma_sp(1, i);
    REQUIRE(a.variants.size() == 1);
    const std::string& ptx = a.variants[0].ptx;
    if (i < 6) {
      Test b = generate_wgmma_sp(1, i);
      CHECK(ptx == b.variants[0].ptx);
      CHECK(a.variants[0].spec_json == b.variants[0].spec_json);
      CHECK(generate_wgmma_sp(2, i).variants[0].spec_json != a.variants[0].spec_json);
      CHECK(generate_wgmma(1, i).variants[0].spec_json != a.variants[0].spec_json);
      REQUIRE_NOTHROW(ptxcheck::parse_module(ptx, a.variants[0].name));
    }
    const std::string& mn = a.mnemonics.at(0);
    CHECK(mn.find("wgmma.mma_async.sp.sync.aligned") == 0);
    for (const char* t : {"k32.f16.f16.f16", "k32.f32.f16.f16", "k32.f32.bf16.bf16", "k16.f32.tf32.tf32", ".e4m3.e5m2",
                          ".e5m2.e4m3", "k64.f16.", ".s8.u8", ".u8.u8", ".satfinite"})
      if (mn.find(t) != std::string::npos) seen.insert(t);
    for (const char* w : {"A from registers", "A K-major, 32B swizzle", "A MN-major", "B K-major, no swizzle",
                          "B K-major, 128B swizzle, K at +64", "B K-major, 64B swizzle", "B MN-major, no swizzle",
                          "B MN-major, 32B swizzle", "sp-sel 0", "sp-sel 1", "either order", "inf/NaN/-0", "scale-d 0"})
      if (ptx.find(w) != std::string::npos) seen.insert(w);
  }
  for (const auto& s : seen) UNSCOPED_INFO(s);
  CHECK(seen.size() == 10 + 13);
}

// mma.sp tests (ptxcheck-instrgen mma-sp): deterministic, every shape and
// type family, both forms, every selector kind; ptxas accepts them for the
// target each declares; they run under ptxcheck without a diagnostic.
TEST_CASE("mma.sp tests are deterministic and cover the shapes, types and forms", "[instrgen-wgmma]") {
  std::set<std::string> seen;
  for (unsigned i = 0; i < 300; ++i) {
    Test a = generate_mma_sp(1, i);
    REQUIRE(a.variants.size() == 1);
    const std::string& ptx = a.variants[0].ptx;
    if (i < 6) {
      Test b = generate_mma_sp(1, i);
      CHECK(ptx == b.variants[0].ptx);
      CHECK(a.variants[0].spec_json == b.variants[0].spec_json);
      CHECK(generate_mma_sp(2, i).variants[0].spec_json != a.variants[0].spec_json);
      REQUIRE_NOTHROW(ptxcheck::parse_module(ptx, a.variants[0].name));
    }
    const std::string& mn = a.mnemonics.at(0);
    CHECK(mn.find("mma.sp") == 0);
    for (const char* t :
         {"mma.sp.sync", "mma.sp::ordered_metadata.sync", "k16.row.col.f16.f16", "k32.row.col.f32.f16",
          "k16.row.col.f32.bf16", "k32.row.col.f32.bf16", "k8.row.col.f32.tf32", "k16.row.col.f32.tf32",
          "k32.row.col.s32.s8", "k64.row.col.satfinite.s32.u8", "k64.row.col.s32.s4", "k128.row.col.satfinite.s32.u4",
          "k64.row.col.f32.e4m3.e5m2", "kind::f8f6f4.f16", ".e3m2", ".e2m3", ".e2m1.e2m1"})
      if (mn.find(t) != std::string::npos) seen.insert(t);
    for (const char* w : {"selector 0", "selector 1", "selector 2", "selector 3", "either order", "inf/NaN/-0",
                          ".target sm_80", ".target sm_89", ".target sm_120a"})
      if (ptx.find(w) != std::string::npos) seen.insert(w);
  }
  for (const auto& s : seen) UNSCOPED_INFO(s);
  CHECK(seen.size() == 17 + 9);
}

// The three generators' kernels, one row each: ptxas accepts `ptxas_count`
// of them for the target each declares; `run_count` run under ptxcheck
// without a diagnostic, with mostly non-zero results that compare equal to
// ptxcheck's own recording (`lanes` elements per slot) and unequal once one
// element is changed in its lowest bit (bit-exact slots).
struct GenRow {
  const char* name;
  Test (*gen)(uint64_t, unsigned);
  unsigned ptxas_count, run_count, lanes;
};
const GenRow kGenRows[] = {
    {"wgmma", generate_wgmma, 12, 6, 128},
    {"wgmma-sp", generate_wgmma_sp, 8, 5, 128},
    {"mma-sp", generate_mma_sp, 12, 8, 32},
};

TEST_CASE("ptxas accepts generated wgmma, wgmma.mma_async.sp and mma.sp kernels", "[instrgen-wgmma]") {
  const std::string ptxas = find_ptxas();
  if (ptxas.empty()) {
    WARN("ptxas not found; skipping");
    return;
  }
  for (const GenRow& row : kGenRows) {
    INFO(row.name);
    auto dir = tmpdir(std::string("ptxas-") + row.name);
    for (unsigned i = 0; i < row.ptxas_count; ++i) {
      Test t = row.gen(3, i);
      write_test(t, dir.string());
      const auto& k = t.variants[0];
      const std::string f = (dir / (k.name + ".ptx")).string();
      const std::string arch = k.sm == 120 ? "sm_120a" : k.sm == 90 ? "sm_90a" : "sm_" + std::to_string(k.sm);
      INFO(f << ": " << t.mnemonics[0] << " for " << arch);
      CHECK(std::system((ptxas + " -arch=" + arch + " " + f + " -o /dev/null 2>/dev/null").c_str()) == 0);
    }
    fs::remove_all(dir);
  }
}

TEST_CASE("generated wgmma, wgmma.mma_async.sp and mma.sp kernels run under ptxcheck and replay", "[instrgen-wgmma]") {
  for (const GenRow& row : kGenRows) {
    INFO(row.name);
    auto dir = tmpdir(std::string("run-") + row.name);
    unsigned nonzero = 0, total = 0;
    for (unsigned i = 0; i < row.run_count; ++i) {
      Test t = row.gen(5, i);
      write_test(t, dir.string());
      const auto& k = t.variants[0];
      const std::string spec = (dir / (k.name + ".json")).string();
      INFO(spec << ": " << t.mnemonics[0]);
      ptxcheck::interp::RunReport r = ptxcheck::interp::run_spec_file(spec, {});
      CHECK(r.result.ok);
      CHECK(r.result.diagnostics.empty());
      const std::string rec = (dir / (k.name + ".recording.json")).string();
      std::ofstream(rec) << self_recording(spec, dir.string());
      CompareResult c = compare_recording(rec);
      CHECK(c.ok());
      CHECK(c.compared == row.lanes * t.slots.size());
      // One element changed in its lowest bit is a mismatch (bit-exact slots).
      std::ifstream in(rec);
      nlohmann::json j = nlohmann::json::parse(in);
      auto& out = j["outputs"]["out"];
      for (const auto& v : out) {
        ++total;
        nonzero += std::stoull(v.get<std::string>(), nullptr, 16) != 0;
      }
      uint64_t v0 = std::stoull(out[3].get<std::string>(), nullptr, 16) ^ 1;
      char buf[24];
      std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v0));
      out[3] = buf;
      std::ofstream(rec) << j.dump(1);
      CompareResult bad = compare_recording(rec);
      CHECK(bad.mismatches == 1);
    }
    CHECK(nonzero * 4 > total * 3);  // results are mostly non-zero
    fs::remove_all(dir);
  }
}

// The committed vector sets (hw/instr/vectors/, hw/README.md) are the
// generators' output for the commands their READMEs give (seed 1, 32 tests
// each): a generator change that would make them stale fails here.
TEST_CASE("committed wgmma, wgmma.mma_async.sp and mma.sp vectors are the generators' output", "[instrgen-wgmma]") {
  const char* src = std::getenv("PTXCHECK_SRC");
  const fs::path root = fs::path(src ? src : ".") / "hw" / "instr" / "vectors";
  struct Set {
    const char* dir;
    Test (*gen)(uint64_t, unsigned);
  };
  for (const Set& s :
       {Set{"wgmma", generate_wgmma}, Set{"wgmma_sp", generate_wgmma_sp}, Set{"mma_sp", generate_mma_sp}}) {
    const fs::path d = root / s.dir;
    REQUIRE(fs::is_directory(d));
    size_t files = 0;
    for (const auto& e : fs::directory_iterator(d)) files += e.path().extension() == ".ptx";
    CHECK(files == 32);
    for (unsigned i = 0; i < 32; ++i) {
      Test t = s.gen(1, i);
      for (const auto& k : t.variants)
        for (const auto& [ext, text] : {std::pair<std::string, const std::string*>{".ptx", &k.ptx},
                                        {".json", &k.spec_json},
                                        {".manifest.json", &k.manifest_json}}) {
          std::ifstream in(d / (k.name + ext), std::ios::binary);
          std::string got((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
          INFO((d / (k.name + ext)).string());
          CHECK(got == *text);
        }
    }
  }
}
