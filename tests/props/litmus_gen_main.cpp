// litmus-gen: writes N random cycle-based litmus tests (litmus_gen.hpp) into
// a folder, in the native format or Dat3M's dialect, for hardware campaigns
// and for ptxcheck runs. Deterministic in --seed. Not installed.
//   litmus-gen --count 100 --seed 7 --dialect native --out DIR
// Exit codes: 0 ok, 2 usage or output error.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include "parser/litmus/print.hpp"
#include "tests/props/litmus_gen.hpp"

using namespace ptxcheck;

int main(int argc, char** argv) {
  CLI::App app{"Random cycle-based PTX litmus tests (tests/props/litmus_gen.hpp)"};
  int count = 10, max_threads = 4, max_internal = 2;
  uint64_t seed = 1;
  std::string dialect = "native", out;
  bool warps = false;
  props::GenOptions opt;
  app.add_option("-n,--count", count, "number of tests")->check(CLI::Range(1, 1000000));
  app.add_option("-s,--seed", seed, "random seed");
  app.add_option("-d,--dialect", dialect, "native or dat3m")->check(CLI::IsMember({"native", "dat3m"}));
  app.add_option("-o,--out", out, "output folder (created)")->required();
  app.add_option("--max-threads", max_threads, "threads per test, 2..N")->check(CLI::Range(2, 8));
  app.add_option("--max-internal", max_internal, "internal edges per thread")->check(CLI::Range(0, 4));
  app.add_flag("--warps", warps, "place threads in warps (native dialect only)");
  app.add_flag("--strong", opt.strong, "no weak accesses; scopes .sys/.gpu only");
  app.add_option("--max-writes", opt.max_writes_per_loc, "writes per location")->check(CLI::Range(1, 8));
  app.add_option("--max-accesses", opt.max_accesses, "memory accesses per test")->check(CLI::Range(2, 64));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  if (warps && dialect == "dat3m") {
    std::fprintf(stderr, "error: Dat3M's dialect has no warps\n");
    return 2;
  }
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec) {
    std::fprintf(stderr, "%s: error: %s\n", out.c_str(), ec.message().c_str());
    return 2;
  }
  std::mt19937_64 rng(seed);
  opt.max_threads = max_threads;
  opt.max_internal = max_internal;
  opt.warps = warps;
  for (int i = 0; i < count; ++i) {
    opt.name_prefix = "g" + std::to_string(seed) + "-" + std::to_string(i) + "+";
    litmus::Test t;
    do {
      t = props::generate(opt, [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); });
    } while (!props::fits(t, opt));
    std::string text = dialect == "native" ? litmus::print_native(t) : litmus::print_dat3m(t);
    char name[64];
    std::snprintf(name, sizeof name, "g%llu-%05d.litmus", static_cast<unsigned long long>(seed), i);
    std::ofstream f(std::filesystem::path(out) / name);
    f << text;
    if (!f) {
      std::fprintf(stderr, "%s/%s: error: cannot write\n", out.c_str(), name);
      return 2;
    }
  }
  std::printf("wrote %d tests to %s\n", count, out.c_str());
  return 0;
}
