// Generator tests: every litmus/ test and the Dat3M corpus generate (or are
// reported not expressible for a named reason); the outcome tuple matches
// ptxcheck's state text; ptxas accepts the modules for sm_80 and sm_90.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "hw/litmus/ptx_gen.hpp"
#include "memmodel/engine.hpp"
#include "semantics/litmus/check.hpp"
#include "support.hpp"

using namespace ptxcheck;
namespace fs = std::filesystem;

namespace {

hw::Generated gen_file(const std::string& path, const std::string& arch) {
  std::string text = hwtest::slurp(path);
  return hw::generate(litmus::parse_litmus_text(text, path), arch, path, text);
}

hw::Generated gen_text(const std::string& text, const std::string& arch) {
  return hw::generate(litmus::parse_litmus_text(text, "inline.litmus"), arch, "inline.litmus", text);
}

std::vector<std::string> names_of(const std::string& state) {  // "1:%r0=0; x=1;" -> {1:%r0, x}
  std::vector<std::string> out;
  size_t at = 0;
  while (at < state.size()) {
    size_t eq = state.find('=', at), semi = state.find(';', at);
    out.push_back(state.substr(at, eq - at));
    at = semi + 1;
    while (at < state.size() && state[at] == ' ') ++at;
  }
  return out;
}

const char* kMpTemplate = R"(PTX t
{ .global .u32 x = 0; .global .u32 y = 0; %LOCS% }
T0 @ %P0% { st.global.u32 [x], 1; %BODY0% st.global.release.gpu.u32 [y], 1; }
T1 @ %P1% { ld.global.acquire.gpu.u32 %r0, [y]; ld.global.u32 %r1, [x]; }
exists (T1:%r0 == 1 /\ T1:%r1 == 0)
)";

std::string mp_variant(const std::string& p0, const std::string& p1, const std::string& body0 = "",
                       const std::string& locs = "") {
  std::string s = kMpTemplate;
  auto sub = [&](const std::string& k, const std::string& v) { s.replace(s.find(k), k.size(), v); };
  sub("%LOCS%", locs);
  sub("%P0%", p0);
  sub("%BODY0%", body0);
  sub("%P1%", p1);
  return s;
}

}  // namespace

TEST_CASE("every litmus/ test generates for sm_80 and sm_90, bundles round-trip", "[hw-gen]") {
  auto files = hwtest::litmus_dir_files();
  REQUIRE(files.size() >= 20);
  for (const auto& f : files) {
    for (const char* arch : {"sm_80", "sm_90"}) {
      INFO(f << " " << arch);
      hw::Generated g = gen_file(f, arch);
      CHECK(g.ptx.find(std::string(".target ") + arch) != std::string::npos);
      CHECK(g.ptx.find(".entry litmus_test") != std::string::npos);
      nlohmann::json j = hw::bundle_to_json(g.bundle);
      CHECK(hw::bundle_to_json(hw::bundle_from_json(j)) == j);
      CHECK(g.bundle.roles.size() == litmus::parse_litmus_text(g.bundle.litmus_text, f).threads.size());
    }
  }
}

TEST_CASE("the outcome tuple names ptxcheck's state variables in its order", "[hw-gen]") {
  auto engine = mm::make_enum_engine();
  for (const auto& f : hwtest::litmus_dir_files()) {
    INFO(f);
    hw::Generated g = gen_file(f, "sm_90");
    litmus::Test t = litmus::parse_litmus_file(f);
    litmus::Program p = litmus::lower(t);
    litmus::CheckResult res = litmus::check(p, *engine, {});
    REQUIRE(!res.states.empty());
    std::vector<std::string> names;
    for (const auto& o : g.bundle.obs) names.push_back(o.name);
    for (const auto& s : res.states) CHECK(names_of(s.text) == names);
    // And outcome_text prints a permitted state exactly as ptxcheck does.
    const std::string& first = res.states.front().text;
    std::vector<uint64_t> values;
    size_t at = 0;
    while ((at = first.find('=', at)) != std::string::npos) values.push_back(std::stoll(first.substr(++at)));
    CHECK(hw::outcome_text(g.bundle, values) == first);
  }
}

