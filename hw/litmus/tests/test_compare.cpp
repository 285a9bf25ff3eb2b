// Comparator, replay and mutants: synthetic recordings (hand-written
// fixtures, no GPU) must classify as expected; the CLI's exit codes follow
// the contract; mutants have killing outcomes that only they permit.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>

#include "hw/litmus/compare.hpp"
#include "hw/litmus/mutants.hpp"
#include "support.hpp"

using namespace ptxcheck;

namespace {

std::string fixture(const std::string& rel) { return hwtest::src_root() + "/hw/litmus/tests/fixtures/" + rel; }

hw::Comparison compare_file(const std::string& path, hw::Permitted* out = nullptr) {
  hw::Recording r = hw::read_recording(path);
  hw::Permitted p = hw::permitted(litmus::parse_litmus_text(r.litmus_text, path), {});
  if (out) *out = p;
  return hw::compare(r, p);
}

std::string tool() {
  const char* t = std::getenv("PTXCHECK_HW");
  return t ? t : "";
}

}  // namespace

TEST_CASE("an allowed-only recording passes, a forbidden outcome is a VIOLATION", "[hw-compare]") {
  hw::Comparison ok = compare_file(fixture("ok/mp.recording.json"));
  CHECK(ok.violations == 0);
  CHECK(ok.witnessed == 3);
  CHECK(ok.unseen == 0);

  hw::Permitted p;
  hw::Comparison bad = compare_file(fixture("violation/mp.recording.json"), &p);
  CHECK(bad.violations == 1);
  REQUIRE(!bad.outcomes.empty());
  CHECK(bad.outcomes[0].cls == hw::Class::Violation);
  CHECK(bad.outcomes[0].outcome == "1:%r0=1; 1:%r1=0;");
  CHECK(bad.outcomes[0].count == 2);
  CHECK(bad.unseen == 1);
  for (const auto& o : bad.outcomes)
    if (o.cls == hw::Class::Unseen) CHECK(o.rate_bound == Approx(3.0 / 1000));
  std::string text = hw::comparison_text(hw::read_recording(fixture("violation/mp.recording.json")), bad, p);
  CHECK_THAT(text, Catch::Contains("Replay: seed 7"));
  CHECK_THAT(text, Catch::Contains("\"workgroupSize\":64"));
}

TEST_CASE("model flags change the permitted set as ptxcheck --model does", "[hw-compare]") {
  // With relaxed accesses PTX permits MP's weak outcome; SC does not.
  litmus::Test t = litmus::parse_litmus_file(hwtest::src_root() + "/litmus/mp+relaxed.litmus");
  hw::ModelConfig sc;
  sc.model = "sc";
  hw::Permitted ptx = hw::permitted(t, {}), seq = hw::permitted(t, sc);
  CHECK(seq.outcomes.size() < ptx.outcomes.size());
  for (const auto& o : seq.outcomes) CHECK(ptx.outcomes.count(o));
  hw::ModelConfig bogus;
  bogus.model = "x86";
  CHECK_THROWS_AS(hw::permitted(t, bogus), std::invalid_argument);
}

TEST_CASE("an outcome beyond the loop bound is UNDECIDED, not a VIOLATION", "[hw-compare]") {
  const char* text = R"(PTX count
{ .global .u32 x = 0; }
T0 @ cta 0 {
L:
  add.u32 %r0, %r0, 1;
  setp.lt.u32 %p, %r0, 3;
  @%p bra L;
  st.global.u32 [x], %r0;
}
exists (T0:%r0 == 3)
)";
  litmus::Test t = litmus::parse_litmus_text(text, "count.litmus");
  hw::Recording r;
  r.test = t.name;
  r.histogram["0:%r0=3;"] = 10;
  r.instances = 10;
  hw::ModelConfig one;
  one.max_unroll = 1;
  hw::Permitted cut = hw::permitted(t, one);
  CHECK(cut.bound_hit);
  hw::Comparison c = hw::compare(r, cut);
  CHECK(c.violations == 0);
  CHECK(c.undecided == 1);
  hw::Permitted full = hw::permitted(t, {});  // unroll grows until nothing is cut
  CHECK(!full.bound_hit);
  CHECK(full.unroll >= 2);
  CHECK(hw::compare(r, full).witnessed == 1);
  r.histogram = {{"0:%r0=4;", 10}};
  CHECK(hw::compare(r, full).violations == 1);
}

