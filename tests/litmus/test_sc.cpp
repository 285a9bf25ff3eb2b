// The checking pipeline (traces -> skeletons -> engine -> final states) run
// with the brute-force SC oracle, independent of memmodel/: under
// sequential consistency every weak outcome of the classics is forbidden.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "parser/litmus/litmus_ast.hpp"
#include "semantics/litmus/check.hpp"
#include "tests/litmus/sc_oracle.hpp"

using namespace ptxcheck;
using namespace ptxcheck::litmus;
namespace fs = std::filesystem;

namespace {
fs::path src_root() {
  const char* v = std::getenv("PTXCHECK_SRC");
  return v ? fs::path(v) : fs::path(".");
}

CheckResult run_sc(const Test& t, int unroll = 2) {
  Program p = lower(t);
  testing::ScOracle sc;
  CheckOptions opt;
  opt.model.kind = mm::ModelKind::SC;
  opt.traces.unroll = unroll;
  return check(p, sc, opt);
}
}  // namespace

TEST_CASE("SC verdicts of the litmus/ classics", "[sc-oracle]") {
  // Under SC only these conditions hold; every other classic asks for a
  // weak outcome (atom-minmax is one thread's required final state). mp+bar
  // needs barrier semantics, which SC does not model.
  const std::set<std::string> ok_under_sc = {"lb+deps", "atomicity", "atom-minmax"};
  int n = 0;
  for (const auto& e : fs::directory_iterator(src_root() / "litmus")) {
    if (e.path().extension() != ".litmus" || e.path().stem() == "mp+bar") continue;
    INFO(e.path());
    Test t = parse_litmus_file(e.path().string());
    CheckResult r = run_sc(t);
    CHECK(r.ok == (ok_under_sc.count(e.path().stem().string()) > 0));
    CHECK(r.executions > 0);
    ++n;
  }
  CHECK(n >= 20);
}

TEST_CASE("SC oracle: states and witness counts of MP", "[sc-oracle]") {
  Test t = parse_litmus_file((src_root() / "litmus/mp.litmus").string());
  CheckResult r = run_sc(t);
  // One execution (rf choice) per SC-reachable state r0r1 in {00, 01, 11}.
  CHECK(r.executions == 3);
  REQUIRE(r.states.size() == 3);
  CHECK(r.states[0].text == "1:%r0=0; 1:%r1=0;");
  CHECK(r.positive == 0);
  CHECK_FALSE(r.ok);
}

TEST_CASE("SC oracle: RMWs, loops and the bound", "[sc-oracle]") {
  Test t = parse_litmus_text(R"(PTX spin
{ x=0; l=0; }
 P0@cta 0,gpu 0                   | P1@cta 0,gpu 0                   ;
 LC00:                            | LC10:                            ;
 atom.relaxed.gpu.exch r0, l, 1   | atom.relaxed.gpu.exch r1, l, 1   ;
 bne r0, 0, LC00                  | bne r1, 0, LC10                  ;
 ld.weak r2, x                    | ld.weak r3, x                    ;
 st.weak x, 1                     | st.weak x, 2                     ;
exists (P0:r2 == 0 /\ P1:r3 == 0)
)", "spin.litmus");
  // Nobody releases the lock: the second thread spins until the bound.
  CheckResult r2 = run_sc(t, 1);
  CHECK(r2.bound_hit);
  CHECK_FALSE(r2.ok);
  CHECK(r2.executions == 0);
  Test u = parse_litmus_text(R"(PTX inc
{ x=0; }
 P0@cta 0,gpu 0                  | P1@cta 0,gpu 0 ;
 atom.relaxed.gpu.add r0, x, 1   | atom.relaxed.gpu.add r1, x, 1 ;
forall (x == 2 /\ (P0:r0 == 0 \/ P1:r1 == 0))
)", "inc.litmus");
  CheckResult ru = run_sc(u);
  CHECK(ru.ok);
  CHECK(ru.executions == 2);
}

