// End to end without a GPU: generated modules run by the unmodified host
// program on the driver-API shim (cuda/: libcuda.so.1 on the ptxcheck
// interpreter) with tiny parameters; every recording must compare without a
// VIOLATION. Skips when the host program or the shim was not built.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "hw/litmus/compare.hpp"
#include "hw/litmus/ptx_gen.hpp"
#include "support.hpp"

using namespace ptxcheck;
namespace fs = std::filesystem;

TEST_CASE("litmus tests on the shim: no violation", "[hw-shim]") {
  const char* host = std::getenv("PTXCHECK_LITMUS_HOST");
  const char* shim = std::getenv("PTXCHECK_SHIM_DIR");
  if (!host || !*host || !fs::exists(host) || !shim || !fs::exists(fs::path(shim) / "libcuda.so.1")) {
    WARN("host program or shim not built: skipped");
    return;
  }
  fs::path dir = fs::temp_directory_path() / ("ptxcheck-hw-shim-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "params.json") << R"({"iterations": 2, "testingWorkgroups": 4, "maxWorkgroups": 5,
    "workgroupSize": 64, "spinLimit": 64, "memStressPct": 100, "memStressIterations": 8,
    "preStressPct": 100, "preStressIterations": 4, "barrierPct": 100, "stressTargetLines": 3})";
  const char* toolkit = std::getenv("PTXCHECK_LITMUS_HOST_TOOLKIT");
  // litmus/ tests, and the generator's coverage fixtures: single-thread tests
  // with one permitted outcome, so the interpreter running the generated PTX
  // must agree value for value with ptxcheck's litmus semantics.
  std::vector<std::string> paths;
  for (const char* name : {"mp", "sb", "mp+bar", "atomicity", "2+2w", "corr", "iriw", "mp+loop", "wrc", "mp+red", "atom-minmax"})
    paths.push_back(hwtest::src_root() + "/litmus/" + name + ".litmus");
  for (const auto& f : hwtest::forms_fixtures()) paths.push_back(f);
  for (const auto& path : paths) {
    std::string name = fs::path(path).stem().string();
    // mp also through the host built against the toolkit's cuda.h (same ABI).
    bool both = name == "mp" && toolkit && *toolkit && fs::exists(toolkit);
    for (const char* h : both ? std::vector<const char*>{host, toolkit} : std::vector<const char*>{host}) {
      INFO(name << " with " << h);
      std::string text = hwtest::slurp(path);
      hw::Generated g = hw::generate(litmus::parse_litmus_text(text, path), "sm_80", path, text);
      std::string stem = (dir / name).string();
      std::ofstream(stem + ".ptx") << g.ptx;
      std::ofstream(stem + ".bundle.json") << hw::bundle_to_json(g.bundle).dump();
      std::string out;
      int rc = hwtest::run("LD_LIBRARY_PATH=" + std::string(shim) + " " + h + " " + stem + ".bundle.json --params " +
                               (dir / "params.json").string() + " --seed 5 --out " + stem + ".rec.json",
                           out);
      INFO(out);
      REQUIRE(rc == 0);
      hw::Recording r = hw::read_recording(stem + ".rec.json");
      CHECK(r.instances > 0);
      CHECK(r.gpu != "");
      hw::Permitted p = hw::permitted(litmus::parse_litmus_text(r.litmus_text, path), {});
      hw::Comparison c = hw::compare(r, p);
      INFO(hw::comparison_text(r, c, p));
      CHECK(c.violations == 0);
      CHECK(c.undecided == 0);
      CHECK(c.witnessed > 0);
    }
  }
  fs::remove_all(dir);
}
