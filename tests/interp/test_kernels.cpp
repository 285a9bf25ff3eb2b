// Golden runner: every corpus/kernels/NAME.json and
// corpus/kernels/features/NAME.json runs and matches NAME.expected.json,
// which must exist (written by a reference independent of the interpreter:
// corpus/kernels/ref for the first, the one features/references.txt names
// for the second; docs/corpus.md), and every
// tests/interp/faults/NAME.json produces the diagnostic it names in its
// "_expect_diagnostic" key (with "_expect_status", default "error") and
// none of the kind named by "_expect_no_diagnostic" ("_races": "strict"
// runs it as --races=strict; "_expect_message": a text the named
// diagnostic's message must contain; "_absent_message": only diagnostics of
// the "_expect_no_diagnostic" kind whose message contains it are errors;
// "_max_steps": the step budget, 1,000,000 unless given; NAME.expected.json
// beside it: the outputs it must give).
#include <fnmatch.h>
#include <unistd.h>
#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "checker/run_report.hpp"
#include "semantics/interp/exec_util.hpp"
#include "semantics/interp/json_pos.hpp"
#include "semantics/interp/launch_spec.hpp"
#include "semantics/interp/run.hpp"
#include "tests/interp/support/spec_files.hpp"

using namespace ptxcheck;
using namespace ptxcheck::interp;
using ptxcheck::cli::check_expected;
using ptxcheck::cli::ExpectOutcome;
using ptxcheck::cli::format_json;
namespace fs = std::filesystem;
using ptxcheck::test::specs_in;
using ptxcheck::test::src_dir;

namespace {
std::string errors_of(const RunReport& r) {
  std::string s;
  for (const auto& d : r.result.diagnostics)
    s += d.file + ":" + std::to_string(d.line) + ": " + d.severity + ": " + d.kind + ": " + d.message + "\n";
  return s;
}

// The outputs printed by format_json, read back with nlohmann::json, are the
// launch's bits (docs/launch-spec.md: values print as the shortest decimal
// that reads back exactly; -0.0 keeps its sign). Returns the first mismatch.
std::string json_readback_mismatch(const RunReport& r) {
  nlohmann::json j = nlohmann::json::parse(format_json(r));
  for (const auto& name : r.spec.outputs) {
    const BufferSpec& bs = r.spec.buffers[static_cast<size_t>(r.spec.buffer_index(name))];
    const auto& bytes = r.result.buffers.at(static_cast<size_t>(r.spec.buffer_index(name)));
    const auto& vals = j.at("outputs").at(name);
    unsigned sz = elem_size(bs.type);
    for (uint64_t k = 0; k < bs.count; ++k) {
      uint64_t got = 0, back = 0;
      std::memcpy(&got, &bytes[k * sz], sz);
      const nlohmann::json& v = vals.at(k);
      if (v.is_string()) {
        std::string t = v.get<std::string>();
        if (t.rfind("0x", 0) == 0)
          back = std::stoull(t.substr(2), nullptr, 16);
        else if (t == "nan")
          back = canonical_nan(bs.type);
        else
          back = decimal_to_float_bits(t, bs.type).value_or(~got);
      } else if (elem_is_float(bs.type)) {
        back = double_to_float_bits(v.get<double>(), bs.type);
      } else {
        back = v.is_number_unsigned() ? v.get<uint64_t>() : static_cast<uint64_t>(v.get<int64_t>());
      }
      if (mask_to(back, bs.type) != mask_to(got, bs.type))
        return name + "[" + std::to_string(k) + "] prints as " + v.dump() + " and reads back as other bits";
    }
  }
  return "";
}
}  // namespace

// Kernels known not to pass, with the reason. Each must still fail: when one
// starts passing, this test fails until the entry is removed.
const std::vector<std::pair<const char*, const char*>> kExpectedFailures = {};

// The reference each spec of corpus/kernels/features names in its
// references.txt ("GLOB PATH" lines, first match; empty when none).
std::vector<std::pair<std::string, std::string>> read_references(const fs::path& dir) {
  std::vector<std::pair<std::string, std::string>> out;
  std::ifstream in(dir / "references.txt");
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    std::string glob, ref, extra;
    ls >> glob >> ref;
    INFO("references.txt: " << line);
    CHECK((!ref.empty() && !(ls >> extra)));
    out.emplace_back(glob, ref);
  }
  return out;
}

