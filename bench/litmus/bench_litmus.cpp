// Litmus checking speed.
// Part 1: the Dat3M PTX corpus in one process, per engine: total, median,
// p90 and max CPU time per test, and the wall time of the whole corpus with
// two worker threads (target: enum under 2 s).
// Part 2: generated scaling families (bench/litmus/families.hpp) for N up
// to 12 threads, in the enumeration engine, the Z3 engine and the previous
// default path ("prev": the enumeration engine handed every trace
// combination, without the symmetry reduction, CheckOptions::symmetry),
// min and median CPU seconds over the runs, the speedup of enum over the
// previous path measured here, and the verdict checked against the
// family's and across engines (same states, same counts). Targets: every
// family at N=8 within 1 s and at N=12 within 10 s in the default engine.
// A slower engine stops growing N once one test passes --limit seconds.
//   bench_litmus [SHARED_DIR] [--quick] [--no-corpus] [--runs R] [--max-n N] [--limit S]
//                [--family NAME] [--min-n N]
// Exit: 0, or 1 when a verdict is wrong or engines disagree.
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "bench/litmus/families.hpp"
#include "memmodel/engine.hpp"
#include "parser/litmus/litmus_ast.hpp"
#include "semantics/litmus/check.hpp"

using namespace ptxcheck;
namespace fs = std::filesystem;

namespace {

double cpu_now() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

struct Outcome {
  bool ok = false;
  std::vector<std::pair<std::string, uint64_t>> states;
  bool operator==(const Outcome&) const = default;
};

// Decides t; returns CPU seconds (negative when a limit was hit).
double decide(const litmus::Test& t, mm::Engine& e, double timeout, Outcome* out = nullptr, bool symmetry = true) {
  const double s = cpu_now();
  try {
    litmus::Program p = litmus::lower(t);
    litmus::CheckOptions opt;
    opt.symmetry = symmetry;
    opt.limits.timeout_s = timeout;
    const litmus::CheckResult r = litmus::check(p, e, opt);
    if (out) {
      out->ok = r.ok;
      for (const auto& st : r.states) out->states.emplace_back(st.text, st.count);
    }
  } catch (const std::exception&) {
    return -1;
  }
  return cpu_now() - s;
}

std::unique_ptr<mm::Engine> engine(const std::string& name) {
  if (name == "z3") return mm::make_z3_engine();
  if (name == "enum-perm") return mm::make_enum_perm_engine();
  return mm::make_enum_engine();  // "enum", and "prev" (enum without symmetry)
}

void corpus(const std::string& shared, bool quick) {
  fs::path root = fs::path(shared) / "corpus/dat3m-ptx/litmus/PTX";
  std::vector<litmus::Test> tests;
  if (fs::exists(root)) {
    std::vector<std::string> files;
    for (const auto& e : fs::recursive_directory_iterator(root))
      if (e.path().extension() == ".litmus") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) tests.push_back(litmus::parse_litmus_file(f));
  }
  if (quick && tests.size() > 100) tests.resize(100);
  std::printf("== Dat3M PTX corpus: %zu tests, one process (CPU ms per test; -j2 wall s) ==\n", tests.size());
  if (tests.empty()) return;
  std::printf("%-10s %9s %10s %10s %10s %7s %9s\n", "engine", "total s", "median ms", "p90 ms", "max ms", "limit", "-j2 wall");
  for (const std::string name : {"enum", "z3", "enum-perm", "prev"}) {
    const bool sym = name != "prev";
    auto e = engine(name);
    std::vector<double> t;
    size_t limits = 0;
    for (const auto& test : tests) {
      double s = decide(test, *e, 60, nullptr, sym);
      if (s < 0) ++limits, s = 60;
      t.push_back(s);
    }
    double total = 0;
    for (double x : t) total += x;
    std::sort(t.begin(), t.end());
    // Two worker threads over the corpus, one engine each, wall clock.
    std::atomic<size_t> next{0};
    const auto w0 = std::chrono::steady_clock::now();
    auto work = [&] {
      auto en = engine(name);
      for (size_t i; (i = next++) < tests.size();) decide(tests[i], *en, 60, nullptr, sym);
    };
    std::thread other(work);
    work();
    other.join();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
    std::printf("%-10s %9.2f %10.2f %10.2f %10.1f %7zu %9.2f\n", name.c_str(), total, 1000 * t[t.size() / 2],
                1000 * t[t.size() * 9 / 10], 1000 * t.back(), limits, wall);
    std::fflush(stdout);
  }
}

