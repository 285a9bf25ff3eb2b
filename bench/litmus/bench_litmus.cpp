// Litmus checking speed. Part 1: the 748 Dat3M PTX tests in one process,
// total / median / max time per test, per engine (targets: median < 5 ms,
// corpus < 30 s with -j2, no test > 10 s). Part 2: scaling on generated
// families -- MP chains (N threads passing a message along release/acquire
// pairs), SB rings (N threads, fence.sc), IRIW with N readers -- time vs N
// for both engines. Each family's enum time is the reference for its z3 time.
//   bench_litmus [SHARED_DIR] [--quick]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "memmodel/engine.hpp"
#include "parser/litmus/litmus_ast.hpp"
#include "semantics/litmus/check.hpp"

using namespace ptxcheck;
namespace fs = std::filesystem;

namespace {

double decide(const litmus::Test& t, mm::Engine& e, double timeout) {
  auto s = std::chrono::steady_clock::now();
  litmus::Program p = litmus::lower(t);
  litmus::CheckOptions opt;
  opt.limits.timeout_s = timeout;
  (void)litmus::check(p, e, opt);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - s).count();
}

std::string mp_chain(int n) {  // T0 writes data, releases f1; Ti acquires fi, releases fi+1; last reads data
  std::string s = "PTX mp-chain-" + std::to_string(n) + "\n{\n  .global .u32 data = 0;\n";
  for (int i = 1; i < n; ++i) s += "  .global .u32 f" + std::to_string(i) + " = 0;\n";
  s += "}\nT0 @ cta 0 { st.global.u32 [data], 1; st.global.release.gpu.u32 [f1], 1; }\n";
  std::string cond;
  for (int i = 1; i < n; ++i) {
    std::string r = "%r" + std::to_string(i);
    s += "T" + std::to_string(i) + " @ cta " + std::to_string(i) + " { ld.global.acquire.gpu.u32 " + r + ", [f" +
         std::to_string(i) + "]; ";
    if (i + 1 < n) s += "st.global.release.gpu.u32 [f" + std::to_string(i + 1) + "], 1; }\n";
    else s += "ld.global.u32 %d, [data]; }\n";
    cond += "T" + std::to_string(i) + ":" + r + " == 1 /\\ ";
  }
  return s + "exists (" + cond + "T" + std::to_string(n - 1) + ":%d == 0)\n";
}

std::string sb_ring(int n) {  // Ti: x_i = 1; fence.sc; read x_{i+1}
  std::string s = "PTX sb-ring-" + std::to_string(n) + "\n{\n";
  for (int i = 0; i < n; ++i) s += "  .global .u32 x" + std::to_string(i) + " = 0;\n";
  s += "}\n";
  std::string cond;
  for (int i = 0; i < n; ++i) {
    s += "T" + std::to_string(i) + " @ cta " + std::to_string(i) + " { st.global.relaxed.gpu.u32 [x" +
         std::to_string(i) + "], 1; fence.sc.gpu; ld.global.relaxed.gpu.u32 %r, [x" + std::to_string((i + 1) % n) +
         "]; }\n";
    cond += (i ? " /\\ T" : "T") + std::to_string(i) + ":%r == 0";
  }
  return s + "exists (" + cond + ")\n";
}

std::string iriw(int readers) {  // two writers, `readers` threads reading x then y (alternately y then x)
  std::string s = "PTX iriw-" + std::to_string(readers) +
                  "\n{\n  .global .u32 x = 0;\n  .global .u32 y = 0;\n}\n"
                  "T0 @ cta 0 { st.global.relaxed.gpu.u32 [x], 1; }\nT1 @ cta 1 { st.global.relaxed.gpu.u32 [y], 1; }\n";
  std::string cond;
  for (int i = 0; i < readers; ++i) {
    const char* a = i % 2 ? "y" : "x";
    const char* b = i % 2 ? "x" : "y";
    std::string t = "T" + std::to_string(i + 2);
    s += t + " @ cta " + std::to_string(i + 2) + " { ld.global.relaxed.gpu.u32 %a, [" + a +
         "]; fence.sc.gpu; ld.global.relaxed.gpu.u32 %b, [" + b + "]; }\n";
    cond += (i ? " /\\ " : "") + t + ":%a == 1 /\\ " + t + ":%b == 0";
  }
  return s + "exists (" + cond + ")\n";
}

}  // namespace

int main(int argc, char** argv) {
  std::string shared = "../shared";
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) quick = true;
    else shared = argv[i];
  }
  fs::path root = fs::path(shared) / "corpus/dat3m-ptx/litmus/PTX";
  std::vector<litmus::Test> tests;
  if (fs::exists(root)) {
    std::vector<std::string> files;
    for (const auto& e : fs::recursive_directory_iterator(root))
      if (e.path().extension() == ".litmus") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) tests.push_back(litmus::parse_litmus_file(f));
  }
  std::printf("== Dat3M PTX corpus: %zu tests, one process, sequential ==\n", tests.size());
  std::printf("%-6s %9s %10s %10s %10s %7s\n", "engine", "total s", "median ms", "p90 ms", "max ms", ">10s");
  for (const char* name : {"enum", "z3"}) {
    if (tests.empty()) break;
    auto engine = std::string(name) == "z3" ? mm::make_z3_engine() : mm::make_enum_engine();
    std::vector<double> t;
    for (const auto& test : tests) {
      try {
        t.push_back(decide(test, *engine, 60));
      } catch (const std::exception& e) {
        std::printf("  %s: %s: %s\n", name, test.name.c_str(), e.what());
        t.push_back(60);
      }
      if (quick && t.size() >= 100) break;
    }
    double total = 0;
    for (double x : t) total += x;
    std::sort(t.begin(), t.end());
    size_t over = std::count_if(t.begin(), t.end(), [](double x) { return x > 10; });
    std::printf("%-6s %9.2f %10.2f %10.2f %10.1f %7zu\n", name, total, 1000 * t[t.size() / 2],
                1000 * t[t.size() * 9 / 10], 1000 * t.back(), over);
  }
  std::printf("\n== scaling (seconds per test; z3/enum ratio) ==\n%-10s %3s %10s %10s %8s\n", "family", "N", "enum", "z3",
              "z3/enum");
  auto en = mm::make_enum_engine();
  auto z3 = mm::make_z3_engine();
  struct Fam {
    const char* name;
    std::string (*gen)(int);
    int lo, hi;
  };
  for (Fam f : {Fam{"mp-chain", mp_chain, 2, 8}, Fam{"sb-ring", sb_ring, 2, 8}, Fam{"iriw", iriw, 2, 8}}) {
    for (int n = f.lo; n <= (quick ? std::min(f.hi, 4) : f.hi); ++n) {
      litmus::Test t = litmus::parse_litmus_text(f.gen(n), f.name);
      double te = -1, tz = -1;
      try {
        te = decide(t, *en, 120);
      } catch (const std::exception&) {
      }
      try {
        tz = decide(t, *z3, 120);
      } catch (const std::exception&) {
      }
      std::printf("%-10s %3d %10.4f %10.4f %8.2f%s\n", f.name, n, te, tz, te > 0 ? tz / te : 0.0,
                  te < 0 || tz < 0 ? "  (limit)" : "");
      std::fflush(stdout);
    }
  }
  return 0;
}