TEST_CASE("every kernel test has its golden and its reference", "[kernels]") {
  const fs::path src(src_dir());
  // The kernel tests moved to corpus/kernels/features: specs left in the old
  // folder (a branch from before the move) would run nowhere.
  CHECK_FALSE(fs::exists(src / "tests" / "interp" / "kernels"));
  for (const auto& spec : specs_in(src / "corpus" / "kernels")) {
    INFO(spec.string());
    CHECK(fs::exists(fs::path(spec).replace_extension(".expected.json")));
  }
  const fs::path features = src / "corpus" / "kernels" / "features";
  const auto refs = read_references(features);
  REQUIRE(!refs.empty());
  std::vector<std::string> named;
  for (const auto& [glob, ref] : refs) {
    INFO("reference " << ref);
    CHECK(fs::is_regular_file(features / ref));
    named.push_back(fs::path(ref).filename().string());
  }
  const auto specs = specs_in(features);
  CHECK(specs.size() >= 131);
  for (const auto& spec : specs) {
    INFO(spec.string());
    CHECK(fs::exists(fs::path(spec).replace_extension(".expected.json")));
    const std::string name = spec.stem().string();
    auto it = std::find_if(refs.begin(), refs.end(),
                           [&](const auto& r) { return ::fnmatch(r.first.c_str(), name.c_str(), 0) == 0; });
    CHECK(it != refs.end());  // add a line to references.txt
  }
  for (const auto& e : fs::directory_iterator(features)) {
    const std::string n = e.path().filename().string();
    const auto stem = e.path().stem().string();
    if ((e.path().extension() == ".py" || e.path().extension() == ".cpp") && stem.ends_with("_ref")) {
      INFO(n << " is a reference that references.txt does not name");
      CHECK(std::find(named.begin(), named.end(), n) != named.end());
    }
  }
}

TEST_CASE("corpus kernels compute their expected outputs", "[kernels]") {
  auto specs = specs_in(fs::path(src_dir()) / "corpus" / "kernels");
  REQUIRE(!specs.empty());
  for (const auto& p : specs_in(fs::path(src_dir()) / "corpus" / "kernels" / "features")) specs.push_back(p);
  for (const auto& spec : specs) {
    DYNAMIC_SECTION(spec.filename().string()) {
      const char* xfail = nullptr;
      for (const auto& [n, why] : kExpectedFailures)
        if (spec.filename() == n) xfail = why;
      RunOptions opt;
      opt.max_steps = 200'000'000;
      RunReport r = run_spec_file(spec.string(), opt);
      fs::path exp = spec;
      exp.replace_extension(".expected.json");
      REQUIRE(fs::exists(exp));  // every kernel test has its golden
      ExpectOutcome e = check_expected(r, exp.string());
      bool pass = r.result.ok && e.ok;
      if (xfail) {
        WARN("expected failure: " << spec.filename().string() << ": " << xfail);
        CHECK_FALSE(pass);  // fixed? remove it from kExpectedFailures
        continue;
      }
      INFO(errors_of(r));
      CHECK(r.result.ok);
      std::string mm;
      for (const auto& m : e.mismatches) mm += m + "\n";
      INFO(mm);
      CHECK(e.ok);
      CHECK(e.compared > 0);
      CHECK(json_readback_mismatch(r) == "");
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
      const JNode* absent = root.find("_expect_no_diagnostic");
      const JNode* msg = root.find("_expect_message");
      const JNode* absent_msg = root.find("_absent_message");
      REQUIRE((want || absent));
      const JNode* st = root.find("_expect_status");
      std::string want_status = st ? st->text : "error";
      RunOptions opt;
      opt.max_steps = 1'000'000;
      if (const JNode* ms = root.find("_max_steps")) opt.max_steps = std::stoull(ms->text);
      const JNode* races = root.find("_races");  // "strict": --races=strict
      opt.strict_races = races && races->text == "strict";
      RunReport r = run_spec_file(spec.string(), opt);
      INFO(errors_of(r));
      bool found = false;
      for (const auto& d : r.result.diagnostics) {
        if (absent && (!absent_msg || d.message.find(absent_msg->text) != std::string::npos)) {
          INFO(d.message);
          CHECK(d.kind != absent->text);
        }
        if (!want || d.kind != want->text) continue;
        if (msg && d.message.find(msg->text) == std::string::npos) continue;
        found = true;
        CHECK(d.kernel == r.spec.kernel);
        CHECK(!d.message.empty());
      }
      CHECK((found || !want));
      CHECK((r.result.ok ? "ok" : "error") == want_status);
      fs::path exp = spec;  // NAME.expected.json beside it: the outputs must match
      exp.replace_extension(".expected.json");
      if (fs::exists(exp)) {
        ExpectOutcome e = check_expected(r, exp.string());
        std::string mm;
        for (const auto& m : e.mismatches) mm += m + "\n";
        INFO(mm);
        CHECK(e.ok);
      }
    }
  }
}

