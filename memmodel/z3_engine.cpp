// The Z3 engine; see z3_engine.hpp.
#include "memmodel/z3_engine.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "memmodel/z3_encode.hpp"
#include "parser/diagnostic.hpp"

namespace ptxcheck::mm {
namespace z3e {

Execution to_execution(const Facts& f, const Candidate& c) {
  Execution ex;
  ex.rf = c.rf;
  for (const auto& ws : f.loc_writes)
    for (int a : ws)
      for (int b : ws)
        if (a != b && c.co(a, b)) ex.co.emplace_back(a, b);
  std::vector<int> fences;
  for (int a : f.sc_fences)
    if (c.fsc[a] >= 0) fences.push_back(a);
  std::stable_sort(fences.begin(), fences.end(),
                   [&](int a, int b) { return c.fsc[a] < c.fsc[b]; });
  ex.fsc = fences;
  ex.final_write = c.final_write;
  return ex;
}

}  // namespace z3e

namespace {

// Every model is checked twice: by this engine's own explicit checker
// (axioms and minimality of co) and by the shared violated_axioms().
void check_model(const Skeleton& s, const Model& m, const z3e::Facts& f, const z3e::Candidate& c) {
  auto bug = [](const std::string& what) {
    throw std::logic_error("z3 engine: model " + what + " (encoding bug)");
  };
  const auto own = z3e::oracle_violations(f, c);
  if (!own.empty()) bug("violates " + own.front());
  if (!z3e::oracle_co_minimal(f, c)) bug("has a non-minimal coherence order");
  const auto shared = violated_axioms(s, m, z3e::to_execution(f, c));
  if (!shared.empty()) bug("violates " + shared.front() + " per violated_axioms()");
}

class Z3Engine final : public Engine {
 public:
  std::string name() const override { return "z3"; }

  EngineStats enumerate(const Skeleton& s, const Model& m, const Limits& lim,
                        const Visitor& visit) override {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    auto remaining_ms = [&]() -> double {
      const double used = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
      return lim.timeout_s * 1000.0 - used;
    };
    EngineStats st;
    z3e::Facts f = z3e::build_facts(s, m);
    if (f.barrier_hangs) return st;  // no terminating execution (8.9.4)
    for (int r : f.reads)
      if (f.rf_cands[r].empty()) return st;  // a value no write supplies
    // A fresh context costs ~20 ms on its first check (module setup), so
    // each thread keeps one; solvers are per Skeleton. The simple solver
    // (incremental SMT core) is much cheaper than the default combination.
    thread_local z3::context ctx;
    // Barrier quorum choices are existential like the Fence-SC order: one
    // solver per choice, each excluding the executions found before.
    const size_t choices = m.kind == ModelKind::SC ? 1 : f.sb_choices.size();
    std::vector<z3e::Candidate> found;
    for (size_t ch = 0; ch < choices; ++ch) {
      f.sb = f.sb_choices[ch];
      z3::solver solver(ctx, z3::solver::simple());
      z3e::Encoding enc(ctx, f, solver);
      for (const auto& c : found) solver.add(enc.exclusion_clause(c));
      for (;;) {
        if (lim.timeout_s > 0) {
          const double left = remaining_ms();
          if (left <= 0) throw LimitError("z3 engine: timeout");
          solver.set("timeout", unsigned(std::max(1.0, left)));
        }
        ++st.candidates;
        const z3::check_result r = solver.check();
        if (r == z3::unsat) break;
        if (r == z3::unknown) throw LimitError("z3 engine: " + solver.reason_unknown());
        const z3::model model = solver.get_model();
        z3e::Candidate c = enc.decode(model);
        check_model(s, m, f, c);
        if (lim.max_executions > 0 && st.consistent >= lim.max_executions)
          throw LimitError("z3 engine: more than " + std::to_string(lim.max_executions) +
                           " executions");
        ++st.consistent;
        if (!visit(z3e::to_execution(f, c))) return st;
        solver.add(enc.blocking_clause(model));
        if (choices > 1) found.push_back(std::move(c));
      }
    }
    return st;
  }
};

}  // namespace

std::unique_ptr<Engine> make_z3_engine() { return std::make_unique<Z3Engine>(); }

}  // namespace ptxcheck::mm
