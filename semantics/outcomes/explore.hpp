// Every final state of a kernel launch that the PTX memory model permits
// (`ptxcheck outcomes`, docs/outcomes.md).
//
// The whole grid runs on the interpreter's Machine (semantics/interp), once
// per choice sequence (a stateless depth-first search over the choices):
// an ExecHook (semantics/interp/hook.hpp) sees every global and shared
// access, fence, barrier, backward branch and thread exit. A location is
//  * deterministic when, in every run seen, all its conflicting accesses
//    are ordered by program order or by completed CTA/cluster barriers
//    (vector clocks over barrier arrivals, PTX ISA 8.9.4 item 2), but for
//    pairs of commuting updates with unused results (Hook::commuting_rmw,
//    hook_det.cpp, which argues it from PTX ISA 8.10.3 and 8.10.6): the read
//    takes the value in the machine's memory, creates no event and no
//    choice (a thread's own locations and never-written ones included);
//  * communicating otherwise: a read is a choice point over the values the
//    location may hold (the value-set fixpoint of the litmus engine) and
//    every access becomes an mm::Event (order, scope from the IR), with the
//    addr/data/ctrl dependencies of the executed path (Hook::step follows
//    them through the registers; PTX ISA 8.10.4).
// A run that meets an unordered conflict on a deterministic location makes
// it communicating and the exploration restarts; value sets grow over
// rounds until stable.
//
// Value chains: each written value keeps a lower bound, per location, on
// the writes of a chain of reads and dependent writes that produces it
// (CommLoc::chain: one write of its location more than the componentwise
// greatest bound of the reads its write depends on, the least over its
// writes; the initial value has none). A consistent execution that reads
// the value has at least that many writes to each location in the rf/dep
// ancestry of its source (acyclic, 8.10.4), so a value whose bound exceeds
// the most writes of some location in any path of the round (summed over
// the units) joins no value set (docs/outcomes.md "How the search
// scales"; the W+1 rounds argument below, per location). Each finished run is one mm::Skeleton (its
// communicating accesses, fences, barriers) decided by an mm::Engine; each
// consistent execution gives a final state: the machine's memory with the
// final writes of the communicating locations.
//
// The read half of an atom.exch whose result register is dead makes no
// choice (its write does not depend on it): its event is marked any_value,
// and the engines take any write of its location as its source (one
// decision per run, not one per value the location may hold). So is a
// lazy load (hook_lazy.cpp): a plain load whose value no run used yet.
//
// The read half of an atomic update of a location that threads of one CTA
// write reads the latest write the machine has executed there; the search
// chooses instead when it runs, parking the thread until the next write of
// the location (hook_chain.cpp: one path per order of the updates).
//
// Loops: a backward jump after an iteration that made a choice (the first
// pass included) is taken at most `unroll` times; a further one parks the
// thread (a cut path; the bound counts as hit only if the cut prefix has a
// consistent execution whose reads read their values). An iteration that
// only read and returns to the loop head with the same live registers
// (backward liveness over the function's IR, Shared::live_at) and .local
// bytes is redundant (the spin-loop reduction of semantics/litmus): the
// thread is parked, the others run on (their writes feed the value sets),
// and the run is dropped. Iterations without choices are not bounded.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "memmodel/engine.hpp"
#include "memmodel/static_relations.hpp"
#include "semantics/interp/launch_spec.hpp"

