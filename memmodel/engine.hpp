// Engines decide which candidate executions of a Skeleton the model permits.
// Two engines implement this interface: the explicit enumeration engine
// (memmodel/enum_engine.*) and the Z3 engine (memmodel/z3_engine.*). They
// must agree: same set of consistent executions, same counts.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "memmodel/events.hpp"

namespace ptxcheck::mm {

// Which reading of the model (see docs/model-notes.md).
enum class ModelKind : uint8_t {
  PTX75,  // PTX ISA 9.2 chapter 8 with proxies (default; Dat3M's "PTX v7.5")
  PTX6,   // PTX ISA 6.0 reading, no proxies (Dat3M's "PTX v6.0")
  SC,     // sequential consistency: one total order of all events
};

struct Model {
  ModelKind kind = ModelKind::PTX75;
  // Readings where the text is ambiguous; defaults follow NVIDIA's formal
  // model. Each is documented with its argument in docs/model-notes.md.
  bool fence_sc_is_acq_rel = true;      // fence.sc also acts as a release/acquire fence in patterns
  bool observation_through_rmw = true;  // 8.9.2 item 2: observation continues through RMW chains
  bool reductions_acquire = false;      // red's read may start an acquire pattern (8.11.1 says no)
  bool sc_per_location = true;          // check 8.10.5 (Dat3M's v7.5 cat omits it)
};

// A candidate execution of a Skeleton. An *execution* is identified by
// (rf, co, final_write); the fence-SC order (and a barrier completion
// choice) is existentially quantified. co is partial (8.9.6): engines report
// only minimal coherence orders (memmodel/relations.hpp), so the count is of
// distinct (rf, minimal co, final write); final_write varies only where co
// leaves several co-maximal writes (docs/model-notes.md).
struct Execution {
  std::vector<int> rf;                  // per event id: the write a Read reads from, else -1
  std::vector<std::pair<int, int>> co;  // coherence edges (w1, w2) between writes to one physical location
  std::vector<int> fsc;                 // a witness Fence-SC order: sc fence ids, earliest first
  std::vector<int> final_write;         // per physical location: the write whose value is final
};

struct Limits {
  double timeout_s = 0;         // 0 = none; engines throw LimitError when exceeded
  uint64_t max_executions = 0;  // 0 = none
  // The caller asks only whether some execution exists (its visitor stops
  // at the first one that it accepts, and what it accepts does not tell
  // interchangeable CTAs apart): the enumeration engine may then skip the
  // executions that swapping two interchangeable CTAs maps onto ones it
  // visits (enum_engine.cpp, "Interchangeable CTAs"), and those where reads
  // of two values read one write marked Event::any_value (a write of one
  // unknown value). Without it, every execution is visited.
  bool exists_only = false;
};

struct EngineStats {
  uint64_t candidates = 0;  // candidates examined (engine-specific meaning)
  uint64_t consistent = 0;  // executions found consistent
  uint64_t symmetric = 0;   // rf choices skipped as images of others (Limits::exists_only)
};

// Return false to stop the enumeration early.
using Visitor = std::function<bool(const Execution&)>;

class Engine {
 public:
  virtual ~Engine() = default;
  virtual std::string name() const = 0;
  // Calls `visit` once per consistent execution (distinct (rf, co, final_write), see above).
  virtual EngineStats enumerate(const Skeleton& s, const Model& m, const Limits& lim, const Visitor& visit) = 0;
};

std::unique_ptr<Engine> make_enum_engine();
// The enumeration engine as it was before Fence-SC was searched
// (memmodel/fence_sc.hpp): every Fence-SC order tried. For bench/litmus's
// speedup column and as a cross-check in the tests.
std::unique_ptr<Engine> make_enum_perm_engine();
std::unique_ptr<Engine> make_z3_engine();

// For --explain: the names of the axioms (e.g. "Causality (PTX ISA 8.10.6)")
// that the candidate violates under `m`; empty if consistent. `ex.fsc` may be
// empty, in which case every Fence-SC order is tried.
std::vector<std::string> violated_axioms(const Skeleton& s, const Model& m, const Execution& ex);

}  // namespace ptxcheck::mm
