// Symbolic execution of one thread of lowered IR (ir.hpp) under the memory
// model: the same decoded instructions and semantics/arith functions that
// the interpreter runs, but every access to a shared location becomes an
// mm::Event, and a read (a load, or the read half of an atom/red) is a
// choice point over the values the location may hold. The thread's feasible
// paths are enumerated, one trace per path, with the intra-thread
// dependencies of each event (PTX ISA 8.10.4 No Thin Air uses them):
//   addr  the address of the access was computed from the read's value;
//   data  the value written was computed from the read's value;
//   ctrl  a branch (or an instruction's guard) before the event depended on
//         the read's value.
// Loops are bounded: a backward jump is taken at most `unroll` times per
// path and call; paths that would take it again are cut and counted, and so
// are calls that would make a function active more than unroll + 1 times
// (recursion). A spin-loop iteration that only loads and comes back to the
// loop head with the same live registers (values and dependencies) and the
// same own memory is dropped as redundant: it can only add constraints,
// never a new final state (see subsumed()).
// Calls (PTX ISA 9.7.12.5) run as Machine::do_call runs them: a register
// file per call and a frame of .param/.local bytes in the thread's own
// memory; dependencies flow through arguments and return values.
// Contract: the caller owns the value sets (and their fixpoint across
// threads) and the location table; TraceEnv says which location an access
// touches. Accesses to .local memory (and the frames) are the thread's own:
// they take their single value and create no event. An instruction the
// executor cannot run symbolically (tensor copies, mbarrier.init, ...) is
// rejected by trace_check() before running. Warp
// collectives (TraceColl) assume their result: one path per result the
// partner lanes' possible operands give.
// Asynchronous operations (PTX ISA 8.9.1.1: cp.async, cp.async.bulk) stay
// pending: their reads and writes are events outside program order (marked
// with Event::async_op, a local index into ThreadTrace::async_ops), grouped
// by commit_group and completed by wait_group (ThreadTrace::waits) or by
// their complete-tx on an mbarrier location, which mbarrier.try_wait /
// test_wait read: in a litmus thread the mbarrier object's value is the
// number of its completed phases, and each complete-tx completes one.
#pragma once
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "memmodel/events.hpp"
#include "semantics/interp/ir.hpp"