// The interpreter's tight ld/st loop (exec_mem.cpp, races off) against its
// general loop (races on: the race shadow sees each access there): the same
// diagnostics (kind, thread, count, message), status and bytes, for lanes
// that leave the tight loop part way through a warp (tests/interp/ldst:
// uninitialised shared words, an out-of-bounds and a misaligned global
// lane after lanes that hit; 1-, 2- and 8-byte shared loads, signed and
// unsigned, reaching past the bytes written or finding only their low half
// written; .v2/.v4 shared loads and stores, one lane misaligned), and the
// diagnostics each spec is written for.
TEST_CASE("the tight ld/st loop does what the general loop does", "[kernels]") {
  auto specs = specs_in(fs::path(src_dir()) / "tests" / "interp" / "ldst");
  REQUIRE(specs.size() == 5);
  auto diags = [](const RunReport& r) {
    std::string s;
    for (const auto& d : r.result.diagnostics)
      s += d.kind + " thread " + std::to_string(d.thread[0]) + " x" + std::to_string(d.count) + ": " + d.message + "\n";
    return s;
  };
  const std::pair<const char*, const char*> want[] = {
      {"gl_misaligned.json", "misaligned thread 40 x1"},
      {"gl_ok.json", ""},
      {"gl_oob.json", "out-of-bounds thread 80 x1"},
      {"sh_lanes.json",
       "uninitialized-read thread 5 x2: read of uninitialised shared::cta memory\n"
       "uninitialized-read thread 16 x16: read of uninitialised shared::cta memory\n"
       "uninitialized-read thread 14 x18: read of uninitialised shared::cta memory\n"
       "uninitialized-read thread 31 x1: read of uninitialised shared::cta memory\n"
       "uninitialized-read thread 0 x32: read of uninitialised shared::cta memory\n"
       "uninitialized-read thread 0 x32: read of uninitialised shared::cta memory\n"
       "uninitialized-read thread 0 x32: read of uninitialised shared::cta memory\n"
       "uninitialized-read thread 0 x32: read of uninitialised shared::cta memory\n"},
      {"sh_vec.json",
       "uninitialized-read thread 3 x1: read of uninitialised shared::cta memory\n"
       "uninitialized-read thread 0 x32: read of uninitialised shared::cta memory\n"
       "misaligned thread 7 x1: read of 8-byte access misaligned"}};
  for (size_t i = 0; i < specs.size(); ++i) {
    INFO(specs[i].filename().string());
    REQUIRE(specs[i].filename().string() == want[i].first);
    RunOptions on, off;
    on.max_steps = off.max_steps = 1'000'000;
    off.check_races = false;
    RunReport a = run_spec_file(specs[i].string(), off), b = run_spec_file(specs[i].string(), on);
    CHECK(diags(a) == diags(b));
    CHECK(a.result.ok == b.result.ok);
    CHECK(a.result.buffers == b.result.buffers);
    CHECK(diags(a).rfind(want[i].second, 0) == 0);
    CHECK((diags(a).empty() == (*want[i].second == 0)));
  }
}

