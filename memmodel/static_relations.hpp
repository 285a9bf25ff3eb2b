// Relations that depend only on a Skeleton (and the Model reading), not on
// rf, co or the Fence-SC order. Shared by the enumeration and Z3 engines.
// Contract: build_static() is pure; every Relation/EventSet has size
// s.events.size(). Set and relation names follow PTX ISA 9.2 chapter 8 and
// Dat3M's cat models (cat/ptx-v7.5.cat, cat/ptx-v6.0.cat), see
// docs/model-notes.md for the readings.
#pragma once
#include "memmodel/engine.hpp"
#include "memmodel/events.hpp"
#include "memmodel/relation.hpp"

namespace ptxcheck::mm {

// Does scope `sc` of an operation by thread `a` include thread `b`? (8.5)
bool scope_includes(const Skeleton& s, Scope sc, int a, int b);

struct StaticRelations {
  int n = 0;
  // ---- event sets ----
  EventSet init;           // initial writes
  EventSet reads, writes;  // R, W (W includes init)
  EventSet mem;            // M = R | W
  EventSet fences;         // F: fences, proxy fences, barriers
  EventSet sc_fences;      // fence.sc
  EventSet rel_fences;     // fences that may start a release pattern (8.8 form 3)
  EventSet acq_fences;     // fences that may end an acquire pattern (8.8 form 3)
  EventSet alias_fences;   // fence.proxy.alias
  EventSet barriers;       // bar{.cta}.{sync,arrive,red}
  EventSet strong_writes;  // W & (relaxed | release | ...): strong (8.4), not init
  EventSet strong_reads;   // R & (relaxed | acquire | ...)
  EventSet rel_writes;     // release writes (st.release, write half of atom.release/acq_rel)
  EventSet acq_reads;      // acquire reads (ld.acquire, read half of atom.acquire/acq_rel)
  EventSet generic;        // Dat3M's GEN tag: generic-proxy memory ops and memory fences
  EventSet async_events;   // events of asynchronous operations (not in po, 8.9.1.1)
  // ---- relations ----
  Relation po;             // program order (8.9.1), strict, transitive
  // Ordering of asynchronous operations (PTX ISA 8.9.1.1 and the instruction
  // descriptions; Skeleton::async_ops/async_waits): within an operation, its
  // reads, then its writes, then its implicit proxy fence, then its
  // complete-tx; and from the operation to the events after a wait_group
  // that covers it. Not program order, but base causality uses it as such.
  Relation async_order;
  Relation ord;            // (po | async_order)+: what base causality composes
  // "ordered after prior instructions in the same thread" (8.9.1.1): the
  // issuing thread's earlier events -> the operation's memory operations.
  // Base causality adds cb?; async_issue without continuing from its
  // target, since the complete-tx "does not transitively establish ordering
  // with respect to prior instructions from the issuing thread" (8.9.1.1).
  Relation async_issue;
  Relation same_thread;
  Relation loc;            // M x M, same physical location (overlap, 8.2.1-8.2.2)
  Relation vloc;           // M x M, same virtual address
  Relation same_proxy;     // both tagged with the same proxy (8.6)
  Relation scta;           // both executed by threads of one CTA
  Relation sr;             // each specifies a scope including the other's thread
  Relation ms;             // morally strong (8.7), irreflexive, symmetric
  Relation rmw;            // read half -> write half of one atomic
  Relation dep;            // addr | data | ctrl
  Relation release_pattern;  // first op of a release pattern -> its strong write (8.8)
  Relation acquire_pattern;  // strong read of an acquire pattern -> its last op (8.8)
  Relation proxy_fence_ops;  // F -> M, same proxy, same CTA (Dat3M proxy-fence-ops)
  Relation sync_barrier;     // barrier X synchronizes with barrier Y (8.9.4 item 2)
  // Barriers with an explicit thread count q smaller than the number n of
  // threads arriving leave a runtime choice: which q arrive first and
  // complete the barrier together (they synchronize with each other); the
  // later arrivals pass it, ordered after the first q. Each element is one
  // complete choice (all such barrier instances); `sync_barrier` is the
  // first. A count larger than n never completes: `barrier_hangs`, and the
  // Skeleton has no terminating execution. `sync_barrier` is the
  // intersection of the choices (what every choice synchronizes).
  std::vector<Relation> sync_barrier_choices;
  bool barrier_hangs = false;
  Relation sc_fence_pairs;   // symmetric: morally strong fence.sc pairs (ordered by Fence-SC)
  // The first initial write of each physical location (reads of the initial
  // value read from it), indexed by physical location; -1 if none.
  std::vector<int> init_of_physical;
  int num_physical = 0;
};

StaticRelations build_static(const Skeleton& s, const Model& m);

}  // namespace ptxcheck::mm
