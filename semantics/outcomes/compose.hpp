// Internal to semantics/outcomes: a run (one skeleton for the engine) built
// from a launch's records, and the per-unit composition of docs/outcomes.md
// "How the search scales": each unit (a cluster or CTA, or the whole grid) is explored
// on its own and whole-grid runs are rebuilt as one trace per unit.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "memmodel/engine.hpp"
#include "semantics/outcomes/explore.hpp"
#include "semantics/outcomes/hook_impl.hpp"

namespace ptxcheck::outcomes {

// One finished (or parked) launch turned into a skeleton: the threads with
// memory events, their events in program order, barriers of those threads.
// The threads, barrier facts and warp collectives of one run (a launch, or a
// composition of units' traces).
struct RunView {
  const std::vector<ThreadRec>& th;
  const std::map<uint32_t, bool>& cta_partial;
  const std::map<std::pair<uint32_t, uint32_t>, std::vector<uint64_t>>& colls;
};

Result::Run make_run(const RunView& h, const Shared& sh, const std::vector<std::vector<uint8_t>>& buffers,
                     const std::vector<uint64_t>& out_base);

// Rebuilds rmw pairs after barriers that never completed were skipped
// (the two halves of an RMW are adjacent in program order).
void fix_rmw(Result::Run& run);

// An execution of a run's skeleton where every read reads from a write of
// the value the run gave it (the engine chooses rf over all writes). A read
// of any value (explore.hpp) may read from any write of its location; a
// write of any value (UnitShape) may be read by reads of one value.
bool reads_their_values(const Result::Run& r, const mm::Execution& ex);

// What one unit (explore.hpp: a cluster or CTA, or the whole grid) did in one launch:
// its threads' records, barrier facts, warp collectives and the output
// bytes it wrote deterministically.
struct UnitTrace {
  enum class St { Finished, Cut, Killed, Deadlock, Fault } st = St::Finished;
  std::vector<std::pair<uint32_t, ThreadRec>> th;  // (gid, record)
  std::map<uint32_t, bool> cta_partial;
  std::map<std::pair<uint32_t, uint32_t>, std::vector<uint64_t>> colls;
  std::vector<std::pair<std::pair<size_t, size_t>, uint8_t>> det_bytes;  // ((output, offset), byte)
  // Output words exempt updates changed (ThreadRec::exempt): (output,
  // offset) -> (bytes, class, the unit's combined operands).
  std::map<std::pair<size_t, size_t>, std::tuple<unsigned, int64_t, uint64_t>> exempt;
  std::vector<std::vector<uint8_t>> buffers;  // the whole grid as one unit: the launch's output bytes
  uint64_t writes = 0;
  std::vector<uint64_t> loc_writes;  // writes per communicating location
  std::vector<int> proj;             // per communicating location: id of this trace's accesses there
};

// A stand-in for every trace of one unit in the check of location `x`
// (and `y`): the events each trace of the unit has there (the events of
// Composer::project), in the same threads and program order, each with
// the value all the traces agree on, or any value (Event::any_value, on a
// read or a write) where they differ. Composer::project_prefix argues why
// a composition that passes a check passes it with these in place of some
// of its traces.
struct UnitShape {
  struct Thread {
    uint32_t gid;
    mm::ThreadPlace place;
    std::vector<mm::Event> events;
  };
  std::vector<Thread> th;
};

// The shape of `traces` (one unit's) at `x` (and `y`), if every trace has
// the same events there; else the same with each trace's plain reads (not
// the read half of an RMW) left out at x, else at y, else at both, if that
// makes them the same; else none.
std::optional<UnitShape> unit_shape(const std::vector<UnitTrace>& traces, int x, int y = -1);

// The composition of one trace per unit, as the launch that made these
// choices in every unit would have recorded it.
struct Composer {
  const Shared& sh;
  const std::vector<uint64_t>& out_base;
  const std::vector<std::vector<uint8_t>>& init_out;  // initial output bytes
  uint32_t nthreads;

  Result::Run build(const std::vector<const UnitTrace*>& pick) const;

  // The accesses of the composition to communicating location `x` alone
  // (with every location's initial write), but reads of any value: what
  // the location check decides. The skeleton of build(pick) restricted to
  // those events.
  // With y >= 0: the accesses to x and to y, and the fences of the threads
  // that make them (the location-pair check, explore_compose.cpp).
  Result::Run project(const std::vector<const UnitTrace*>& pick, int x, int y = -1) const;

  // project() of a composition whose first units are `prefix` and whose
  // other units are each represented by a shape (unit_shape at x, y): when
  // it has no consistent execution reading its values, no composition
  // starting with `prefix` has one (the argument is at the definition).
  Result::Run project_prefix(const std::vector<const UnitTrace*>& prefix, const std::vector<const UnitShape*>& rest,
                             int x, int y = -1) const;
};

// Some execution of `r` is consistent and reads the values the run read.
// The engine is asked for existence only (mm::Limits::exists_only: it may
// skip executions that a swap of interchangeable CTAs maps onto others),
// unless PTXCHECK_OUTCOMES_NO_SYMMETRY is set; `skipped` (if given) counts
// the choices it skipped so.
bool feasible(Result::Run& r, mm::Engine& engine, const mm::Model& m, const mm::Limits& lim,
              uint64_t* skipped = nullptr);

// What a trace does at location `loc`, as a key: the run's projection on
// `loc` is a function of these keys of its units' traces (threads are
// placed by their gid). With `local`, threads are named by their index in
// their cluster (CTA rank, index in the CTA): when the units are the
// clusters (or the CTAs of a launch without clusters), the projection is
// then, up to renaming the units, a function of the multiset of its units'
// keys (explore_compose.cpp).
std::string access_key(const UnitTrace& t, int loc, int loc2 = -1, bool local = false);

// Calls f(pick) for each composition of one trace from each list, the first
// list most significant (the order of the whole product's depth-first
// search); stops when f returns false.
template <class F>
void for_each_composition(const std::vector<const std::vector<UnitTrace>*>& lists, F&& f) {
  for (const auto* l : lists)
    if (l->empty()) return;
  std::vector<size_t> idx(lists.size(), 0);
  std::vector<const UnitTrace*> pick(lists.size());
  for (;;) {
    for (size_t u = 0; u < lists.size(); ++u) pick[u] = &(*lists[u])[idx[u]];
    if (!f(pick)) return;
    size_t u = lists.size();
    while (u > 0 && ++idx[u - 1] == lists[u - 1]->size()) idx[--u] = 0;
    if (u == 0) return;
  }
}

}  // namespace ptxcheck::outcomes