// A diverged warp keeps its group without rescanning its lanes while the
// group's PC stays below the least PC of the others (exec.cpp step, Warp
// rest_pc/rest_ok; tests/interp/sched): the groups are still those of the
// full scan. rejoin: a loop and straight-line code of half a warp rejoin
// the other half at a higher PC (activemask 0xffffffff everywhere; with
// "pc <= rest_pc" for "<", lanes 0-15 read 0x0000ffff). release: a spin
// that fills the run loop's quantum ends when another warp's bar.sync
// releases lanes at a lower PC (without the run loop's reset of rest_ok
// the spin never ends: step limit, lanes 0-7 unwritten).
TEST_CASE("diverged warps keep the min-PC groups", "[kernels]") {
  const fs::path dir = fs::path(src_dir()) / "tests" / "interp" / "sched";
  auto words = [](const RunReport& r) {
    std::vector<uint32_t> v(r.result.buffers.at(0).size() / 4);
    std::memcpy(v.data(), r.result.buffers.at(0).data(), v.size() * 4);
    return v;
  };
  for (bool races : {false, true}) {
    INFO("races " << races);
    RunOptions o;
    o.max_steps = 1'000'000;
    o.check_races = races;
    RunReport a = run_spec_file((dir / "rejoin.json").string(), o);
    CHECK(a.result.ok);
    CHECK(a.result.diagnostics.empty());
    CHECK(words(a) == std::vector<uint32_t>(32, 0xffffffffu));
    RunReport b = run_spec_file((dir / "release.json").string(), o);
    CHECK(b.result.ok);
    CHECK(b.result.diagnostics.empty());
    std::vector<uint32_t> want(64, 0xffffffffu);
    for (int l = 0; l < 32; ++l) want[l] = l < 8 ? 0xffu : l < 16 ? 0xff00u : 0xffff0000u;
    CHECK(words(b) == want);
  }
}

// A lane that spins waiting for a lane of its own warp at a higher PC does
// not starve it (machine.cpp: a diverged warp that used its whole quantum
// runs the group at the next PC above; independent thread scheduling, PTX
// ISA 3.2): iw_flag (lane 16 polls a volatile shared flag lane 0 sets later
// in the code) ended in a "spins without progress" step-limit, iw_lock
// (lanes 0..2 of one warp take an atomicCAS lock) ran into the step budget
// with the winner never reaching its unlock (tests/interp/sched/intrawarp.ptx).
TEST_CASE("a lane spinning on a lane of its own warp does not starve it", "[kernels]") {
  const fs::path dir = fs::path(src_dir()) / "tests" / "interp" / "sched";
  auto word = [](const RunReport& r, size_t b) {
    uint32_t v = 0;
    std::memcpy(&v, r.result.buffers.at(b).data(), 4);
    return v;
  };
  for (bool races : {false, true}) {
    INFO("races " << races);
    RunOptions o;
    o.max_steps = 1'000'000;
    o.check_races = races;
    RunReport a = run_spec_file((dir / "iw_flag.json").string(), o);
    CHECK(a.result.ok);
    CHECK(a.result.diagnostics.empty());
    CHECK(word(a, 0) == 42u);
    RunReport b = run_spec_file((dir / "iw_lock.json").string(), o);
    CHECK(b.result.ok);
    CHECK(b.result.diagnostics.empty());
    CHECK(word(b, 0) == 0u);
    CHECK(word(b, 1) == 3u);
  }
}

// A converged warp whose mbarrier try_wait fails in every lane yields the
// rest of its quantum (machine.cpp run_cluster): in mbar_yield.ptx warp 1
// polls, counting its polls, while warp 0 computes 100,000 iterations
// (4 instructions each, 1.28e7 thread instructions) before it arrives.
// Without the yield warp 1 spent each whole quantum polling, about as many
// thread instructions again (2.56e7 in all); with it, warp 1 polls once a
// round. The same with races on and with CTAs on 2 cores.
TEST_CASE("a warp whose mbarrier wait fails yields its quantum", "[kernels]") {
  const fs::path spec = fs::path(src_dir()) / "tests" / "interp" / "sched" / "mbar_yield.json";
  for (bool races : {false, true})
    for (unsigned jobs : {1u, 2u}) {
      INFO("races " << races << ", jobs " << jobs);
      RunOptions o;
      o.max_steps = 100'000'000;
      o.check_races = races;
      o.jobs = jobs;
      RunReport r = run_spec_file(spec.string(), o);
      CHECK(r.result.ok);
      CHECK(r.result.diagnostics.empty());
      uint32_t v = 0;
      std::memcpy(&v, r.result.buffers.at(0).data(), 4);
      CHECK(v == 64u);
      CHECK(r.result.thread_instructions >= 12'800'000u);
      CHECK(r.result.thread_instructions < 13'000'000u);
    }
}

