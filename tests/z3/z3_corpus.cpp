// z3-corpus: a development tool (not a registered test) that runs litmus
// files through the litmus front end with an engine adapter which hands
// every Skeleton to BOTH engines, compares their executions (rf, co, final
// write) and times each. Reports disagreements and per-test engine timings.
//   z3-corpus <ptx75|ptx6|sc> FILE.litmus... (or a directory)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "memmodel/engine.hpp"
#include "memmodel/models.hpp"
#include "parser/diagnostic.hpp"
#include "semantics/litmus/check.hpp"
#include "tests/z3/z3_shapes.hpp"

using namespace ptxcheck;
using Clock = std::chrono::steady_clock;

namespace {

class Compare final : public mm::Engine {
 public:
  std::string name() const override { return "compare"; }
  mm::EngineStats enumerate(const mm::Skeleton& s, const mm::Model& m, const mm::Limits& lim,
                            const mm::Visitor& visit) override {
    std::vector<mm::Execution> ze;
    std::set<mm::z3test::Key> zk, ek;
    const auto t0 = Clock::now();
    enum_->enumerate(s, m, lim, [&](const mm::Execution& ex) { return ek.insert(mm::z3test::key_of(ex)), true; });
    const auto t1 = Clock::now();
    const mm::EngineStats st = z3_->enumerate(s, m, lim, [&](const mm::Execution& ex) {
      zk.insert(mm::z3test::key_of(ex));
      ze.push_back(ex);
      return true;
    });
    const auto t2 = Clock::now();
    enum_ms += std::chrono::duration<double, std::milli>(t1 - t0).count();
    z3_ms += std::chrono::duration<double, std::milli>(t2 - t1).count();
    ++skeletons;
    if (zk != ek) ++mismatches;
    for (const auto& ex : ze)
      if (!visit(ex)) break;
    return st;
  }
  double enum_ms = 0, z3_ms = 0;
  int skeletons = 0, mismatches = 0;

 private:
  std::unique_ptr<mm::Engine> enum_ = mm::make_enum_engine(), z3_ = mm::make_z3_engine();
};

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: z3-corpus ptx75|ptx6|sc FILE|DIR...\n");
    return 2;
  }
  const std::string kind = argv[1];
  litmus::CheckOptions opt;
  if (auto m = mm::model_from_name(kind)) {
    opt.model = *m;
  } else {
    std::fprintf(stderr, "unknown model '%s' (%s)\n", kind.c_str(), mm::model_names().c_str());
    return 2;
  }
  opt.limits.timeout_s = getenv("Z3C_TIMEOUT") ? atof(getenv("Z3C_TIMEOUT")) : 60;
  std::vector<std::string> files;
  for (int i = 2; i < argc; ++i) {
    if (std::filesystem::is_directory(argv[i])) {
      for (const auto& e : std::filesystem::recursive_directory_iterator(argv[i]))
        if (e.path().extension() == ".litmus") files.push_back(e.path().string());
    } else {
      files.push_back(argv[i]);
    }
  }
  std::sort(files.begin(), files.end());
  int bad = 0, errors = 0, skel = 0;
  std::vector<double> zt, et;
  for (const auto& f : files) {
    Compare cmp;
    try {
      const litmus::Test t = litmus::parse_litmus_file(f);  // p points into t
      const litmus::Program p = litmus::lower(t);
      litmus::check(p, cmp, opt);
    } catch (const std::exception& e) {
      ++errors;
      std::printf("ERROR %s: %s\n", f.c_str(), e.what());
      continue;
    }
    skel += cmp.skeletons;
    if (getenv("Z3C_VERBOSE"))
      std::printf("%s: %d skeletons, z3 %.2f ms, enum %.2f ms\n", f.c_str(), cmp.skeletons, cmp.z3_ms, cmp.enum_ms);
    std::fflush(stdout);
    zt.push_back(cmp.z3_ms);
    et.push_back(cmp.enum_ms);
    if (cmp.mismatches) {
      ++bad;
      std::printf("DISAGREE %s: %d of %d skeletons\n", f.c_str(), cmp.mismatches, cmp.skeletons);
    }
  }
  double zs = 0, es = 0;
  for (double t : zt) zs += t;
  for (double t : et) es += t;
  std::printf("%zu files, %d skeletons, %d disagreeing files, %d errors\n", files.size(), skel, bad, errors);
  std::printf("z3:   total %.1f ms, median %.3f ms/test, max %.1f ms\n", zs, median(zt),
              zt.empty() ? 0 : *std::max_element(zt.begin(), zt.end()));
  std::printf("enum: total %.1f ms, median %.3f ms/test, max %.1f ms\n", es, median(et),
              et.empty() ? 0 : *std::max_element(et.begin(), et.end()));
  return bad || errors ? 1 : 0;
}
