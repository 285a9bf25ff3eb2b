// Skeleton-only facts the Z3 encoding builds on:
// event classes, program order, location equalities, moral strength, the
// building blocks of release/acquire patterns and barrier synchronisation.
// Contract: everything here depends only on (Skeleton, Model), never on rf,
// co or the Fence-SC order. It is a dense copy of the shared static
// relations (memmodel/static_relations.hpp), so both engines read a
// Skeleton identically (readings: docs/model-notes.md).
#pragma once
#include <utility>
#include <vector>

#include "memmodel/engine.hpp"
#include "memmodel/static_relations.hpp"

namespace ptxcheck::mm::z3e {

// A dense boolean matrix over event ids.
struct Mat {
  int n = 0;
  std::vector<char> bits;
  Mat() = default;
  explicit Mat(int size) : n(size), bits(size_t(size) * size, 0) {}
  bool operator()(int a, int b) const { return bits[size_t(a) * n + b] != 0; }
  void set(int a, int b, bool v = true) { bits[size_t(a) * n + b] = v; }
};

// Transitive closure (Warshall), in place.
void close(Mat& m);

struct Facts {
  int n = 0;
  ModelKind kind = ModelKind::PTX75;
  // PTX ISA 8.9.6: coherence is a partial order in PTX (writes in a data
  // race stay unordered); SC orders all writes to a location.
  bool co_total = false;
  bool sc_per_loc = true;  // check PTX ISA 8.10.5 (Model::sc_per_location)
  bool obs_rmw = true;     // observation continues through RMW chains (8.9.2 item 2)
  std::vector<char> R, W, M, init, sc_fence, alias_fence, gen;
  std::vector<int> phys;   // physical location, -1 for non-memory events
  Mat po;          // PTX ISA 8.9.1 with the async ordering of 8.9.1.1 (StaticRelations::ord), transitive
  Mat issue;       // 8.9.1.1 issue edges (StaticRelations::async_issue): cb?; issue, not continued
  Mat vloc;        // same virtual address (8.2.2), memory events only
  Mat loc;         // same physical location (overlap, 8.2.1), memory events only
  Mat ms;          // morally strong (8.7), irreflexive
  Mat same_proxy;  // both tagged with the same proxy (8.6)
  Mat scta;        // same CTA (both events run by threads)
  Mat sb;          // barrier synchronisation (8.9.4 item 2) of the chosen quorum
  // Barriers with a thread count below the arrivals leave a runtime choice
  // of which threads complete them (static_relations.hpp); engines take the
  // union over the choices. A barrier that can never complete: no execution.
  std::vector<Mat> sb_choices;
  bool barrier_hangs = false;
  Mat pfo;         // (f, x): fence f and memory op x share proxy and CTA (Dat3M proxy-fence-ops)
  Mat dep;         // addr | data | ctrl
  Mat poloc;       // po & loc
  Mat spl_overlap; // po & overlap used by SC-per-location (vloc in PTX75, loc in PTX6)
  Mat sfpair;      // morally strong fence.sc pairs, which Fence-SC order relates
  std::vector<std::pair<int, int>> rmw;   // (read half, write half) of atomics
  // Release pattern (8.8): (X, w): X is the first event, w a strong write in it.
  std::vector<std::pair<int, int>> relpat;
  // Acquire pattern (8.8): (r, Y): r a strong read in it, Y the last event.
  std::vector<std::pair<int, int>> acqpat;
  std::vector<int> reads, writes, sc_fences;  // sc_fences: those in some sfpair
  // Per read: candidate writes (same physical location, same value, not its
  // own RMW write; the initial value from the first initial write).
  std::vector<std::vector<int>> rf_cands;
  // Per physical location: its writes, init writes first.
  std::vector<std::vector<int>> loc_writes;
};

// From the shared static relations (memmodel/static_relations.hpp), so that
// both engines read the Skeleton the same way.
Facts build_facts(const Skeleton& s, const Model& m);
Facts build_facts(const Skeleton& s, const StaticRelations& st, const Model& m);  // st = build_static(s, m)

}  // namespace ptxcheck::mm::z3e