// RunResult::spin_without_effect (the shim defers such a launch): a launch
// that spins before any store is without effect, one that stored first (in
// the spinning CTA or in a CTA that ran before it) is not
// (tests/interp/sched/spin_effect.ptx).
TEST_CASE("a spin is without effect only before the launch's first store", "[kernels]") {
  const fs::path dir = fs::path(src_dir()) / "tests" / "interp" / "sched";
  for (bool races : {false, true})
    for (int g : {1, 2})
      for (int w : {0, 1}) {
        INFO("races " << races << ", grid " << g << ", w " << w);
        RunOptions o;
        o.max_steps = 1'000'000;
        o.check_races = races;
        RunReport r = run_spec_file(
            (dir / ("spin_effect_g" + std::to_string(g) + "_w" + std::to_string(w) + ".json")).string(), o);
        CHECK(r.result.step_limit);
        CHECK(errors_of(r).find("spins without progress") != std::string::npos);
        CHECK(r.result.spin_without_effect == (w == 0));
      }
}

// cp.async's fast path (exec_async.cpp, races off) against its general
// loop (races on), and with CTAs on 2 cores (claims): the same
// diagnostics, status and bytes for 16-, 8- and 4-byte copies, src-size
// below cp-size, a true ignore-src, and a source lane misaligned or out of
// bounds or a destination lane outside shared memory after lanes that hit
// (tests/interp/cpasync), and the diagnostic each spec is written for.
TEST_CASE("the cp.async fast path does what the general loop does", "[kernels]") {
  auto specs = specs_in(fs::path(src_dir()) / "tests" / "interp" / "cpasync");
  REQUIRE(specs.size() == 6);
  auto diags = [](const RunReport& r) {
    std::string s;
    for (const auto& d : r.result.diagnostics)
      s += d.kind + " CTA " + std::to_string(d.cta[0]) + " thread " + std::to_string(d.thread[0]) + " x" +
           std::to_string(d.count) + ": " + d.message + "\n";
    return s;
  };
  const std::pair<const char*, const char*> want[] = {
      {"cp_gl_oob.json", "out-of-bounds CTA 1 thread 62 x1: read of 4-byte access out of bounds at global"},
      {"cp_ignore.json", ""},
      {"cp_misaligned.json", "misaligned CTA 0 thread 40 x1: read of 8-byte access misaligned at global"},
      {"cp_ok.json", ""},
      {"cp_sh_oob.json", "out-of-bounds CTA 0 thread 50 x1: write of 4-byte access out of bounds at shared::cta"},
      {"cp_srcsize.json", ""}};
  for (size_t i = 0; i < specs.size(); ++i) {
    INFO(specs[i].filename().string());
    REQUIRE(specs[i].filename().string() == want[i].first);
    RunOptions on, off, off2;
    on.max_steps = off.max_steps = off2.max_steps = 1'000'000;
    off.check_races = off2.check_races = false;
    off2.jobs = 2;
    RunReport a = run_spec_file(specs[i].string(), off), b = run_spec_file(specs[i].string(), on),
              c = run_spec_file(specs[i].string(), off2);
    INFO(diags(a));
    CHECK(diags(a) == diags(b));
    CHECK(diags(a) == diags(c));
    CHECK(a.result.ok == b.result.ok);
    CHECK(a.result.ok == c.result.ok);
    CHECK(a.result.buffers == b.result.buffers);
    CHECK(a.result.buffers == c.result.buffers);
    CHECK(diags(a).rfind(want[i].second, 0) == 0);
    CHECK((diags(a).empty() == (*want[i].second == 0)));
  }
}