namespace ptxcheck::outcomes {

struct Options {
  mm::Model model;
  int unroll = 1;
  double timeout_s = 0;             // 0 = none; LimitError when exceeded
  uint64_t max_runs = 2'000'000;    // launches replayed in one round
  int max_values = 256;             // per communicating location
  uint64_t max_steps = 20'000'000;  // thread instructions per launch
  // Resident memory in MiB; 0: 3/4 of the memory available at the start
  // (memory_limit.hpp). LimitError when exceeded.
  uint64_t max_memory_mib = 0;
  bool races = true;          // report races (--races=off: not)
  bool strict_races = false;  // a warp-sync-race is an error (--races=strict)
  // The search of docs/outcomes.md "How the search scales": CTAs explored
  // as independent units and composed (decompose), compositions checked
  // location by location before the whole skeleton is decided (prune).
  // Both off: the product of all choices, every run decided (the engine
  // before; bench/outcomes compares the two).
  bool decompose = true;
  bool prune = true;
};

// Where an event comes from: the thread and the PTX source line and column.
struct EventSource {
  std::array<uint32_t, 3> cta{0, 0, 0}, tid{0, 0, 0};
  uint32_t line = 0, col = 0;
  std::string text;                          // the PTX line, trimmed
  uint32_t cta_uid = 0, warp = 0, lane = 0;  // warp in the CTA, lane in the warp
  uint32_t coll_seq = 0;  // warp-collective .sync instructions its warp had executed before the access
};

inline constexpr uint64_t kCollOrders = 1ull << 32;

struct Witness {
  mm::Skeleton skeleton;
  mm::Execution execution;
  std::vector<EventSource> sources;  // per event id (init events: line 0)
};

struct Outcome {
  std::vector<std::vector<uint8_t>> buffers;  // bytes of each spec output, in spec.outputs order
  uint64_t executions = 0;
  std::optional<Witness> witness;
};

// A race (PTX ISA 8.7.1) in the classes of docs/races.md: a warp-sync-race
// when, in every run that showed it, both accesses are by lanes of one warp
// that took part in a warp-collective .sync instruction between them (which
// orders no memory); a data-race otherwise.
struct Race {
  EventSource first, second;  // first.line <= second.line
  bool first_write = false, second_write = false;
  std::string location;
  bool warp_sync = false;
};

struct Stats {
  uint64_t rounds = 0, runs = 0, finished_runs = 0, skeletons = 0, executions = 0;
  uint64_t cut = 0, subsumed = 0, deadlocked = 0, faulted = 0;
  uint64_t communicating = 0, max_events = 0;
  uint64_t units = 1, pruned = 0;  // units explored apart; compositions the location check skipped
  uint64_t prefix_pruned = 0;      // of those, compositions skipped with a prefix of units
  uint64_t symmetric = 0;          // engine choices the checks skipped as images under a swap of CTAs
  double seconds = 0;
  std::string first_fault;  // a diagnostic of a faulting run, if any
};

struct Result {
  interp::LaunchSpec spec;
  std::string ptx_file;
  std::vector<Outcome> outcomes;  // sorted by value, each distinct state once
  bool complete = true, bound_hit = false;
  int unroll = 1;  // the loop bound explored (Options::unroll)
  std::vector<Race> races;
  Stats stats;
  // Every finished run's skeleton with the machine's final output bytes
  // (for --state: candidate executions of a state no execution reaches).
  struct Run {
    mm::Skeleton skeleton;
    std::vector<EventSource> sources;
    std::vector<std::vector<uint8_t>> buffers;
    std::vector<std::pair<int, std::pair<size_t, uint64_t>>> placement;  // loc -> (output, byte offset)
    // (CTA uid, warp) -> the lanes of each warp-collective .sync instruction it executed, in order
    // (with kCollOrders for bar.warp.sync, which orders memory among them).
    std::map<std::pair<uint32_t, uint32_t>, std::vector<uint64_t>> colls;
  };
  std::vector<Run> runs;
};

// Throws InputError (spec/PTX), LimitError (timeout, memory, limits).
Result explore(const std::string& spec_path, mm::Engine& engine, const Options& opt);

// Execution `ex` of run `r` as a witness: reads of any value show the value
// of the write they read from.
Witness witness_of(const Result::Run& r, const mm::Execution& ex);

// The bytes of output `o` with the final values of execution `ex` of run `r`.
std::vector<std::vector<uint8_t>> final_buffers(const Result::Run& r, const mm::Execution& ex);

// Appends to `races` the data races of execution `ex` of run `r` (PTX ISA
// 8.7.1) not listed yet; `st` and `m` are the run's static relations and the
// model (execution.cpp).
void find_races(const Result::Run& run, const mm::StaticRelations& st, const mm::Model& m, const mm::Execution& ex,
                std::vector<Race>& races);

}  // namespace ptxcheck::outcomes