struct Stat {
  double min = -1, median = -1;  // -1: over the limit (or not run)
};

// `limit` is CPU seconds; engines time out on the wall clock, which a
// loaded machine stretches, so they get a generous multiple of it.
Stat measure(const litmus::Test& t, mm::Engine& e, bool symmetry, int runs, double limit, Outcome& out) {
  std::vector<double> v;
  for (int r = 0; r < runs; ++r) {
    Outcome o;
    const double s = decide(t, e, 20 * limit, r == 0 ? &o : nullptr, symmetry);
    if (s < 0 || s > limit) return {};
    if (r == 0) out = o;
    v.push_back(s);
    if (s > limit / 2) break;  // one slow run is enough
  }
  std::sort(v.begin(), v.end());
  return {v.front(), v[v.size() / 2]};
}

std::string cell(const Stat& s) {
  char b[48];
  if (s.min < 0) return "      -       -";
  std::snprintf(b, sizeof b, "%7.3f %7.3f", s.min, s.median);
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  std::string shared = "../shared";
  bool quick = false, no_corpus = false;
  int runs = 3, max_n = 12;
  double limit = 10;
  std::string only;
  int min_n = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) quick = true;
    else if (!std::strcmp(argv[i], "--no-corpus")) no_corpus = true;
    else if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) runs = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--max-n") && i + 1 < argc) max_n = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--limit") && i + 1 < argc) limit = std::atof(argv[++i]);
    else if (!std::strcmp(argv[i], "--family") && i + 1 < argc) only = argv[++i];
    else if (!std::strcmp(argv[i], "--min-n") && i + 1 < argc) min_n = std::atoi(argv[++i]);
    else shared = argv[i];
  }
  if (quick) max_n = std::min(max_n, 6), runs = 1;
  if (!no_corpus) corpus(shared, quick);

  std::printf("\n== scaling families: CPU seconds per test, min and median of %d runs; one thread ==\n", runs);
  std::printf("%-11s %3s %15s %15s %15s %8s %7s %s\n", "family", "N", "enum min med", "z3 min med",
              "prev min med", "prev/enum", "verdict", "targets (enum: N=8 <= 1 s, N=12 <= 10 s)");
  const char* names[] = {"enum", "z3", "prev"};
  int bad = 0;
  for (const auto& fam : bench::families()) {
    if (!only.empty() && only != fam.name) continue;
    bool alive[3] = {true, true, true};
    for (int n = std::max(fam.min_n, min_n); n <= max_n; ++n) {
      const litmus::Test t = litmus::parse_litmus_text(fam.make(n), fam.name);
      Stat st[3];
      Outcome out[3];
      for (int k = 0; k < 3; ++k) {
        if (!alive[k]) continue;
        auto e = engine(names[k]);
        const double lim = k == 0 ? std::max(limit, 10.0) : limit;  // enum: up to its N=12 target
        st[k] = measure(t, *e, k != 2, runs, lim, out[k]);
        if (st[k].min < 0 || st[k].median > lim / 2) alive[k] = false;
      }
      std::string verdict = st[0].min < 0 ? "?" : out[0].ok == fam.ok ? "right" : "WRONG";
      for (int k = 1; k < 3; ++k)
        if (st[k].min >= 0 && st[0].min >= 0 && !(out[k] == out[0])) verdict = "DISAGREE";
      if (verdict == "WRONG" || verdict == "DISAGREE") ++bad;  // "?": over the limit, shown as MISSED
      std::string target;
      if (n == 8 || n == 12) {
        const double bound = n == 8 ? 1 : 10;
        target = st[0].median >= 0 && st[0].median <= bound ? "met" : "MISSED";
      }
      char speed[32] = "       -";
      if (st[0].median > 0 && st[2].median >= 0) std::snprintf(speed, sizeof speed, "%8.1f", st[2].median / st[0].median);
      std::printf("%-11s %3d %s %s %s %s %7s %s\n", fam.name, n, cell(st[0]).c_str(), cell(st[1]).c_str(),
                  cell(st[2]).c_str(), speed, verdict.c_str(), target.c_str());
      std::fflush(stdout);
    }
  }
  std::printf("\n'-': over the %.0f s CPU limit (the engine stops growing N); prev = enum given every trace combination (no symmetry reduction)\n",
              limit);
  return bad ? 1 : 0;
}