// A tex instruction whose texture handle differs between lanes
// (tests/interp/tex/tex_lanes): each lane samples the object of its own
// handle, not the previous lane's (exec_tex keeps the previous lane's
// object only for the same handle).
TEST_CASE("tex samples each lane's own texture object", "[kernels]") {
  RunOptions opt;
  opt.max_steps = 1'000'000;
  RunReport r = run_spec_file(src_dir() + "/tests/interp/tex/tex_lanes.json", opt);
  REQUIRE(r.result.ok);
  REQUIRE(r.result.diagnostics.empty());
  const std::vector<uint8_t>& out = r.result.buffers.at(static_cast<size_t>(r.spec.buffer_index("out")));
  REQUIRE(out.size() == 192 * 4);
  auto at = [&](size_t i) {
    float f;
    std::memcpy(&f, &out[4 * i], 4);
    return f;
  };
  int picked_b = 0;
  for (uint32_t t = 0; t < 64; ++t) {
    INFO(t);
    CHECK(at(3 * t) == static_cast<float>(1 + static_cast<int>(t % 16)));             // a
    CHECK(at(3 * t + 1) == static_cast<float>(-100 + 3 * static_cast<int>(t % 16)));  // b
    const bool b = t % 3 == 0 || t % 2 == 1;
    picked_b += b;
    CHECK(at(3 * t + 2) == at(3 * t + (b ? 1 : 0)));
  }
  CHECK(picked_b == 43);
}

// The step count's inline popcount (exec_util.hpp lane_count) is
// std::popcount on edge masks (every run of consecutive lanes, every single
// lane cleared) and a million random ones.
TEST_CASE("lane_count counts the lanes of a mask", "[kernels]") {
  size_t bad = 0, n = 0;
  auto check = [&](uint32_t m) {
    ++n;
    if (lane_count(m) != static_cast<uint32_t>(std::popcount(m)) && ++bad <= 5) FAIL_CHECK(m);
  };
  for (uint32_t lo = 0; lo < 32; ++lo)
    for (uint32_t len = 0; lo + len <= 32; ++len) {
      const uint32_t run = len == 32 ? ~0u : ((1u << len) - 1) << lo;
      check(run);
      check(~run);
    }
  std::mt19937 rng(1127);
  for (int i = 0; i < 1000000; ++i) check(rng());
  CHECK(bad == 0);
  CHECK(n == 1001120);
}

// docs/interpreter.md lists exactly the kinds of diag_kinds.def (the one
// table that code and the driver shim's codes come from).
TEST_CASE("the documented diagnostic kinds are the table's", "[diagnostics]") {
  std::string doc = read_file_text(src_dir() + "/docs/interpreter.md");
  size_t a = doc.find("Kinds (one table"), b = doc.find("A faulting", a);
  REQUIRE(a != std::string::npos);
  REQUIRE(b != std::string::npos);
  std::vector<std::string> documented;
  for (size_t p = doc.find('`', a); p < b; p = doc.find('`', p + 1)) {
    size_t q = doc.find('`', p + 1);
    std::string w = doc.substr(p + 1, q - p - 1);
    if (!w.empty() && std::all_of(w.begin(), w.end(), [](char ch) { return (ch >= 'a' && ch <= 'z') || ch == '-'; }) &&
        w[0] != '-')
      documented.push_back(w);
    p = q;
  }
  std::vector<std::string> table = {
#define DIAG_KIND(id, spelling, cu, fatal) spelling,
#include "semantics/interp/diag_kinds.def"
#undef DIAG_KIND
  };
  std::sort(documented.begin(), documented.end());
  std::sort(table.begin(), table.end());
  CHECK(documented == table);
  for (size_t k = 0; k < table.size(); ++k) CHECK(diag_kind_name(static_cast<DiagKind>(k)) != std::string());
}

TEST_CASE("argument lists must match the kernel's .param list", "[launchspec]") {
  std::string dir = src_dir() + "/tests/interp/faults";
  struct Case {
    const char* args;
    const char* msg;
  };
  const Case cases[] = {
      {"[]", "takes 1 parameter(s); args gives 0"},
      {"[{ \"u32\": 1 }]", "has 4 bytes; parameter 'out' has 8"},
      {"[{ \"buffer\": \"out\" }, { \"u32\": 1 }]", "takes 1 parameter(s); args gives 2"},
  };
  for (const auto& c : cases) {
    DYNAMIC_SECTION(c.args) {
      // The spec lives in a temporary folder; its "ptx" path is absolute.
      std::string spec = (fs::temp_directory_path() /
                          ("ptxcheck_args_" + std::to_string(&c - cases) + "_" + std::to_string(::getpid()) + ".json"))
                             .string();
      std::string text =
          "{ \"ptx\": \"" + dir + "/faults.ptx\", \"kernel\": \"oob\", \"grid\": [1], \"block\": [1],\n" +
          "  \"buffers\": { \"out\": { \"type\": \"u32\", \"count\": 1 } },\n  \"args\": " + c.args + " }\n";
      {
        FILE* f = std::fopen(spec.c_str(), "w");
        REQUIRE(f);
        std::fputs(text.c_str(), f);
        std::fclose(f);
      }
      try {
        run_spec_file(spec, RunOptions{});
        std::remove(spec.c_str());
        FAIL("accepted " << c.args);
      } catch (const InputError& e) {
        std::remove(spec.c_str());
        CHECK(e.file() == spec);
        CHECK(e.pos().line >= 1);
        CHECK(std::string(e.what()).find(c.msg) != std::string::npos);
      }
    }
  }
}

