// The Z3 engine; see z3_engine.hpp.
#include "memmodel/z3_engine.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <stdexcept>

#include "memmodel/axioms.hpp"
#include "memmodel/z3_encode.hpp"
#include "support/error.hpp"

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

// Every model is checked by the checker both engines share: the axioms
// under its Fence-SC order and minimality of its co (axioms.hpp check_axioms).
void check_model(const Skeleton& s, const StaticRelations& st, const Model& m, const z3e::Facts& f,
                 const z3e::Candidate& c) {
  auto bug = [](const std::string& what) {
    throw std::logic_error("z3 engine: model " + what + " (encoding bug)");
  };
  const AxiomCheck k = check_axioms(s, st, m, z3e::to_execution(f, c), true);
  if (!k.violated.empty()) bug(std::string("violates ") + axiom_name(k.violated.front()));
  if (!k.co_minimal) bug("has a non-minimal coherence order");
}

// Whether the Skeleton leaves no choice of (rf, co, final write): every read
// has one candidate write and every location at most one non-initial
// write. Then the only candidate is rf = the candidates, co = initial
// writes first (already minimal), final write = the one write, and only
// the existential Fence-SC order and barrier quorum remain (tried
// exhaustively, hence the caller's bound on the number of sc fences).
bool single_candidate(const z3e::Facts& f) {
  for (int r : f.reads)
    if (f.rf_cands[r].size() != 1) return false;
  for (const auto& ws : f.loc_writes) {
    int own = 0;
    for (int w : ws) own += !f.init[w];
    if (own > 1) return false;
  }
  return true;
}

z3e::Candidate the_candidate(const z3e::Facts& f) {
  z3e::Candidate c;
  c.rf.assign(f.n, -1);
  for (int r : f.reads) c.rf[r] = f.rf_cands[r].front();
  c.co = z3e::Mat(f.n);
  c.final_write.assign(f.loc_writes.size(), -1);
  for (size_t l = 0; l < f.loc_writes.size(); ++l)
    for (int a : f.loc_writes[l]) {
      if (f.init[a] ? c.final_write[l] < 0 : true) c.final_write[l] = a;
      for (int b : f.loc_writes[l])
        if (f.init[a] && !f.init[b]) c.co.set(a, b);
    }
  return c;
}

// One Skeleton's assertions live in a solver scope, popped however the
// enumeration ends (done, stopped by the visitor, or a thrown limit).
class Scope {
 public:
  explicit Scope(z3::solver& s) : s_(s) { s_.push(); }
  ~Scope() { s_.pop(); }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  z3::solver& s_;
};

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
    const StaticRelations rel = build_static(s, m);
    z3e::Facts f = z3e::build_facts(s, rel, m);
    if (f.barrier_hangs) return st;  // no terminating execution (8.9.4)
    for (int r : f.reads)
      if (f.rf_cands[r].empty()) return st;  // a value no write supplies
    // No choice to search: decide the one candidate by the shared check
    // (every Fence-SC order, every barrier quorum) instead of building and
    // solving an encoding (a third of the corpus Skeletons).
    if (single_candidate(f) && f.sc_fences.size() <= 6) {  // <= 6! Fence-SC orders
      z3e::Candidate c = the_candidate(f);
      c.fsc.assign(f.n, -1);
      Execution ex = z3e::to_execution(f, c);
      const AxiomCheck k = check_axioms(s, rel, m, ex, true);
      st.candidates = 1;
      if (!k.violated.empty()) return st;
      if (!k.co_minimal) throw std::logic_error("z3 engine: the single candidate's coherence order is not minimal");
      ex.fsc = k.fsc;
      st.consistent = 1;
      visit(ex);
      return st;
    }
    // A fresh context costs ~20 ms on its first check (module setup), so
    // each thread keeps one; solvers are per Skeleton. The simple solver
    // (incremental SMT core) is much cheaper than the default combination.
    thread_local z3::context ctx;
    // Likewise one solver per thread: its SMT kernel is set up on the first
    // assertion (about a quarter of a small Skeleton's cost), so each
    // Skeleton (and barrier choice) is solved in its own push/pop scope.
    thread_local z3::solver solver(ctx, z3::solver::simple());
    thread_local bool timed = false;  // a timeout left set by an earlier call
    if (lim.timeout_s <= 0 && timed) solver.set("timeout", std::numeric_limits<unsigned>::max());
    timed = lim.timeout_s > 0;
    // Barrier quorum choices are existential like the Fence-SC order: one
    // solver per choice, each excluding the executions found before.
    const size_t choices = m.kind == ModelKind::SC ? 1 : f.sb_choices.size();
    std::vector<z3e::Candidate> found;
    for (size_t ch = 0; ch < choices; ++ch) {
      f.sb = f.sb_choices[ch];
      Scope scope(solver);
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
        check_model(s, rel, m, f, c);
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
