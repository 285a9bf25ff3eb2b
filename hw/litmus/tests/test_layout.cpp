// Launch planning: every instance gets each role exactly once, placed as the
// scope tree says, for many parameter sets and seeds; the checker itself
// catches broken plans; parameters parse as documented.
#include <catch2/catch.hpp>

#include "hw/litmus/layout.hpp"
#include "hw/litmus/ptx_gen.hpp"
#include "support.hpp"

using namespace ptxcheck;

namespace {

hw::Bundle bundle_of(const std::string& path) {
  std::string text = hwtest::slurp(path);
  return hw::generate(litmus::parse_litmus_text(text, path), "sm_90", path, text).bundle;
}

hw::Params params(const std::string& json) { return hw::params_from_json(nlohmann::json::parse(json)); }

}  // namespace

TEST_CASE("plans place every role of every instance as the scope tree says", "[hw-layout]") {
  std::vector<hw::Params> sets = {
      params(R"({"testingWorkgroups": 4, "maxWorkgroups": 8, "workgroupSize": 64})"),
      params(R"({"testingWorkgroups": 5, "maxWorkgroups": 5, "workgroupSize": 96, "memStride": 3})"),
      params(R"({"testingWorkgroups": 8, "maxWorkgroups": 16, "workgroupSize": 256, "shufflePct": 50})"),
  };
  size_t plans = 0;
  for (const auto& f : hwtest::litmus_dir_files()) {
    hw::Bundle b = bundle_of(f);
    for (const auto& p : sets)
      for (uint64_t seed : {1, 2, 3}) {
        INFO(f << " seed " << seed);
        hw::Rng rng(seed);
        hw::LaunchPlan plan = hw::plan_launch(b, p, rng);
        CHECK(hw::check_launch(b, plan) == "");
        CHECK(plan.instances > 0);
        CHECK(plan.grid >= plan.testing);
        CHECK(plan.grid <= std::max(p.maxWorkgroups, plan.testing));
        ++plans;
      }
  }
  CHECK(plans > 100);
}

TEST_CASE("clusters and warps are honoured", "[hw-layout]") {
  const char* text = R"(PTX c
{ .global .u32 x = 0; }
T0 @ cta 0, cluster 0, warp 1 { st.global.relaxed.cluster.u32 [x], 1; }
T1 @ cta 0, cluster 0, warp 1 { ld.global.relaxed.cluster.u32 %r0, [x]; }
T2 @ cta 1, cluster 0 { ld.global.relaxed.cluster.u32 %r0, [x]; }
T3 @ cta 2, cluster 1 { ld.global.relaxed.cluster.u32 %r0, [x]; }
exists (T1:%r0 == 1)
)";
  hw::Bundle b = hw::generate(litmus::parse_litmus_text(text, "c.litmus"), "sm_90", "c.litmus", text).bundle;
  CHECK(b.cluster_size == 2);
  CHECK(b.clusters == 2);
  hw::Params p = params(R"({"testingWorkgroups": 6, "maxWorkgroups": 9, "workgroupSize": 64})");
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    hw::Rng rng(seed);
    hw::LaunchPlan plan = hw::plan_launch(b, p, rng);
    CHECK(plan.grid % 2 == 0);
    CHECK(plan.testing == 6);
    CHECK(hw::check_launch(b, plan) == "");
  }
}

TEST_CASE("check_launch rejects broken plans", "[hw-layout]") {
  hw::Bundle b = bundle_of(hwtest::src_root() + "/litmus/mp.litmus");
  hw::Params p = params(R"({"testingWorkgroups": 4, "workgroupSize": 64, "maxWorkgroups": 4})");
  hw::Rng rng(9);
  hw::LaunchPlan good = hw::plan_launch(b, p, rng);
  REQUIRE(hw::check_launch(b, good) == "");
  {
    hw::LaunchPlan bad = good;  // a role lost
    for (auto& r : bad.roles)
      if (r >= 0) {
        r = -1;
        break;
      }
    CHECK(hw::check_launch(b, bad) != "");
  }
  {
    hw::LaunchPlan bad = good;  // both roles of instance 0 in one CTA although mp puts them apart
    size_t w = bad.block;
    int r0 = -1, r1 = -1;
    for (size_t g = 0; g < bad.roles.size(); ++g) {
      if (bad.roles[g] == 0) r0 = static_cast<int>(g);
      if (bad.roles[g] == 1) r1 = static_cast<int>(g);
    }
    REQUIRE((r0 >= 0 && r1 >= 0));
    size_t target = (r0 / w) * w + ((r0 % w) + 1) % w;  // a neighbour of role 0
    std::swap(bad.roles[target], bad.roles[r1]);
    CHECK(hw::check_launch(b, bad) != "");
  }
  {
    hw::LaunchPlan bad = good;  // two instances share a location
    bad.loc_offset[1] = bad.loc_offset[0];
    CHECK(hw::check_launch(b, bad) != "");
  }
}

TEST_CASE("too small a launch is refused with the parameter named", "[hw-layout]") {
  hw::Bundle b = bundle_of(hwtest::src_root() + "/litmus/iriw.litmus");
  hw::Rng rng(1);
  CHECK_THROWS_WITH(hw::plan_launch(b, params(R"({"testingWorkgroups": 2, "maxWorkgroups": 2})"), rng),
                    Catch::Contains("testingWorkgroups"));
  hw::Bundle bar = bundle_of(hwtest::src_root() + "/litmus/mp+bar.litmus");
  CHECK_THROWS_WITH(hw::plan_launch(bar, params(R"({"workgroupSize": 32})"), rng), Catch::Contains("workgroupSize"));
}

TEST_CASE("parameters: GPUHarbor names, defaults, validation", "[hw-layout]") {
  hw::Params d;
  CHECK(d.permuteThread == 419);
  CHECK(d.permuteLocation == 1031);
  nlohmann::json j = hw::params_to_json(d);
  for (const char* k : {"testingWorkgroups", "maxWorkgroups", "workgroupSize", "memStride", "memStressPct",
                        "memStressIterations", "memStressPattern", "preStressPct", "preStressIterations",
                        "preStressPattern", "stressLineSize", "stressTargetLines", "barrierPct", "permuteThread",
                        "permuteLocation"})
    CHECK(j.contains(k));
  CHECK(hw::params_to_json(hw::params_from_json(j)) == j);
  CHECK_THROWS_WITH(params(R"({"memStres": 1})"), Catch::Contains("memStres"));
  CHECK_THROWS(params(R"({"memStressPattern": 4})"));
  CHECK_THROWS(params(R"({"testingWorkgroups": 8, "maxWorkgroups": 4})"));
  CHECK_THROWS(params(R"({"workgroupSize": "64"})"));
  for (uint32_t n : {1u, 7u, 32u, 419u, 1000u}) {  // permute_id is a bijection
    std::vector<bool> hit(n, false);
    for (uint32_t i = 0; i < n; ++i) hit[hw::permute_id(i, 419, n)] = true;
    CHECK(std::count(hit.begin(), hit.end(), true) == static_cast<long>(n));
  }
}
