// SMT encoding of the candidate executions of one Skeleton and of the
// model's axioms (PTX ISA 8.9-8.10, the readings of memmodel/relations.hpp).
// Contract: after Encoding(ctx, facts, solver) the solver's models are
// exactly the consistent executions the enumeration engine enumerates:
// rf (one write per read), co (a minimal coherence order: the closure of
// init-first, causality between writes and one orientation per morally
// strong pair; total under SC), a final write per location (a co-maximal
// one), and Fence-SC ranks for the fence.sc pairs that must be ordered.
// Derived relations (observation, sync, base causality, proxy-preserved
// causality, causality, fr) are defined exactly (<=>), because minimality
// of co uses causality positively. Recursive RMW observation chains are
// kept well-founded by integer ranks; base causality is closed by squaring
// over the synchronizes-with endpoints.
// No special relations (linear_order etc.): Z3 4.8.12 gets them wrong.
#pragma once
#include <z3++.h>

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "memmodel/z3_facts.hpp"

namespace ptxcheck::mm::z3e {

// One candidate execution as a model denotes it; checked by the shared
// check_axioms() (axioms.hpp) through to_execution() (z3_engine.hpp).
struct Candidate {
  std::vector<int> rf;           // per event: the write a read reads from, else -1
  Mat co;                        // coherence, transitively closed, init writes first
  std::vector<int> fsc;          // per event: rank of an sc fence in Fence-SC order, else -1
  std::vector<int> final_write;  // per physical location
};

// a && b, folding constants so that statically false edges stay `false`
// (the encoders test is_false() to skip whole sub-formulas).
inline z3::expr conj(const z3::expr& a, const z3::expr& b) {
  if (a.is_false() || b.is_false()) return a.ctx().bool_val(false);
  if (a.is_true()) return b;
  if (b.is_true()) return a;
  return a && b;
}

// Name of the SMT constant for relation `p` between events a and b.
inline std::string key(const char* p, int a, int b) {
  return std::string(p) + std::to_string(a) + "_" + std::to_string(b);
}

class Encoding {
 public:
  Encoding(z3::context& ctx, const Facts& f, z3::solver& s);
  // The candidate a model denotes.
  Candidate decode(const z3::model& m) const;
  // A clause excluding the model's (rf, co, final write) and nothing else.
  z3::expr blocking_clause(const z3::model& m) const;
  // A clause excluding the execution of `c` (found under another encoding).
  z3::expr exclusion_clause(const Candidate& c) const;
  // The causality order (PTX ISA 8.9.5 Causality order) between x and y as
  // a formula over this encoding's variables, for tests that compare it
  // with the shared causality (relations.hpp) on each model. It may define auxiliary variables:
  // call it before solving.
  z3::expr causality(int x, int y) { return cause(x, y); }

 private:
  using Opt = std::optional<z3::expr>;
  z3::expr def(std::vector<z3::expr>& terms, const std::string& name);
  z3::expr rf(int w, int r) const;
  z3::expr co(int a, int b) const;
  z3::expr fr(int r, int w);
  z3::expr msrf(int w, int r) const;
  z3::expr obs(int x, int y);
  z3::expr sf(int a, int b) const;
  z3::expr reach(int a, int b) const;  // exact closure over K nodes
  z3::expr cbf(int x, int y);          // closure of po | sw
  z3::expr cb0(int x, int y);          // base causality (PTX6: >= 1 sw edge) without issue edges
  z3::expr cb(int x, int y);           // cb0 | cb0?; issue (8.9.1.1)
  z3::expr pp(int x, int y);
  z3::expr cause(int x, int y);

  void encode_rf();
  void encode_co();
  void encode_final();
  void encode_fsc();
  void encode_obs();
  void encode_sync();
  void encode_axioms();
  void encode_minimal_co();
  void encode_sc();
  void no_thin_air();
  void acyclic(const std::vector<std::pair<int, int>>& static_edges,
               const std::vector<std::tuple<z3::expr, int, int>>& dyn_edges, const char* name);

  z3::context& ctx_;
  const Facts& f_;
  z3::solver& s_;
  int n_;
  z3::expr T_, F_;
  // Matrices of optional expressions over event pairs (index a * n + b).
  std::vector<Opt> rf_, co_, fr_, cbf_, cb_, cbi_, pp_, cause_, dyn_;
  std::vector<Opt> obs_;              // observation through RMW chains
  std::vector<Opt> rank_;             // Fence-SC rank per ordered sc fence
  std::vector<Opt> fw_;               // final-write choice per write
  struct Primary {
    z3::expr v;
    char kind;  // 'r': rf(a, b), 'c': co(a, b), 'f': a is the final write
    int a, b;
  };
  std::vector<Primary> primary_;      // rf, co, final-write variables (blocking)
  std::vector<int> k_;                // endpoints of synchronizes-with edges
  std::vector<int> k_index_;          // event -> index in k_, or -1
  std::vector<Opt> reach_;            // |K| x |K|
  std::vector<int> rmw_levels_;       // per physical location: its RMW count
  Mat static_;   // (po | barrier sync)+
  Mat static6_;  // po?; (barrier sync; po?)+
};

}  // namespace ptxcheck::mm::z3e
