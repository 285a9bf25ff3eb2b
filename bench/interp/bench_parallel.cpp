// CTAs on all cores (docs/interpreter.md): wall time of CTA-independent
// kernels (nvcc-compiled PTX in corpus/ptx/sm_80 and bench/interp) with one
// job (the deterministic schedule, the reference) and with N jobs, measured
// alternately in the same run; prints the minimum and the median of each
// and their ratios, the load average before and after, and checks that both
// runs give the same outputs, diagnostics and step counts and that the N-job
// runs ran their CTAs in parallel.
// Usage: bench_parallel [--quick] [--runs R] [--jobs N] [--races] [--once J] [--pause MS] [KERNEL...]
//   (PTXCHECK_SRC: source root; N defaults to the number of cores, R to 5;
//   --races runs with race detection, as `ptxcheck run` does by default;
//   --once J runs each kernel R times (default 1) with J jobs only and
//   compares nothing: for profilers, e.g. valgrind --tool=callgrind
//   --separate-threads=yes; --pause MS sleeps MS milliseconds after each
//   pair of runs, outside the timing: under `chrt -f` the kernel's
//   real-time throttling, 950 ms per second, would otherwise stop a long
//   series)
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "semantics/interp/run.hpp"

using namespace ptxcheck::interp;
namespace fs = std::filesystem;

namespace {

struct Bench {
  const char* name;
  std::string spec;  // launch spec text
};

double wall() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string load() {
  double l[3] = {0, 0, 0};
  if (getloadavg(l, 3) != 3) return "?";
  char b[64];
  std::snprintf(b, sizeof b, "%.2f %.2f %.2f", l[0], l[1], l[2]);
  return b;
}

std::string buf(const char* name, const char* type, int count, const std::string& init) {
  return "\"" + std::string(name) + "\": {\"type\": \"" + type + "\", \"count\": " + std::to_string(count) +
         (init.empty() ? "" : ", \"init\": " + init) + "}";
}

std::string iota(double start, double step) {
  char b[96];
  std::snprintf(b, sizeof b, "{\"iota\": {\"start\": %g, \"step\": %g}}", start, step);
  return b;
}

}  // namespace