// Vector atom/red (PTX ISA 9.7.13.5-6): the forms outside the text's table
// of vector qualifiers and types, and vectors on a space other than .global
// or generic, are input errors at the instruction (ptxas 13 rejects each).
TEST_CASE("vector atom/red outside the PTX table are refused", "[launchspec]") {
  struct Case {
    const char* insn;
    const char* msg;
  };
  const Case cases[] = {
      {"red.global.v8.f32.add [%rd1], {%f1, %f1, %f1, %f1, %f1, %f1, %f1, %f1};", ".v8 is not defined on .f32"},
      {"red.global.v8.f16x2.add.noftz [%rd1], {%r1, %r1, %r1, %r1, %r1, %r1, %r1, %r1};",
       ".v8 is not defined on .f16x2"},
      {"red.global.v4.f32.min [%rd1], {%f1, %f1, %f1, %f1};", ".v4 is not defined on .f32"},
      {"atom.global.v2.u32.add {%r1, %r2}, [%rd1], {%r1, %r1};", ".v2 is not defined on .u32"},
      {"red.global.v2.f16.add [%rd1], {%h1, %h1};", ".v2 is not defined on .f16"},  // no .noftz
      {"red.shared.v2.f32.add [%rd1], {%f1, %f1};", "needs .global or generic addressing"},
      {"atom.global.v8.f16.add.noftz {%h1, %h1, %h1, %h1}, [%rd1], {%h1, %h1, %h1, %h1, %h1, %h1, %h1, %h1};",
       "vector width does not match"},
  };
  for (const auto& c : cases) {
    DYNAMIC_SECTION(c.insn) {
      const std::string base = (fs::temp_directory_path() /
                                ("ptxcheck_vatom_" + std::to_string(&c - cases) + "_" + std::to_string(::getpid())))
                                   .string();
      const std::string ptx = base + ".ptx", spec = base + ".json";
      const std::string ptx_text =
          std::string(
              ".version 8.4\n.target sm_90\n.address_size 64\n"
              ".visible .entry k(.param .u64 p)\n{\n"
              "  .reg .b16 %h<4>;\n  .reg .b32 %r<4>;\n  .reg .f32 %f<4>;\n  .reg .b64 %rd<4>;\n"
              "  ld.param.u64 %rd1, [p];\n  ") +
          c.insn + "\n  ret;\n}\n";
      const std::string spec_text = "{ \"ptx\": \"" + ptx + "\", \"kernel\": \"k\", \"grid\": [1], \"block\": [1],\n" +
                                    "  \"buffers\": { \"out\": { \"type\": \"u32\", \"count\": 8 } },\n" +
                                    "  \"args\": [{ \"buffer\": \"out\" }] }\n";
      for (const auto& [path, text] : {std::pair{ptx, ptx_text}, std::pair{spec, spec_text}}) {
        FILE* f = std::fopen(path.c_str(), "w");
        REQUIRE(f);
        std::fputs(text.c_str(), f);
        std::fclose(f);
      }
      std::string what;
      SourcePos pos{};
      std::string file;
      try {
        run_spec_file(spec, RunOptions{});
      } catch (const InputError& e) {
        what = e.what();
        pos = e.pos();
        file = e.file();
      }
      std::remove(ptx.c_str());
      std::remove(spec.c_str());
      INFO(what);
      CHECK(what.find(c.msg) != std::string::npos);
      CHECK(file == ptx);
      CHECK(pos.line == 11);
    }
  }
}
