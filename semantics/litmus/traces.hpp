// Small-step execution of litmus threads to traces of memory-model events,
// on the interpreter's IR (to_ir.hpp) by semantics/interp/trace_exec.
// Each thread runs alone; a load (or the read half of an atom/red) may
// return any value some write could store to that physical location, so a
// thread's feasible paths are enumerated for every guessed value. The value
// sets grow to a fixpoint across threads (a value needs a chain of at most
// W writes, W the number of writes an execution performs, so W+1 rounds
// suffice). Loops are bounded: a backward jump is taken at most `unroll`
// times per path; paths that would take it again are cut and counted.
// A spin-loop iteration that only loads and comes back to the loop head in
// the same (live) register state is dropped as redundant: it can only add
// constraints, never a new final state (see Runner::subsumed).
#pragma once
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "memmodel/events.hpp"
#include "semantics/interp/trace_exec.hpp"
#include "semantics/litmus/program.hpp"

namespace ptxcheck::litmus {

struct Trace {
  // Events of one thread in program order. `thread` is set; `loc` indexes
  // Program::locations; `rmw_pair` is a local index into this vector.
  std::vector<mm::Event> events;
  // Per event: the first event of its access (interp::ThreadTrace::access)
  // and its instruction (index into Thread::code, -1 for none).
  std::vector<int> access, instr;
  std::vector<std::pair<int, int>> addr, data, ctrl;  // local event indices
  std::vector<uint64_t> regs;                         // final register values by slot
  // Asynchronous operations (PTX ISA 8.9.1.1): their events are in `events`
  // with Event::async_op a local index into async_ops, outside program order;
  // event indices are local (interp::TraceAsyncOp, TraceAsyncWait).
  std::vector<interp::TraceAsyncOp> async_ops;
  std::vector<interp::TraceAsyncWait> waits;
  // Warp collectives in program order (interp::TraceColl): each assumed
  // its result; check.cpp keeps the combinations where the lanes' operands
  // give it.
  std::vector<interp::TraceColl> colls;
};

struct ThreadTraces {
  std::vector<Trace> traces;
  uint64_t cut = 0;       // paths cut off by the loop bound
  uint64_t subsumed = 0;  // paths dropped as redundant spin-loop iterations
};

struct TraceSet {
  std::vector<ThreadTraces> threads;
  std::vector<std::vector<uint64_t>> values;  // per physical location: values that may be read
  // Per thread: the src[0] values it may give at its n-th warp collective
  // whose membermask includes lane `with`, by (with, n) (TraceEnv::coll_values).
  std::vector<std::map<std::pair<uint32_t, uint32_t>, std::vector<uint64_t>>> coll_values;
  int rounds = 0;
  bool bound_hit() const {
    for (const auto& t : threads)
      if (t.cut) return true;
    return false;
  }
};

struct TraceLimits {
  int unroll = 1;
  uint64_t max_traces = 200000;  // per thread; LimitError beyond
  int max_values = 256;          // per location; LimitError beyond
};

TraceSet build_traces(const Program& p, const TraceLimits& lim);

// The comparison of a final condition (values as signed 64-bit integers).
bool compare(CmpOp c, uint64_t a, uint64_t b);

}  // namespace ptxcheck::litmus