TEST_CASE("recordings are validated", "[hw-compare]") {
  nlohmann::json j = nlohmann::json::parse(hwtest::slurp(fixture("ok/mp.recording.json")));
  nlohmann::json once = hw::recording_to_json(hw::recording_from_json(j));  // parameters completed
  CHECK(hw::recording_to_json(hw::recording_from_json(once)) == once);
  CHECK(once["histogram"] == j["histogram"]);
  CHECK(once["parameters"]["workgroupSize"] == 64);
  CHECK(once["parameters"]["permuteThread"] == 419);
  nlohmann::json bad = j;
  bad["instances"] = 5;  // histogram sums to 1000
  CHECK_THROWS_AS(hw::recording_from_json(bad), std::invalid_argument);
  bad = j;
  bad["parameters"]["bogus"] = 1;
  CHECK_THROWS_AS(hw::recording_from_json(bad), std::invalid_argument);
  CHECK_THROWS_AS(hw::read_recording(fixture("missing.json")), std::invalid_argument);
}

TEST_CASE("ptxcheck-hw: replay exit codes", "[hw-cli]") {
  if (tool().empty()) FAIL("PTXCHECK_HW not set");
  std::string out;
  CHECK(hwtest::run(tool() + " replay " + fixture("ok"), out) == 0);
  CHECK_THAT(out, Catch::Contains("1 litmus recording"));
  CHECK(hwtest::run(tool() + " replay " + fixture("violation"), out) == 1);
  CHECK_THAT(out, Catch::Contains("VIOLATION  1:%r0=1; 1:%r1=0;"));
  CHECK_THAT(out, Catch::Contains("Replay: seed 7"));
  // Every recording in the corpus (our own and the published rows of
  // corpus/hw/literature) re-checks without violation.
  CHECK(hwtest::run(tool() + " replay --quiet " + hwtest::src_root() + "/corpus/hw", out) == 0);
  CHECK(hwtest::run(tool() + " compare " + fixture("missing.json"), out) == 2);
  CHECK(hwtest::run(tool() + " compare --model nope " + fixture("ok/mp.recording.json"), out) == 2);
}

TEST_CASE("literature rows: source, litmus_path, partial histogram, pre-model", "[hw-compare]") {
  hw::Recording r = hw::read_recording(fixture("literature/mp-relaxed.row.json"));
  REQUIRE(r.source);
  CHECK(r.source->citation.find("synthetic") != std::string::npos);
  CHECK(!r.has_params);
  CHECK(r.litmus_text.find("PTX mp+relaxed") != std::string::npos);  // loaded from litmus_path
  CHECK(r.unlisted == 990);
  hw::Permitted p = hw::permitted(litmus::parse_litmus_text(r.litmus_text, "row"), {});
  hw::Comparison c = hw::compare(r, p);
  CHECK(c.witnessed == 1);
  CHECK(c.unseen == 0);  // the other outcomes may be among the 990 unlisted runs
  CHECK(c.violations == 0);
  r.unlisted = 0;
  r.instances = 10;
  CHECK(hw::compare(r, p).unseen == p.outcomes.size() - 1);  // a full histogram names what it never saw

  hw::Recording pre = hw::read_recording(fixture("literature/mp-acqrel.pre-model.json"));
  hw::Permitted pp = hw::permitted(litmus::parse_litmus_text(pre.litmus_text, "pre"), {});
  hw::Comparison cp = hw::compare(pre, pp);
  CHECK(cp.pre_model == 1);
  CHECK(cp.violations == 0);
  REQUIRE(!cp.outcomes.empty());
  CHECK(cp.outcomes[0].cls == hw::Class::PreModel);
  CHECK_THAT(hw::comparison_text(pre, cp, pp), Catch::Contains("pre-model observation: synthetic"));
  pre.pre_model.clear();
  CHECK(hw::compare(pre, pp).violations == 1);  // the same outcome unmarked is a VIOLATION

  // Round trip keeps the literature fields and writes no harness parameters.
  nlohmann::json j = nlohmann::json::parse(hwtest::slurp(fixture("literature/mp-acqrel.pre-model.json")));
  nlohmann::json once = hw::recording_to_json(hw::recording_from_json(j));
  CHECK(!once.contains("parameters"));
  CHECK(!once.contains("litmus_text"));
  CHECK(once["source"] == j["source"]);
  CHECK(once["pre_model"] == j["pre_model"]);
  CHECK(once["unlisted"] == 99);
  CHECK(hw::recording_to_json(hw::recording_from_json(once)) == once);
}