TEST_CASE("placement follows the scope tree", "[hw-gen]") {
  SECTION("different CTAs: two clusters of one CTA each") {
    auto b = gen_text(mp_variant("cta 0, gpu 0", "cta 1, gpu 0"), "sm_80").bundle;
    CHECK(b.clusters == 2);
    CHECK(b.cluster_size == 1);
    CHECK(b.roles[0].cluster != b.roles[1].cluster);
  }
  SECTION("same CTA, warps named: same warp group") {
    auto b = gen_text(mp_variant("cta 0, warp 3", "cta 0, warp 3"), "sm_80").bundle;
    CHECK(b.clusters == 1);
    CHECK(b.roles[0].group == b.roles[1].group);
    CHECK(b.group_size == 2);
  }
  SECTION("same CTA, no warps: different warp groups") {
    auto b = gen_text(mp_variant("cta 0", "cta 0"), "sm_80").bundle;
    CHECK(b.roles[0].group != b.roles[1].group);
  }
  SECTION("one cluster of two CTAs needs sm_90 and a compile-time cluster shape") {
    std::string t = mp_variant("cta 0, cluster 0", "cta 1, cluster 0");
    CHECK_THROWS_AS(gen_text(t, "sm_80"), hw::NotExpressible);
    hw::Generated g = gen_text(t, "sm_90");
    CHECK(g.bundle.cluster_size == 2);
    CHECK(g.ptx.find(".reqnctapercluster 2, 1, 1") != std::string::npos);
  }
}

TEST_CASE("what the harness cannot express is named", "[hw-gen]") {
  auto reason = [](const std::string& text, const std::string& arch = "sm_90") -> std::string {
    try {
      gen_text(text, arch);
    } catch (const hw::NotExpressible& e) {
      return e.what();
    }
    return "";
  };
  CHECK_THAT(reason(mp_variant("cta 0, gpu 0", "cta 1, gpu 1")), Catch::Contains("several GPUs"));
  CHECK_THAT(reason(mp_variant("cta 0", "cta 1", "", ".global .u32 z aliases x;")), Catch::Contains("aliases"));
  CHECK_THAT(reason(mp_variant("cta 0", "cta 1", "st.global.relaxed.cluster.u32 [x], 2;"), "sm_80"),
             Catch::Contains("cluster"));
  CHECK_THAT(reason(mp_variant("cta 0", "cta 0", "bar.sync 1, 64;")), Catch::Contains("thread count"));
  CHECK(reason(mp_variant("cta 0", "cta 0", "bar.sync 1;")).empty());
}

TEST_CASE("the Dat3M corpus generates or is reported not expressible", "[hw-gen]") {
  auto files = hwtest::dat3m_sample(1);
  if (files.empty()) {
    WARN("Dat3M corpus absent: skipped");
    return;
  }
  size_t ok = 0, no = 0;
  for (const auto& f : files) {
    INFO(f);
    try {
      gen_file(f, "sm_90");
      ++ok;
    } catch (const hw::NotExpressible& e) {
      ++no;
    }
  }
  WARN("Dat3M: " << ok << " generated, " << no << " not expressible, of " << files.size());
  CHECK(ok >= files.size() / 2);
}

TEST_CASE("ptxas accepts the modules for sm_80 and sm_90", "[hw-ptxas]") {
  if (!hwtest::have_program("ptxas")) {
    WARN("ptxas not found: skipped");
    return;
  }
  fs::path dir = fs::temp_directory_path() / ("ptxcheck-hw-ptxas-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::vector<std::pair<std::string, std::string>> jobs;  // (ptx file, arch)
  auto add = [&](const std::string& f, const std::string& arch) {
    hw::Generated g = gen_file(f, arch);
    std::string out = (dir / (std::to_string(jobs.size()) + "." + arch + ".ptx")).string();
    std::ofstream(out) << g.ptx;
    jobs.emplace_back(out, arch);
  };
  for (const auto& f : hwtest::litmus_dir_files())
    for (const char* arch : {"sm_80", "sm_90"}) add(f, arch);
  for (const auto& f : hwtest::forms_fixtures())
    for (const char* arch : {"sm_80", "sm_90"}) add(f, arch);
  size_t dat3m = 0;
  for (const auto& f : hwtest::dat3m_sample(7)) {
    if (dat3m >= 50) break;
    try {
      add(f, "sm_90");
    } catch (const hw::NotExpressible&) {
      continue;
    }
    ++dat3m;
    try {
      add(f, "sm_80");
    } catch (const hw::NotExpressible& e) {
      CHECK_THAT(e.what(), Catch::Contains("sm_90"));  // only cluster features may be missing
    }
  }
  if (!hwtest::dat3m_sample(7).empty()) CHECK(dat3m >= 50);
  std::mutex m;
  std::vector<std::string> failures;
  size_t next = 0;
  auto worker = [&] {
    for (;;) {
      size_t i;
      {
        std::lock_guard<std::mutex> g(m);
        if (next >= jobs.size()) return;
        i = next++;
      }
      std::string out;
      int rc = hwtest::run("ptxas -arch=" + jobs[i].second + " " + jobs[i].first + " -o /dev/null", out);
      if (rc != 0) {
        std::lock_guard<std::mutex> g(m);
        failures.push_back(jobs[i].first + ": " + out);
      }
    }
  };
  std::thread a(worker), b(worker);
  a.join();
  b.join();
  for (const auto& f : failures) FAIL_CHECK(f);
  WARN("ptxas: " << jobs.size() << " modules assembled (" << dat3m << " Dat3M tests)");
  if (failures.empty()) fs::remove_all(dir);
}