namespace ptxcheck::interp {

// The world outside the thread.
class TraceEnv {
 public:
  virtual ~TraceEnv() = default;
  // The model location that an access of `size` bytes at `addr` in `space`
  // (Generic resolved by the caller's address map) touches. Throws
  // InputError when the access reaches no location or mixes sizes.
  virtual int locate(Space space, uint64_t addr, unsigned size, const Inst& in) const = 0;
  // Mixed-size accesses (PTX ISA 8.2.1 Overlap): a load, store or atom/red
  // of `size` bytes at `addr` as the granule locations it covers, in address
  // order (a caller that splits a variable into the byte ranges its accesses
  // delimit), each with its byte offset in the access and its size; `span`
  // gets mm::Event::span of the access. The default is locate()'s one
  // location, whole, with span 0.
  struct Piece {
    int loc = -1;
    unsigned at = 0, size = 0;
  };
  virtual std::vector<Piece> pieces(Space space, uint64_t addr, unsigned size, const Inst& in, uint32_t& span) const {
    span = 0;
    return {Piece{locate(space, addr, size, in), 0, size}};
  }
  // The location that starts at `addr` and its size, or -1 when none does
  // (a copy's byte range is copied location by location; the bytes between
  // a test's locations are not modelled).
  virtual int locate_start(Space space, uint64_t addr, unsigned& size, const Inst& in) const = 0;
  // The values a read of location `loc` may return (never empty).
  virtual const std::vector<uint64_t>& values(int loc) const = 0;
  // The value of a special register (%tid.x, ...) for this thread.
  virtual uint64_t sreg(SReg s) const = 0;
  // The thread's lane and the lanes of its warp (warp collectives).
  virtual uint32_t lane() const { return 0; }
  virtual uint32_t nlanes() const { return 1; }
  // The values of src[0] that the thread at lane `lane` of this warp may
  // give at its n-th warp collective whose membermask includes lane `with`
  // (0-based, over all of its paths known so far); nullptr when none.
  virtual const std::vector<uint64_t>* coll_values(uint32_t lane, uint32_t with, uint32_t n) const {
    (void)lane, (void)with, (void)n;
    return nullptr;
  }
};

// A warp collective .sync instruction of one path (shfl, vote, match,
// redux, elect, bar.warp.sync), for the caller to match with the other
// lanes' (PTX ISA 9.7.9.6 shfl.sync: it waits "until all non-exited threads
// corresponding to membermask have executed shfl.sync with the same
// qualifiers and same membermask value"). The path assumed the result
// d0/d1; the caller keeps only combinations where the lanes' operands give
// it (warp_collective_values). A register that the result flows into
// depends on the pseudo event -(k+1), k the collective's index in
// ThreadTrace::colls: the caller replaces it with the events the partner
// lanes' operands depend on.
struct TraceColl {
  uint32_t pc = 0;
  uint32_t mask = 0;  // membermask, as lanes of the warp
  uint32_t lane = 0;
  uint64_t a = 0, b = 0, c = 0;  // src[0..2]
  uint64_t d0 = 0, d1 = 0;       // the result assumed
  std::vector<int> a_deps;       // what src[0] depends on (local, may be pseudo)
  // The path stops here: some lane of the membermask gave no operand for
  // this collective on any of its paths (it never executes a matching one).
  bool blocked = false;
};

// An asynchronous operation of one path (mm::AsyncOp with local indices).
struct TraceAsyncOp {
  mm::AsyncOpKind kind = mm::AsyncOpKind::Bulk;
  int issued_after = 0;  // program-order events of the path before it
  std::vector<int> mem;  // its reads and writes
  int fence = -1;        // the implicit generic-async proxy fence
  int complete_tx = -1;  // the write half of its complete-tx
};

// A wait_group that completes `op` before the path's program-order events
// from index `before` on (mm::AsyncWait).
struct TraceAsyncWait {
  int op = -1;
  int before = 0;
  bool reads_only = false;
};

struct ThreadTrace {
  // Events in program order; `thread` is -1 (the caller places the thread),
  // `loc` is TraceEnv::locate's answer, `rmw_pair` a local index.
  std::vector<mm::Event> events;
  std::vector<uint32_t> pcs;  // per event: code index of the instruction
  // Per event: the index of the first event of its access (itself, except
  // for the later granule events of a mixed-size access, TraceEnv::pieces).
  std::vector<int> access;
  std::vector<std::pair<int, int>> addr, data, ctrl;  // local event indices
  std::vector<uint64_t> regs;  // final value of each register slot
  std::vector<TraceAsyncOp> async_ops;
  std::vector<TraceAsyncWait> waits;
  std::vector<TraceColl> colls;  // warp collectives in program order
};

// The Barrier event of a bar.warp.sync has this bar_id (and the membermask
// as its value): the caller gives each (warp, membermask) a barrier id.
inline constexpr int kWarpBarrierId = -2147483647 - 1;

struct ThreadPaths {
  std::vector<ThreadTrace> traces;
  uint64_t cut = 0;       // paths cut off by the loop bound
  uint64_t subsumed = 0;  // paths dropped as redundant spin-loop iterations
  // (location, value) of every write on any path, complete or cut (a path
  // cut by the bound may still write before it is cut), and the most
  // writes one path performs.
  std::vector<std::pair<int, uint64_t>> written;
  size_t most_writes = 0;
  // (with, n, value): the thread gives src[0] = value at its n-th warp
  // collective whose membermask includes lane `with` (on any path), and
  // the most collectives one path executes.
  std::vector<std::tuple<uint32_t, uint32_t, uint64_t>> coll_given;
  size_t most_colls = 0;
};

struct TraceLimits {
  int unroll = 1;
  uint64_t max_traces = 200000;      // paths per thread; LimitError beyond
  uint64_t max_steps = 10'000'000;   // instructions over all paths; LimitError beyond
};

// Why a symbolic thread cannot run IR operation `op` at all (a genuine
// limit of the litmus model, docs/litmus-format.md lists them), or nullptr
// when it runs the operation (perhaps only some of its forms: trace_check
// refuses the others with their own message).
const char* trace_limit(IrOp op);

// Throws InputError (prog.file, the instruction's line) for the first
// instruction of function `func`, or of a function it may call, that
// trace_paths() cannot execute.
void trace_check(const Program& prog, uint32_t func);

// Enumerates the paths of function `func` of `prog`, entered with register
// slots `regs` (missing slots start at 0).
ThreadPaths trace_paths(const Program& prog, uint32_t func, std::vector<uint64_t> regs, const TraceEnv& env,
                        const TraceLimits& lim);

}  // namespace ptxcheck::interp