namespace {
int bench_main(int argc, char** argv) {
  bool quick = false, races = false;
  int runs = 0, once = 0, pause_ms = 0;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::string> only;
  for (int a = 1; a < argc; ++a) {
    std::string s = argv[a];
    if (s == "--quick")
      quick = true;
    else if (s == "--races")
      races = true;
    else if (s == "--runs" && a + 1 < argc)
      runs = std::max(1, std::atoi(argv[++a]));
    else if (s == "--pause" && a + 1 < argc)
      pause_ms = std::max(0, std::atoi(argv[++a]));
    else if (s == "--once" && a + 1 < argc)
      once = std::max(1, std::atoi(argv[++a]));
    else if (s == "--jobs" && a + 1 < argc)
      jobs = static_cast<unsigned>(std::max(1, std::atoi(argv[++a])));
    else
      only.push_back(s);
  }
  if (!runs) runs = once ? 1 : 5;
  // The source tree (PTXCHECK_SRC, else the current folder), made absolute:
  // the specs are written to a temporary folder, and a spec's relative
  // "ptx" path is read from the spec's folder.
  const char* src = std::getenv("PTXCHECK_SRC");
  const std::string ptx = (fs::absolute(src ? src : ".").lexically_normal() / "corpus/ptx/sm_80/").string();
  const std::string own = (fs::absolute(src ? src : ".").lexically_normal() / "bench/interp/").string();
  const int N = quick ? 1 << 14 : 1 << 20;  // saxpy elements
  const int M = quick ? 32 : 128;           // matmul size
  const int W = quick ? 64 : 512;           // stencil width/height
  const int L = quick ? 1024 : 32768;       // loops threads
  const int NB = quick ? 256 : 1024;        // nbody bodies
  const int HN = quick ? 1024 : 16384;      // horner elements

  std::vector<Bench> benches;
  benches.push_back({"saxpy", "{\"ptx\": \"" + ptx + "saxpy.ptx\", \"kernel\": \"saxpy\", \"grid\": [" +
                                  std::to_string(N / 256) + "], \"block\": [256], \"buffers\": {" +
                                  buf("x", "f32", N, iota(-50, 0.25)) + ", " + buf("y", "f32", N, iota(3, -0.125)) +
                                  "}, \"args\": [{\"f32\": 1.7}, {\"buffer\": \"x\"}, {\"buffer\": \"y\"}, {\"s32\": " +
                                  std::to_string(N) + "}], \"outputs\": [\"y\"]}"});
  benches.push_back(
      {"matmul_tiled", "{\"ptx\": \"" + ptx + "matmul_tiled.ptx\", \"kernel\": \"matmul_tiled\", \"grid\": [" +
                           std::to_string(M / 8) + ", " + std::to_string(M / 8) +
                           "], \"block\": [8, 8], \"buffers\": {" + buf("a", "f32", M * M, iota(-1, 0.001)) + ", " +
                           buf("b", "f32", M * M, iota(2, -0.0005)) + ", " + buf("c", "f32", M * M, "") +
                           "}, \"args\": [{\"buffer\": \"a\"}, {\"buffer\": \"b\"}, {\"buffer\": \"c\"}, {\"s32\": " +
                           std::to_string(M) + "}], \"outputs\": [\"c\"]}"});
  benches.push_back(
      {"stencil2d", "{\"ptx\": \"" + ptx + "stencil2d.ptx\", \"kernel\": \"stencil2d\", \"grid\": [" +
                        std::to_string(W / 8) + ", " + std::to_string(W / 8) + "], \"block\": [8, 8], \"buffers\": {" +
                        buf("in", "f32", W * W, iota(0, 0.01)) + ", " + buf("out", "f32", W * W, "") +
                        "}, \"args\": [{\"buffer\": \"in\"}, {\"buffer\": \"out\"}, {\"s32\": " + std::to_string(W) +
                        "}, {\"s32\": " + std::to_string(W) + "}], \"outputs\": [\"out\"]}"});
  benches.push_back({"loops", "{\"ptx\": \"" + ptx + "loops.ptx\", \"kernel\": \"loops\", \"grid\": [" +
                                  std::to_string(L / 256) + "], \"block\": [256], \"buffers\": {" +
                                  buf("steps", "s32", L, "") + ", " + buf("acc", "u32", L, "") +
                                  "}, \"args\": [{\"buffer\": \"steps\"}, {\"buffer\": \"acc\"}, {\"s32\": " +
                                  std::to_string(L) + "}], \"outputs\": [\"acc\"]}"});
  benches.push_back(
      {"nbody", "{\"ptx\": \"" + own + "arith_heavy.ptx\", \"kernel\": \"nbody\", \"grid\": [" +
                    std::to_string(NB / 128) + "], \"block\": [128], \"buffers\": {" +
                    buf("pos", "f32", 4 * NB, iota(0.5, 0.0078125)) + ", " + buf("acc", "f32", 4 * NB, "") +
                    "}, \"args\": [{\"buffer\": \"pos\"}, {\"buffer\": \"acc\"}, {\"s32\": " + std::to_string(NB) +
                    "}, {\"f32\": 0.01}], \"outputs\": [\"acc\"]}"});
  benches.push_back({"horner", "{\"ptx\": \"" + own + "arith_heavy.ptx\", \"kernel\": \"horner\", \"grid\": [" +
                                   std::to_string(HN / 256) + "], \"block\": [256], \"buffers\": {" +
                                   buf("x", "f32", HN, iota(-1, 0.0001)) + ", " + buf("y", "f32", HN, "") + ", " +
                                   buf("h", "u32", HN, "") +
                                   "}, \"args\": [{\"buffer\": \"x\"}, {\"buffer\": \"y\"}, " +
                                   "{\"buffer\": \"h\"}, {\"s32\": " + std::to_string(HN) +
                                   "}, {\"s32\": 32}], \"outputs\": [\"y\", \"h\"]}"});

  const fs::path tmp = fs::temp_directory_path() / ("ptxcheck_bench_parallel_" + std::to_string(::getpid()));
  fs::create_directories(tmp);
  struct RemoveTmp {  // also when a run throws
    fs::path p;
    ~RemoveTmp() {
      std::error_code e;
      fs::remove_all(p, e);
    }
  } remove_tmp{tmp};
  std::printf("jobs %u, %d runs each (alternating), races %s, %u cores; load average before: %s\n", jobs, runs,
              races ? "on" : "off", std::thread::hardware_concurrency(), load().c_str());
  std::printf("%-13s %6s %13s %17s %17s %15s  %s\n", "kernel", "CTAs", "thread-instr", "1 job s min/med",
              "N jobs s min/med", "speedup min/med", "check");
  int bad = 0;
  double log_sum = 0;
  int counted = 0;
  for (const Bench& b : benches) {
    if (!only.empty() && std::find(only.begin(), only.end(), b.name) == only.end()) continue;
    const std::string path = (tmp / (std::string(b.name) + ".json")).string();
    std::ofstream(path) << b.spec;
    RunOptions one;
    one.check_races = races;
    if (once) {
      RunOptions o = one;
      o.jobs = static_cast<unsigned>(once);
      RunReport r;
      for (int k = 0; k < runs; ++k) r = run_spec_file(path, o, SpecBytes::Move);
      std::printf("%-13s %s, %llu thread instructions\n", b.name, r.result.schedule.c_str(),
                  static_cast<unsigned long long>(r.result.thread_instructions));
      if (!r.result.ok) ++bad;
      continue;
    }
    RunOptions many = one;
    many.jobs = jobs;
    std::vector<double> t1, tn;
    RunReport r1, rn;
    for (int k = 0; k < runs; ++k) {
      // The previous run's report is freed before the clock starts: its
      // buffers' pages going back to the system are not this run's work.
      r1 = RunReport{};
      double t0 = wall();
      r1 = run_spec_file(path, one, SpecBytes::Move);
      t1.push_back(wall() - t0);
      rn = RunReport{};
      t0 = wall();
      rn = run_spec_file(path, many, SpecBytes::Move);
      tn.push_back(wall() - t0);
      if (pause_ms) std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms));
    }
    r1.result.seconds = rn.result.seconds = 0;
    auto kinds = [](const RunReport& r) {
      std::string k;
      for (const auto& d : r.result.diagnostics)
        k += d.kind + ":" + std::to_string(d.line) + ":" + std::to_string(d.count) + ";";
      return k;
    };
    const bool same = r1.result.buffers == rn.result.buffers && kinds(r1) == kinds(rn) &&
                      r1.result.thread_instructions == rn.result.thread_instructions &&
                      r1.result.printf_output == rn.result.printf_output;
    const bool par = jobs < 2 || rn.result.schedule == "parallel";
    if (!same || !par || !r1.result.ok) ++bad;
    const double s_min = *std::min_element(t1.begin(), t1.end()) / *std::min_element(tn.begin(), tn.end());
    const double s_med = median(t1) / median(tn);
    log_sum += std::log(s_med);
    ++counted;
    const uint64_t ctas = uint64_t{r1.spec.grid[0]} * r1.spec.grid[1] * r1.spec.grid[2];
    std::printf("%-13s %6llu %13llu %8.3f/%-8.3f %8.3f/%-8.3f %7.2fx/%-6.2fx  %s%s\n", b.name,
                static_cast<unsigned long long>(ctas), static_cast<unsigned long long>(r1.result.thread_instructions),
                *std::min_element(t1.begin(), t1.end()), median(t1), *std::min_element(tn.begin(), tn.end()),
                median(tn), s_min, s_med, same ? "same output" : "OUTPUT DIFFERS",
                par ? "" : (", ran: " + rn.result.schedule).c_str());
  }
  if (counted)
    std::printf("geometric mean of the median speedups: %.2fx; load average after: %s\n", std::exp(log_sum / counted),
                load().c_str());
  std::printf("times are wall seconds of parse + lower + run; speedup = 1 job / N jobs\n");
  return bad ? 1 : 0;
}

}  // namespace

// A missing or unreadable input (the corpus PTX outside the source tree)
// is one line and exit 2, not an abort.
int main(int argc, char** argv) {
  try {
    return bench_main(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_parallel: %s\n", e.what());
    return 2;
  }
}