TEST_CASE("literature rows are validated", "[hw-compare]") {
  nlohmann::json j = nlohmann::json::parse(hwtest::slurp(fixture("literature/mp-relaxed.row.json")));
  auto bad = [&](auto edit) {
    nlohmann::json b = j;
    edit(b);
    return b;
  };
  CHECK_NOTHROW(hw::recording_from_json(j));
  CHECK_THROWS_AS(hw::recording_from_json(bad([](auto& b) { b["source"]["citation"] = ""; })), std::invalid_argument);
  CHECK_THROWS_AS(hw::recording_from_json(bad([](auto& b) { b["source"].erase("table"); })), std::invalid_argument);
  CHECK_THROWS_AS(hw::recording_from_json(bad([](auto& b) {
                    b["source"]["repository"] = "a/b";
                    b["source"]["path"] = "c";
                    b["source"]["commit"] = "abc";  // not 40 hex digits
                  })),
                  std::invalid_argument);
  CHECK_THROWS_AS(hw::recording_from_json(bad([](auto& b) { b["source"]["bogus"] = 1; })), std::invalid_argument);
  CHECK_THROWS_AS(hw::recording_from_json(bad([](auto& b) { b.erase("architecture"); })), std::invalid_argument);
  CHECK_THROWS_AS(hw::recording_from_json(bad([](auto& b) { b["unlisted"] = 5; })), std::invalid_argument);
  CHECK_THROWS_AS(hw::recording_from_json(bad([](auto& b) { b.erase("litmus_path"); })), std::invalid_argument);
  // Without a source the harness fields are required and `unlisted` is refused.
  CHECK_THROWS_AS(hw::recording_from_json(bad([](auto& b) { b.erase("source"); })), std::invalid_argument);
  std::string tmp = "/tmp/ptxcheck-hw-lit-" + std::to_string(::getpid()) + ".json";
  std::system(("printf '%s' '" + bad([](auto& b) { b["litmus_path"] = "missing.litmus"; }).dump() + "' > " + tmp).c_str());
  CHECK_THROWS_AS(hw::read_recording(tmp), std::invalid_argument);
  std::remove(tmp.c_str());
}

TEST_CASE("ptxcheck-hw: a pre-model row is printed and does not fail", "[hw-cli]") {
  if (tool().empty()) FAIL("PTXCHECK_HW not set");
  std::string out;
  CHECK(hwtest::run(tool() + " replay --quiet " + fixture("literature"), out) == 0);
  CHECK_THAT(out, Catch::Contains("2 litmus recording"));
  CHECK_THAT(out, Catch::Contains("PRE-MODEL  1:%r0=1; 1:%r1=0;"));
  CHECK_THAT(out, Catch::Contains("source: synthetic fixture"));
  CHECK_THAT(out, Catch::Contains("replay: 0 with violations, 1 with pre-model outcomes"));
}

