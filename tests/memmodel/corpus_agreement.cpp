// memmodel-corpus: runs Dat3M's PTX litmus corpus through the litmus front
// end and the enumeration engine, and compares herd-style verdicts with the
// expected CSV (`path,result`). A development tool (not a registered test):
//   memmodel-corpus <corpus-root> <expected.csv | -> <ptx75|ptx6|sc> [flags]
// flags: no-scacqrel, dat3m-obs, red-acq, no-scploc, verbose.
// With "-" instead of a CSV it runs every *.litmus under <root>/litmus and
// reports errors, limits and timing only.
#include <algorithm>
#include <cstdlib>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "memmodel/engine.hpp"
#include "memmodel/models.hpp"
#include "parser/diagnostic.hpp"
#include "parser/litmus/litmus_ast.hpp"
#include "memmodel/names.hpp"
#include "semantics/litmus/check.hpp"

using namespace ptxcheck;

namespace {
void dump(const litmus::Witness& w) {
  const mm::Skeleton& s = w.skeleton;
  for (size_t e = 0; e < s.events.size(); ++e) {
    const mm::Event& ev = s.events[e];
    std::printf("  e%zu t%d %s %s %s %s loc=%d val=%llu rmw=%d red=%d bar=%d/%d rf=%d  %s\n", e, ev.thread,
                mm::to_string(ev.kind), mm::to_string(ev.order), mm::to_string(ev.scope), mm::to_string(ev.proxy),
                ev.loc, static_cast<unsigned long long>(ev.value), ev.rmw_pair, ev.reduction ? 1 : 0, ev.bar_id,
                ev.bar_count, w.execution.rf.empty() ? -1 : w.execution.rf[e], ev.label.c_str());
  }
  for (size_t l = 0; l < s.locations.size(); ++l)
    std::printf("  loc%zu %s phys=%d vaddr=%d proxy=%s\n", l, s.locations[l].name.c_str(), s.locations[l].physical,
                s.locations[l].vaddr, mm::to_string(s.locations[l].proxy));
  for (auto [a, b] : w.execution.co) std::printf("  co e%d -> e%d\n", a, b);
  std::printf("  state: %s\n", w.state.c_str());
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: memmodel-corpus ROOT CSV|- ptx75|ptx6|sc [flags]\n");
    return 2;
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const std::string root = argv[1], csv = argv[2], kind = argv[3];
  const char* skip = std::getenv("MM_SKIP");  // skip paths containing this substring
  litmus::CheckOptions opt;
  if (auto m = mm::model_from_name(kind)) {
    opt.model = *m;
  } else {
    std::fprintf(stderr, "unknown model '%s' (%s)\n", kind.c_str(), mm::model_names().c_str());
    return 2;
  }
  opt.limits.timeout_s = std::getenv("MM_TIMEOUT") ? std::atof(std::getenv("MM_TIMEOUT")) : 20;
  bool verbose = false;
  for (int i = 4; i < argc; ++i) {
    const std::string f = argv[i];
    if (f == "no-scacqrel") opt.model.fence_sc_is_acq_rel = false;
    if (f == "dat3m-obs") opt.model.observation_through_rmw = false;
    if (f == "red-acq") opt.model.reductions_acquire = true;
    if (f == "no-scploc") opt.model.sc_per_location = false;
    if (f == "verbose") verbose = true;
  }
  std::vector<std::pair<std::string, int>> rows;
  if (csv == "-") {
    for (const auto& e : std::filesystem::recursive_directory_iterator(root + "/litmus"))
      if (e.path().extension() == ".litmus") rows.emplace_back(e.path().lexically_relative(root).string(), -1);
    std::sort(rows.begin(), rows.end());
  } else {
    std::ifstream in(csv);
    std::string line;
    while (std::getline(in, line)) {
      const auto c = line.rfind(',');
      if (c == std::string::npos) continue;
      rows.emplace_back(line.substr(0, c), std::stoi(line.substr(c + 1)));
    }
  }
  auto engine = mm::make_enum_engine();
  int agree = 0, disagree = 0, errors = 0;
  std::vector<double> times;
  for (const auto& [path, expected] : rows) {
    if (skip && path.find(skip) != std::string::npos) continue;
    const auto t0 = std::chrono::steady_clock::now();
    std::string what;
    int got = -1;
    try {
      const litmus::Test t = litmus::parse_litmus_file(root + "/" + path);
      const litmus::Program p = litmus::lower(t);
      const litmus::CheckResult r = litmus::check(p, *engine, opt);
      got = r.ok ? 1 : 0;
      if (verbose && r.positive_witness) {
        std::printf("positive witness of %s\n", path.c_str());
        dump(*r.positive_witness);
      }
      if (verbose && r.negative_witness) {
        std::printf("negative witness of %s\n", path.c_str());
        dump(*r.negative_witness);
      }
      std::ostringstream os;
      os << "skeletons=" << r.skeletons << " executions=" << r.executions;
      what = os.str();
    } catch (const InputError& e) {
      what = format_error(e.file(), e.pos(), e.what());
    } catch (const std::exception& e) {
      what = std::string("error: ") + e.what();
    }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    times.push_back(ms);
    if (got < 0) {
      ++errors;
      std::printf("ERROR %s: %s\n", path.c_str(), what.c_str());
    } else if (expected >= 0 && got != expected) {
      ++disagree;
      std::printf("MISMATCH %s: expected %d got %d (%s)\n", path.c_str(), expected, got, what.c_str());
    } else {
      ++agree;
      if (verbose) std::printf("ok %s %.2f ms %s\n", path.c_str(), ms, what.c_str());
    }
  }
  std::sort(times.begin(), times.end());
  double total = 0;
  for (double t : times) total += t;
  std::printf("agree=%d disagree=%d errors=%d of %zu; median %.3f ms, max %.1f ms, total %.1f ms\n", agree, disagree,
              errors, rows.size(), times.empty() ? 0 : times[times.size() / 2], times.empty() ? 0 : times.back(), total);
  return disagree || errors ? 1 : 0;
}
