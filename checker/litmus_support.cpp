// Runner and summary for the litmus CLI (litmus_support.hpp).
#include "checker/litmus_support.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "parser/diagnostic.hpp"
#include "semantics/litmus/program.hpp"

namespace ptxcheck::cli {

Runner::Runner(const RunConfig& cfg) : cfg_(cfg) {
  engine_ = cfg.engine == "enum" ? mm::make_enum_engine() : mm::make_z3_engine();
}

namespace {
std::string safe_name(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '+' && c != '.') c = '_';
  return s;
}
}  // namespace

LitmusRun Runner::run(const std::string& path, std::string& extra) {
  LitmusRun r;
  r.path = path;
  r.name = path;
  r.model = cfg_.model_name;
  r.engine = engine_->name();
  r.unroll = cfg_.unroll;
  auto start = std::chrono::steady_clock::now();
  try {
    r.test = litmus::parse_litmus_file(path);
    r.name = r.test->name;
    litmus::Program p = litmus::lower(*r.test);
    litmus::CheckOptions opt;
    opt.model = cfg_.model;
    opt.traces.unroll = cfg_.unroll;
    opt.limits.timeout_s = cfg_.timeout;
    r.result = litmus::check(p, *engine_, opt);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (cfg_.explain) extra += explain_text(r, p, opt);
    if (!cfg_.dot_dir.empty()) {
      const auto& w = r.result.positive_witness ? r.result.positive_witness : r.result.negative_witness;
      if (w) {
        namespace fs = std::filesystem;
        fs::path dot = fs::path(cfg_.dot_dir) / (safe_name(r.name) + ".dot");
        std::ofstream(dot) << witness_dot(*w, r.name);
        if (std::system("command -v dot >/dev/null 2>&1") == 0) {
          std::string cmd = "dot -Tsvg '" + dot.string() + "' -o '" + fs::path(dot).replace_extension(".svg").string() + "'";
          if (std::system(cmd.c_str()) != 0) extra += "warning: dot failed for " + dot.string() + "\n";
        }
      }
    }
  } catch (const InputError& e) {
    r.status = LitmusRun::InputErr;
    r.error = format_error(e.file(), e.pos(), e.what());
  } catch (const LimitError& e) {
    r.status = LitmusRun::LimitErr;
    r.error = path + ": limit reached: " + e.what();
  } catch (const std::exception& e) {
    r.status = LitmusRun::InternalErr;
    r.error = path + ": internal error: " + e.what();
  }
  if (r.status != LitmusRun::Decided)
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

std::string summary_table(const std::vector<LitmusRun>& runs, double wall, const RunConfig& cfg) {
  size_t ok = 0, no = 0, inval = 0, limit = 0, internal = 0, bound = 0, with_exp = 0, agree = 0;
  std::vector<double> times;
  for (const auto& r : runs) {
    times.push_back(r.seconds);
    switch (r.status) {
      case LitmusRun::Decided: (r.result.ok ? ok : no)++; bound += r.result.bound_hit; break;
      case LitmusRun::InputErr: ++inval; break;
      case LitmusRun::LimitErr: ++limit; break;
      case LitmusRun::InternalErr: ++internal; break;
    }
    if (r.expected >= 0) {
      ++with_exp;
      agree += r.status == LitmusRun::Decided && !r.mismatch();
    }
  }
  std::sort(times.begin(), times.end());
  double total = 0;
  for (double t : times) total += t;
  char buf[1024];
  std::snprintf(buf, sizeof buf,
                "== ptxcheck summary (model %s, engine %s, unroll %d) ==\n"
                "tests %zu | Ok %zu | No %zu | invalid %zu | limit %zu | internal %zu | bound hit %zu\n"
                "expected %zu | agree %zu | disagree %zu\n"
                "time: wall %.2f s, sum %.2f s, median %.1f ms, max %.1f ms\n",
                cfg.model_name.c_str(), cfg.engine.c_str(), cfg.unroll, runs.size(), ok, no, inval, limit,
                internal, bound, with_exp, agree, with_exp - agree, wall, total,
                times.empty() ? 0.0 : 1000 * times[times.size() / 2], times.empty() ? 0.0 : 1000 * times.back());
  return buf;
}

}  // namespace ptxcheck::cli
