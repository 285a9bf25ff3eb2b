// `ptxcheck parse --json` against plain `ptxcheck parse` on the same large
// module, in the same run: builds a module of about MB megabytes from the
// sm_80 corpus (module_gen.hpp), then runs both commands RUNS times each,
// alternating, with stdout to /dev/null, and reports per command the CPU time
// (user+system; the machine is shared), the wall time and the peak RSS
// (wait4's ru_maxrss), minimum and median over the runs, and the ratios of
// the medians. Target (issue 14): --json under 2x the time and 4x the memory
// of plain parse; exit 1 when a median ratio misses it.
// Usage: bench_parse_json PTXCHECK_EXE [SRC_ROOT] [MB=4.5] [RUNS=5]
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/parse/module_gen.hpp"

namespace fs = std::filesystem;

namespace {

struct Sample {
  double cpu = 0, wall = 0, rss_mb = 0;
};

// Runs EXE parse [--json] FILE with stdout and stderr to /dev/null.
Sample run_once(const std::string& exe, bool json, const std::string& file) {
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) {
    std::perror("fork");
    std::exit(2);
  }
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    ::dup2(null, 2);
    std::vector<const char*> argv{exe.c_str(), "parse"};
    if (json) argv.push_back("--json");
    argv.push_back(file.c_str());
    argv.push_back(nullptr);
    ::execv(exe.c_str(), const_cast<char* const*>(argv.data()));
    ::_exit(127);
  }
  int status = 0;
  rusage u{};
  ::wait4(pid, &status, 0, &u);
  Sample s;
  s.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "bench_parse_json: %s parse%s %s failed (status %d)\n", exe.c_str(),
                 json ? " --json" : "", file.c_str(), status);
    std::exit(2);
  }
  s.cpu = u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
  s.rss_mb = u.ru_maxrss / 1024.0;  // kilobytes on Linux
  return s;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
double minimum(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }

struct Stats {
  std::vector<double> cpu, wall, rss;
  void add(const Sample& s) {
    cpu.push_back(s.cpu);
    wall.push_back(s.wall);
    rss.push_back(s.rss_mb);
  }
  void print(const char* name) const {
    std::printf("%-22s cpu min %.3f s median %.3f s | wall min %.3f s median %.3f s | peak RSS min %.1f MB median %.1f MB\n",
                name, minimum(cpu), median(cpu), minimum(wall), median(wall), minimum(rss), median(rss));
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_parse_json PTXCHECK_EXE [SRC_ROOT] [MB] [RUNS]\n");
    return 2;
  }
  const std::string exe = argv[1];
  const char* env = std::getenv("PTXCHECK_SRC");
  const fs::path root = argc > 2 ? fs::path(argv[2]) : fs::path(env ? env : ".");
  const double mb = argc > 3 ? std::atof(argv[3]) : 4.5;
  const int runs = argc > 4 ? std::max(1, std::atoi(argv[4])) : 5;
  const auto mods = benchgen::corpus_modules(root);
  if (mods.empty()) {
    std::fprintf(stderr, "bench_parse_json: no corpus/ptx/sm_80/*.ptx under %s\n", root.c_str());
    return 2;
  }
  size_t copies = 0;
  const std::string text = benchgen::build_module(mods, static_cast<size_t>(mb * 1e6), copies);
  const fs::path tmp = fs::temp_directory_path() / ("bench-parse-json-" + std::to_string(::getpid()) + ".ptx");
  std::ofstream(tmp) << text;
  std::printf("module: %.2f MB (%zu corpus modules x %zu copies), %d runs each\n", text.size() / 1e6, mods.size(),
              copies, runs);
  Stats plain, json;
  for (int i = 0; i < runs; ++i) {
    plain.add(run_once(exe, false, tmp.string()));
    json.add(run_once(exe, true, tmp.string()));
  }
  fs::remove(tmp);
  plain.print("ptxcheck parse");
  json.print("ptxcheck parse --json");
  const double t_ratio = median(json.cpu) / median(plain.cpu);
  const double m_ratio = median(json.rss) / median(plain.rss);
  std::printf("ratio --json/plain (medians): cpu %.2fx (target < 2x), wall %.2fx, peak RSS %.2fx (target < 4x)\n",
              t_ratio, median(json.wall) / median(plain.wall), m_ratio);
  return t_ratio < 2 && m_ratio < 4 ? 0 : 1;
}