namespace {
// The position and message of the InputError that checking `text` raises.
std::pair<SourcePos, std::string> coll_error(const std::string& text) {
  try {
    (void)run_sc(parse_litmus_text(text, "w.litmus"));
  } catch (const InputError& e) {
    return {e.pos(), e.what()};
  }
  return {{}, "no error"};
}

std::string two_lanes(const std::string& t0, const std::string& t1) {
  return "PTX w\n{ }\nT0 @ cta 0, warp 0, gpu 0 {\n" + t0 + "\n}\nT1 @ cta 0, warp 0, gpu 0 {\n" + t1 +
         "\n}\nexists (T0:%r0 == 2)\n";
}
}  // namespace

TEST_CASE("warp collectives in litmus threads: results and refusals", "[sc-oracle]") {
  // A shfl.sync passes lane 1's operand to lane 0 (PTX ISA 9.7.9.6).
  CheckResult r = run_sc(parse_litmus_text(
      two_lanes("  shfl.sync.idx.b32 %r0, 1, 1, 0x1f, 0x3;", "  shfl.sync.idx.b32 %r0, 2, 0, 0x1f, 0x3;"), "w.litmus"));
  REQUIRE(r.states.size() == 1);
  CHECK(r.states[0].text == "0:%r0=2;");
  CHECK(r.ok);
  // Lane 1 never executes the collective (it would exit): not modelled.
  auto [p1, m1] = coll_error(two_lanes("  shfl.sync.idx.b32 %r0, 1, 1, 0x1f, 0x3;", "  mov.u32 %r0, 2;"));
  CHECK(p1.line == 4);
  CHECK(p1.col == 3);
  CHECK(m1.find("ends without executing this warp collective") != std::string::npos);
  // Reading a lane outside the membermask: undefined (PTX ISA 9.7.9.6).
  auto [p2, m2] = coll_error(two_lanes("  shfl.sync.idx.b32 %r0, 1, 1, 0x1f, 0x1;", "  mov.u32 %r0, 2;"));
  CHECK(p2.line == 4);
  CHECK(m2.find("outside the membermask") != std::string::npos);
  // The executing lane is not in its membermask: undefined.
  auto [p3, m3] = coll_error(two_lanes("  vote.sync.ballot.b32 %r0, 1, 0x2;", "  vote.sync.ballot.b32 %r0, 1, 0x2;"));
  CHECK(p3.line == 4);
  CHECK(m3.find("not in the membermask") != std::string::npos);
  // Other qualifiers at the meeting point: the lanes wait forever.
  auto [p4, m4] =
      coll_error(two_lanes("  vote.sync.ballot.b32 %r0, 1, 0x3;", "  vote.sync.any.pred %p0, 1, 0x3;"));
  CHECK(p4.line == 4);
  CHECK(m4.find("another instruction or membermask") != std::string::npos);
  // Three lanes whose pairwise collectives wait in a cycle.
  auto [p5, m5] = coll_error(
      "PTX w\n{ }\n"
      "T0 @ cta 0, warp 0, gpu 0 {\n  bar.warp.sync 0x3;\n  bar.warp.sync 0x5;\n}\n"
      "T1 @ cta 0, warp 0, gpu 0 {\n  bar.warp.sync 0x6;\n  bar.warp.sync 0x3;\n}\n"
      "T2 @ cta 0, warp 0, gpu 0 {\n  bar.warp.sync 0x5;\n  bar.warp.sync 0x6;\n}\n"
      "exists (0 == 0)\n");
  CHECK(m5.find("cycle") != std::string::npos);
  // activemask stays refused, with its reason in docs/litmus-format.md.
  auto [p6, m6] = coll_error(two_lanes("  activemask.b32 %r0;", "  mov.u32 %r0, 2;"));
  CHECK(p6.line == 4);
  CHECK(m6.find("not supported in a symbolic thread (IR Activemask)") != std::string::npos);
}
