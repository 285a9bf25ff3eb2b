// Parse throughput benchmark: builds a >= 5 MB PTX module from the sm_80
// corpus (every module's functions and variables copied N times with renamed
// symbols), times parse_module on it (best of 3), and times ptxas on the same
// file in the same run. Prints MB/s for both and the ratio.
// Usage: bench_parse [SRC_ROOT] [MIN_MB]   (SRC_ROOT defaults to $PTXCHECK_SRC)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <sys/resource.h>
#include <unistd.h>

#include "bench/parse/module_gen.hpp"
#include "parser/parse.hpp"
#include "parser/printer.hpp"

namespace fs = std::filesystem;
using namespace ptxcheck;
using benchgen::build_module;
using benchgen::read;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// CPU seconds (user+system) of this process or of its waited-for children:
// the machine is shared, so CPU time is the fair measure; wall is printed too.
double cpu_seconds(int who) {
  rusage u{};
  getrusage(who, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}


}  // namespace

int main(int argc, char** argv) {
  const char* env = std::getenv("PTXCHECK_SRC");
  const fs::path root = argc > 1 ? fs::path(argv[1]) : fs::path(env ? env : ".");
  const double min_mb = argc > 2 ? std::atof(argv[2]) : 5.0;
  std::vector<ast::Module> mods;
  for (const auto& e : fs::directory_iterator(root / "corpus/ptx/sm_80"))
    if (e.path().extension() == ".ptx") mods.push_back(parse_module(read(e.path()), e.path().string()));
  if (mods.empty()) {
    std::fprintf(stderr, "bench_parse: no corpus/ptx/sm_80/*.ptx under %s\n", root.c_str());
    return 2;
  }
  std::sort(mods.begin(), mods.end(), [](const auto& a, const auto& b) { return a.file < b.file; });
  size_t copies = 0;
  const std::string text = build_module(mods, static_cast<size_t>(min_mb * 1e6), copies);
  const double mb = text.size() / 1e6;
  double best = 1e9, best_wall = 1e9;
  size_t items = 0;
  for (int rep = 0; rep < 3; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    const double c0 = cpu_seconds(RUSAGE_SELF);
    ast::Module m = parse_module(text, "bench.ptx");
    best = std::min(best, cpu_seconds(RUSAGE_SELF) - c0);
    best_wall = std::min(best_wall, seconds_since(t0));
    items = m.items.size();
  }
  std::printf("module: %.2f MB, %zu top-level items (%zu corpus modules x %zu copies)\n", mb, items,
              mods.size(), copies);
  std::printf("ptxcheck parse: %.3f s cpu (%.3f s wall)  %.1f MB/s\n", best, best_wall, mb / best);

  const char* cuda = std::getenv("CUDA_HOME");
  const std::string ptxas = std::string(cuda ? cuda : "/usr/local/cuda") + "/bin/ptxas";
  if (!fs::exists(ptxas)) {
    std::printf("ptxas: not found (%s); no ratio\n", ptxas.c_str());
    return 0;
  }
  const fs::path tmp = fs::temp_directory_path() / ("bench-parse-" + std::to_string(::getpid()) + ".ptx");
  std::ofstream(tmp) << text;
  auto t0 = std::chrono::steady_clock::now();
  const double c0 = cpu_seconds(RUSAGE_CHILDREN);
  const std::string cmd = ptxas + " -arch=sm_80 " + tmp.string() + " -o /dev/null";
  const int rc = std::system(cmd.c_str());
  const double tp = cpu_seconds(RUSAGE_CHILDREN) - c0, tp_wall = seconds_since(t0);
  fs::remove(tmp);
  std::printf("ptxas -arch=sm_80 (full assembly, rc=%d): %.3f s cpu (%.3f s wall)  %.1f MB/s\n", rc, tp,
              tp_wall, mb / tp);
  std::printf("ratio parse/ptxas throughput: %.1fx\n", tp / best);
  return rc == 0 ? 0 : 1;
}
