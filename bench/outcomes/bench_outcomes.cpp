// `ptxcheck outcomes` at the scale of issue 9: for each bench spec of this
// folder, the CPU seconds of the whole exploration (outcomes::explore with
// the enum engine, what `ptxcheck outcomes SPEC` runs) and, as the
// reference measured in the same run, of one `ptxcheck run` of the same
// spec (interp::run_spec_file: parse, lower, one schedule). Prints min and
// median over the runs, the ratio of the medians, and checks that the
// exploration finds exactly one outcome equal to run's outputs (both
// kernels are correctly synchronised) and that it meets the target.
// Usage: bench_outcomes [--runs N]   (PTXCHECK_SRC: source root)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#include "memmodel/engine.hpp"
#include "semantics/interp/run.hpp"
#include "semantics/outcomes/explore.hpp"

using namespace ptxcheck;
namespace fs = std::filesystem;

namespace {

// CPU time of this thread: the machine may be shared.
double now() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

struct Case {
  const char* spec;    // in bench/outcomes
  const char* what;
  double target_s;     // issue 9: "within" this many seconds
};

struct Stat {
  double min = 0, median = 0;
};

Stat stat(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v.front(), v[v.size() / 2]};
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 7;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else {
      std::fprintf(stderr, "usage: bench_outcomes [--runs N]\n");
      return 2;
    }
  }
  const char* src = std::getenv("PTXCHECK_SRC");
  const fs::path dir = fs::path(src ? src : ".") / "bench" / "outcomes";
  const Case cases[] = {
      {"reduce_handoff.json", "2 CTAs x 32 threads: smem tree reduction + fenced cross-CTA handover", 10.0},
      {"relay3_handoff.json", "3 CTAs x 1 thread: two fenced handovers", 1.0},
  };
  std::printf("== ptxcheck outcomes vs ptxcheck run (CPU s, %d runs each; ratio of medians) ==\n", runs);
  std::printf("%-22s %9s %9s %9s %9s %9s %7s %s\n", "spec", "out min", "out med", "run min", "run med", "ratio",
              "target", "launches");
  bool ok = true;
  for (const Case& c : cases) {
    const std::string spec = (dir / c.spec).string();
    std::vector<double> to, tr;
    outcomes::Result last;
    interp::RunReport rep;
    try {
      for (int r = 0; r < runs; ++r) {
        auto engine = mm::make_enum_engine();
        outcomes::Options opt;
        opt.model = mm::Model{};  // ptx75, the default of `ptxcheck outcomes`
        const double s = now();
        last = outcomes::explore(spec, *engine, opt);
        to.push_back(now() - s);
        interp::RunOptions ro;
        const double s2 = now();
        rep = interp::run_spec_file(spec, ro);
        tr.push_back(now() - s2);
      }
    } catch (const std::exception& e) {
      std::printf("%-22s failed: %s\n", c.spec, e.what());
      ok = false;
      continue;
    }
    const Stat o = stat(to), r = stat(tr);
    std::printf("%-22s %9.4f %9.4f %9.5f %9.5f %9.1f %6.0fs %llu\n", c.spec, o.min, o.median, r.min, r.median,
                o.median / std::max(r.median, 1e-9), c.target_s, static_cast<unsigned long long>(last.stats.runs));
    std::printf("  %s\n", c.what);
    // Checks: one outcome, run's outputs, within the target.
    std::vector<std::vector<uint8_t>> run_out;
    for (const auto& name : rep.spec.outputs) run_out.push_back(rep.result.buffers[static_cast<size_t>(rep.spec.buffer_index(name))]);
    if (last.outcomes.size() != 1 || last.outcomes[0].buffers != run_out || !last.complete || last.bound_hit) {
      std::printf("  FAIL: expected exactly one outcome, equal to run's outputs (got %zu)\n", last.outcomes.size());
      ok = false;
    }
    if (o.median > c.target_s) {
      std::printf("  FAIL: median %.3f s over the target %.0f s\n", o.median, c.target_s);
      ok = false;
    }
  }
  // The search of docs/outcomes.md "How the search scales" against the one
  // before it (CTAs not explored apart, compositions not checked by
  // location: Options::decompose and prune off), in the same run, on the
  // bench kernels and on corpus/outcomes/lastblock_4cta (the previous
  // search needs ~30 s a run there: at most 3 runs of it).
  std::printf("\n== search vs previous search (CPU s; ratio of medians) ==\n");
  std::printf("%-22s %9s %9s %9s %9s %9s %s\n", "spec", "new min", "new med", "old min", "old med", "ratio", "launches new/old");
  const fs::path corpus = fs::path(src ? src : ".") / "corpus" / "outcomes";
  const std::pair<fs::path, int> cmp[] = {{dir / "reduce_handoff.json", runs}, {dir / "relay3_handoff.json", runs},
                                          {corpus / "lastblock_4cta.json", std::min(runs, 3)}};
  for (const auto& [path, old_runs] : cmp) {
    std::vector<double> tn, tt;
    outcomes::Result rn, rt;
    try {
      for (int r = 0; r < runs; ++r) {
        auto engine = mm::make_enum_engine();
        outcomes::Options opt;
        const double s = now();
        rn = outcomes::explore(path.string(), *engine, opt);
        tn.push_back(now() - s);
        if (r >= old_runs) continue;
        opt.decompose = opt.prune = false;
        const double s2 = now();
        rt = outcomes::explore(path.string(), *engine, opt);
        tt.push_back(now() - s2);
      }
    } catch (const std::exception& e) {
      std::printf("%-22s failed: %s\n", path.filename().c_str(), e.what());
      ok = false;
      continue;
    }
    const Stat n = stat(tn), t = stat(tt);
    std::printf("%-22s %9.4f %9.4f %9.4f %9.4f %9.1f %llu/%llu\n", path.filename().c_str(), n.min, n.median, t.min, t.median,
                t.median / std::max(n.median, 1e-9), static_cast<unsigned long long>(rn.stats.runs),
                static_cast<unsigned long long>(rt.stats.runs));
    // Both searches must give the same permitted set.
    bool same = rn.outcomes.size() == rt.outcomes.size() && rn.bound_hit == rt.bound_hit;
    for (size_t i = 0; same && i < rn.outcomes.size(); ++i)
      same = rn.outcomes[i].buffers == rt.outcomes[i].buffers && rn.outcomes[i].executions == rt.outcomes[i].executions;
    if (!same) {
      std::printf("  FAIL: the two searches disagree\n");
      ok = false;
    }
  }
  return ok ? 0 : 1;
}
