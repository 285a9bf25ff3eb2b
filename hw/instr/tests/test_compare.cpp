// Comparator tests: per-slot rules (bit-exact, f64 NaN, .approx bounds) and
// the replay of every hardware recording under corpus/hw/<gpu>/instr/, plus
// the synthetic fixtures in hw/instr/fixtures (one must pass, one must fail).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "parser/diagnostic.hpp"

#include "hw/instr/compare.hpp"

namespace fs = std::filesystem;
using namespace ptxcheck::instrgen;

namespace {
fs::path src_root() {
  const char* s = std::getenv("PTXCHECK_SRC");
  return s ? fs::path(s) : fs::current_path();
}
}  // namespace

TEST_CASE("slot rules: exact, f64 NaN, approx bound", "[instrgen]") {
  Slot exact{"add.rn.f32", "f32", 32, false, false};
  CHECK(slot_matches(exact, 0x3f800000, 0x3f800000));
  CHECK_FALSE(slot_matches(exact, 0x3f800001, 0x3f800000));
  CHECK(slot_matches(exact, 0xffffffff3f800000ull, 0x3f800000));  // bits above the slot width are ignored
  CHECK_FALSE(slot_matches(exact, 0x7fc00000, 0x7fffffff));      // f32 NaN is canonical: exact

  Slot f64{"add.rn.f64", "f64", 64, false, true};
  CHECK(slot_matches(f64, 0x7ff8000000000000ull, 0x7fffffffffffffffull));
  CHECK_FALSE(slot_matches(f64, 0x7ff0000000000000ull, 0x7fffffffffffffffull));  // inf is not NaN

  Slot sin{"sin.approx.f32", "f32", 32, true, false};
  CHECK(slot_matches(sin, 0x3f000001, 0x3f000000));   // 2^-24 off 0.5: within abs 2^-20.5
  CHECK_FALSE(slot_matches(sin, 0x3f010000, 0x3f000000));  // 2^-9 off
  Slot rcp{"rcp.approx.f32", "f32", 32, true, false};
  CHECK(slot_matches(rcp, 0x3f800001, 0x3f800000));        // 1 ulp
  CHECK_FALSE(slot_matches(rcp, 0x3f800003, 0x3f800000));  // 3 ulp

  auto r = compare_values({exact, sin}, {0x3f800000, 0x3f000001, 0x3f800000, 0x3f000000},
                          {0x3f800000, 0x3f000000, 0x3f800001, 0x3f000000});
  CHECK(r.compared == 4);
  CHECK(r.approx_checked == 2);
  CHECK(r.mismatches == 1);
  REQUIRE(r.messages.size() == 1);
  CHECK(r.messages[0].find("thread 1 slot 0") != std::string::npos);
}

TEST_CASE("hardware recordings and fixtures replay", "[instr-replay]") {
  const fs::path fix = src_root() / "hw" / "instr" / "fixtures";
  CompareResult pass = compare_recording((fix / "pass.recording.json").string());
  CHECK(pass.ok());
  CHECK(pass.compared > 0);
  CHECK(pass.approx_checked > 0);
  CompareResult fail = compare_recording((fix / "fail.recording.json").string());
  CHECK_FALSE(fail.ok());
  CHECK(fail.mismatches >= 1);

  // One exact slot's bit flipped: the isolated replay reports that slot
  // alone (later instructions get the hardware's value as input).
  CHECK(fail.mismatches == 1);

  // divergences.txt: a listed slot is counted as divergent, not as a
  // mismatch; a malformed line is an input error.
  const fs::path tmp = fs::temp_directory_path() / ("ptxcheck-divergences-" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  for (const char* f : {"s42_0001.sm_80.json", "s42_0001.sm_80.manifest.json", "s42_0001.sm_80.ptx", "fail.recording.json"})
    fs::copy_file(fix / f, tmp / f, fs::copy_options::overwrite_existing);
  {
    std::ofstream(tmp / "divergences.txt") << "# test\nfail.recording.json 1 bit flipped on purpose\n";
    CompareResult listed = compare_recording((tmp / "fail.recording.json").string());
    CHECK(listed.ok());
    CHECK(listed.divergent == 1);
    std::ofstream(tmp / "divergences.txt") << "other.recording.json 1 another recording\n";
    CHECK_FALSE(compare_recording((tmp / "fail.recording.json").string()).ok());
    std::ofstream(tmp / "divergences.txt") << "fail.recording.json x no slot\n";
    CHECK_THROWS_AS(compare_recording((tmp / "fail.recording.json").string()), ptxcheck::InputError);
  }
  fs::remove_all(tmp);

  unsigned replayed = 0;
  const fs::path hw = src_root() / "corpus" / "hw";
  if (fs::exists(hw))
    for (const auto& gpu : fs::directory_iterator(hw)) {
      const fs::path d = gpu.path() / "instr";
      if (!fs::is_directory(d)) continue;
      for (const auto& e : fs::directory_iterator(d)) {
        const std::string n = e.path().filename().string();
        if (n.size() < 15 || n.substr(n.size() - 15) != ".recording.json") continue;
        INFO(e.path().string());
        CompareResult r = compare_recording(e.path().string());
        for (const auto& m : r.messages) UNSCOPED_INFO(m);
        CHECK(r.ok());
        ++replayed;
      }
    }
  if (replayed == 0) WARN("no hardware recordings under corpus/hw/*/instr/ yet");
}