TEST_CASE("ptxcheck-hw gen: exit 2 naming what is not expressible", "[hw-cli]") {
  if (tool().empty()) FAIL("PTXCHECK_HW not set");
  std::string dir = "/tmp/ptxcheck-hw-cli-" + std::to_string(::getpid()), out;
  std::string alias = hwtest::shared_root() + "/corpus/dat3m-ptx/litmus/PTX/Manual/proxy";
  CHECK(hwtest::run(tool() + " gen --out " + dir + " " + hwtest::src_root() + "/litmus/mp.litmus", out) == 0);
  CHECK(hwtest::slurp(dir + "/mp.sm_90.ptx").find("litmus_test") != std::string::npos);
  CHECK(hwtest::slurp(dir + "/mp.sm_80.bundle.json").find("ptxcheck-litmus-bundle/1") != std::string::npos);
  std::string t = dir + "/alias.litmus";
  std::system(("printf 'PTX a\\n{ .global .u32 x = 0; .global .u32 y aliases x; }\\nT0 @ cta 0 { ld.global.u32 "
               "%%r0, [y]; }\\nexists (T0:%%r0 == 0)\\n' > " + t).c_str());
  CHECK(hwtest::run(tool() + " gen --out " + dir + " " + t, out) == 2);
  CHECK_THAT(out, Catch::Contains("not expressible on sm_80"));
  CHECK_THAT(out, Catch::Contains("aliases"));
  std::system(("rm -rf " + dir).c_str());
}

TEST_CASE("mutants: killing outcomes, equivalents, kills by recordings", "[hw-mutants]") {
  litmus::Test mp = litmus::parse_litmus_file(hwtest::src_root() + "/litmus/mp.litmus");
  hw::Permitted orig = hw::permitted(mp, {});
  std::vector<litmus::Test> tests;
  auto ms = hw::mutants_of(mp, {}, &tests);
  REQUIRE(ms.size() == tests.size());
  REQUIRE(ms.size() >= 4);
  size_t killable = 0;
  for (size_t i = 0; i < ms.size(); ++i) {
    INFO(ms[i].mutant);
    hw::Permitted pm = hw::permitted(tests[i], {});
    for (const auto& o : ms[i].killing) {
      CHECK(pm.outcomes.count(o));
      CHECK(!orig.outcomes.count(o));
    }
    killable += !ms[i].equivalent();
    // Acquire made relaxed: the message-passing outcome becomes possible.
    if (ms[i].change == std::string("acq-to-rlx"))
      CHECK(ms[i].killing == std::vector<std::string>{"1:%r0=1; 1:%r1=0;"});
  }
  CHECK(killable >= 2);

  // SB: some weakenings leave the permitted set unchanged (equivalent
  // mutants), others (the fences') do not.
  auto sbm = hw::mutants_of(litmus::parse_litmus_file(hwtest::src_root() + "/litmus/sb.litmus"), {});
  size_t equiv = 0;
  for (const auto& m : sbm) equiv += m.equivalent();
  CHECK(equiv > 0);
  CHECK(equiv < sbm.size());

  // A recording of a mutant that shows a killing outcome kills it; one that
  // shows only the original's outcomes does not.
  hw::Recording killer, survivor;
  const hw::MutantInfo* target = nullptr;
  for (const auto& m : ms)
    if (!m.equivalent()) target = &m;
  REQUIRE(target);
  killer.test = survivor.test = target->mutant;
  killer.histogram[target->killing[0]] = 3;
  killer.histogram[*orig.outcomes.begin()] = 97;
  survivor.histogram[*orig.outcomes.begin()] = 100;
  auto a = ms, b = ms;
  hw::mark_kills(a, {killer});
  hw::mark_kills(b, {survivor});
  for (size_t i = 0; i < ms.size(); ++i) {
    bool is_target = ms[i].mutant == target->mutant;
    CHECK(a[i].killed == is_target);
    CHECK(a[i].kill_count == (is_target ? 3u : 0u));
    CHECK(!b[i].killed);
    CHECK(b[i].recordings == (is_target ? 1 : 0));
  }
}
