// Internals of the symbolic thread executor (trace_exec.hpp), shared by
// trace_exec.cpp (plain accesses, control flow, the step loop),
// trace_exec_async.cpp (asynchronous operations: bulk and cp.async groups,
// mbarrier waits, cp.async{.bulk} copies, st.async/red.async),
// trace_call.cpp (calls and frames), trace_coll.cpp (warp collectives) and
// trace_check.cpp (the operations supported, checked before a thread runs).
// Not an interface for other code.
#pragma once
#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "memmodel/names.hpp"
#include "semantics/interp/trace_exec.hpp"
#include "support/error.hpp"

namespace ptxcheck::interp::trace_detail {

using Deps = std::vector<int>;  // sorted local event indices

inline void merge(Deps& into, const Deps& from) {
  if (from.empty()) return;
  Deps out;
  std::set_union(into.begin(), into.end(), from.begin(), from.end(), std::back_inserter(out));
  into = std::move(out);
}

inline uint64_t wmask(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

inline uint64_t sext(uint64_t v, unsigned bits) {
  if (bits >= 64) return v;
  uint64_t m = 1ull << (bits - 1);
  v &= (1ull << bits) - 1;
  return (v ^ m) - m;
}

// PTX ISA 8.4 Operation types: an RMW's read half carries the acquire part
// of its order and its write half the release part.
inline std::pair<mm::Order, mm::Order> split_rmw(mm::Order o) {
  switch (o) {
    case mm::Order::AcqRel:
    case mm::Order::SC: return {mm::Order::Acquire, mm::Order::Release};
    case mm::Order::Acquire: return {mm::Order::Acquire, mm::Order::Relaxed};
    case mm::Order::Release: return {mm::Order::Relaxed, mm::Order::Release};
    default: return {o, o};
  }
}

struct Range {
  uint32_t begin = 0, end = 0;
};

// A function's code: from its entry to the next defined function's (trace_check.cpp).
Range range_of(const Program& prog, uint32_t func);

// The IR operation's name, for messages (trace_check.cpp).
const char* op_text(IrOp op);

using LocalBytes = std::map<uint64_t, std::pair<uint8_t, Deps>>;  // local offset -> byte, deps

struct State {
  uint32_t pc = 0;
  // The current call's function, register file (one slot per register of
  // that function) and frame: local bytes [fp, sp) hold its .local and
  // .param variables (PTX ISA 5.1.6.4), as in the interpreter (do_call).
  uint32_t func = 0;
  uint64_t fp = 0, sp = 0;
  std::vector<uint64_t> regs;
  std::vector<Deps> deps;
  Deps ctrl;                           // reads the control flow depends on so far
  std::map<uint32_t, int> back_jumps;  // branch pc -> times taken (in this call)
  struct Arrival {
    size_t events = 0;
    std::vector<uint64_t> regs;
    std::vector<Deps> deps;
    LocalBytes local;  // the bytes below sp
  };
  std::map<uint32_t, Arrival> arrivals;  // per loop head: the state at the last arrival (in this call)
  LocalBytes local;                      // the thread's own bytes (.local, frames)
  // The callers' calls: what `ret` restores.
  struct Frame {
    uint32_t ret_pc = 0, call = 0, func = 0;
    uint64_t fp = 0, sp = 0;
    std::vector<uint64_t> regs;
    std::vector<Deps> deps;
    std::map<uint32_t, int> back_jumps;
    std::map<uint32_t, Arrival> arrivals;
  };
  std::vector<Frame> frames;
  size_t writes = 0;
  uint32_t coll_with[32] = {};  // per lane: collectives so far whose membermask includes it
  int po_events = 0;            // events in program order so far (not of asynchronous operations)
  // Asynchronous operations not yet committed, and committed groups not yet
  // waited for (PTX ISA 9.7.9.25.1.1): bulk and non-bulk apart.
  std::vector<int> bulk_open, cp_open;
  std::vector<std::vector<int>> bulk_groups, cp_groups;
  ThreadTrace tr;
};

class Tracer {
 public:
  Tracer(const Program& prog, uint32_t func, const TraceEnv& env, const TraceLimits& lim);

  ThreadPaths run(std::vector<uint64_t> regs) {
    State s;
    s.func = func_;
    s.pc = prog_.funcs[func_].entry_pc;
    s.sp = prog_.funcs[func_].frame_bytes;
    regs.resize(prog_.funcs[func_].nregs, 0);
    s.regs = std::move(regs);
    s.deps.resize(prog_.funcs[func_].nregs);
    step(std::move(s));
    return std::move(out_);
  }

 private:
  [[noreturn]] void fail(const Inst& in, const std::string& msg) const {
    throw InputError(prog_.file, SourcePos{in.line, in.col}, msg);
  }

  uint64_t val(const State& s, const Opnd& o) const {
    switch (o.kind) {
      case Opnd::Reg: {
        uint64_t v = s.regs[o.slot];
        return o.negate ? !v : v;
      }
      case Opnd::Imm: return o.imm;
      case Opnd::Special: return env_.sreg(o.sreg);
      case Opnd::FrameAddr: return s.fp + o.imm;
      case Opnd::None: return 0;
    }
    return 0;
  }
  void deps_of(const State& s, const Opnd& o, Deps& d) const {
    if (o.kind == Opnd::Reg) merge(d, s.deps[o.slot]);
  }
  void put(State& s, const Opnd& d, uint64_t v, unsigned width, Deps deps) const {
    if (d.kind != Opnd::Reg) return;
    s.regs[d.slot] = v & wmask(width);
    s.deps[d.slot] = std::move(deps);
  }
  unsigned reg_width(const State& s, const Opnd& d) const {
    return d.kind == Opnd::Reg ? prog_.funcs[s.func].reg_width[d.slot] : 64;
  }

  uint64_t address(const State& s, const Inst& in, Deps& d) const {
    uint64_t a = static_cast<uint64_t>(in.addr.off);
    if (in.addr.base == Addr::Reg) {
      a = in.addr.wrap(a + s.regs[in.addr.slot]);
      merge(d, s.deps[in.addr.slot]);
    } else if (in.addr.base == Addr::Frame) {
      a += s.fp;
    }
    return a;
  }

  // Local (own) memory: the address space of the access, and whether it is local.
  static bool is_local(Space sp, uint64_t a) {
    return sp == Space::Local || (sp == Space::Generic && a >= kLocalWin && a < kLocalWin + kWinSize);
  }
  static uint64_t local_off(Space sp, uint64_t a) { return sp == Space::Local ? a : a - kLocalWin; }

  int push(State& s, mm::Event e, uint32_t pc);

  mm::Event access(const Inst& in, mm::EventKind k, mm::Order o, int loc) const {
    mm::Event e;
    e.kind = k;
    e.order = o;
    e.scope = in.scope;
    e.loc = loc;
    return e;
  }

  void finish(State& s);

  // A loop iteration that only loaded (no write, RMW, fence or barrier) and
  // returns to its head with the same live registers (values and deps) is
  // redundant: the path that skipped it reaches the same states with a
  // subset of the events, and dropping plain reads never makes a consistent
  // execution inconsistent (they only add rf/fr/causality constraints).
  bool subsumed(const State& s, uint32_t head);

  // A function's code range, its loop heads (targets of backward branches)
  // and the registers live at each instruction (built on first use).
  struct FnTables {
    Range r;
    std::vector<char> head;
    std::vector<std::vector<char>> live;
  };
  const FnTables& tables(uint32_t func);

  // call (PTX ISA 9.7.12.5 call): a new register file and frame for the callee,
  // the arguments copied into its formals as the interpreter does
  // (Machine::do_call), their dependencies with them. A direct or indirect
  // recursion deeper than the unroll bound is cut like a loop. Returns
  // false when the path ended here.
  bool call(State& s, const Inst& in);
  // ret (9.7.12.6) from a called function: the return values go to the caller's
  // registers or .param variables (Machine::do_ret).
  void ret(State& s);
  // Bytes of the thread's own memory.
  static uint64_t read_local(const State& s, uint64_t off, unsigned n, Deps& d);
  static void write_local(State& s, uint64_t off, unsigned n, uint64_t v, const Deps& d);
  static void copy_local(State& s, uint64_t to, uint64_t from, unsigned n);

  // The read of a load or atom/red: forks the state over the location's
  // values; `apply` finishes the instruction for one value.
  template <class F>
  void fork_read(State& s, int loc, F&& apply) {
    const std::vector<uint64_t>& vals = env_.values(loc);
    for (size_t k = 0; k + 1 < vals.size(); ++k) {
      State f = s;
      apply(f, vals[k]);
      ++f.pc;
      step(std::move(f));
    }
    apply(s, vals.back());
  }

  // The reads of an access's granules (TraceEnv::pieces): forks over each
  // granule's values in turn; `done(f, vals)` finishes the instruction with
  // one value per piece.
  template <class F>
  void fork_pieces(State& s, const std::vector<TraceEnv::Piece>& ps, std::vector<uint64_t> vals, F& done) {
    const size_t i = vals.size();
    fork_read(s, ps[i].loc, [&, vals](State& f, uint64_t v) {
      std::vector<uint64_t> next = vals;
      next.push_back(ps[i].size >= 8 ? v : v & ((uint64_t{1} << (8 * ps[i].size)) - 1));
      if (next.size() == ps.size())
        done(f, next);
      else
        fork_pieces(f, ps, std::move(next), done);
    });
  }

  void load(State& s, const Inst& in);

  void store(State& s, const Inst& in);

  // atom/red (PTX ISA 9.7.13.5-6): a read and, unless a cas fails, a write
  // of arith::atom_apply's value, paired as one atomic operation.
  void rmw(State& s, const Inst& in);

  // commit_group / wait_group (Nop modes, lower_sync.cpp; PTX ISA
  // 9.7.9.25.1.1): a commit makes the pending operations a group; a wait
  // for all but the N most recent groups completes theirs before the
  // thread's later events (with .read only their reads).
  void group_op(State& s, const Inst& in);

  // mbarrier.try_wait / test_wait (PTX ISA 9.7.13.15.16): a read of the
  // mbarrier location with the instruction's order (.acquire by default)
  // and scope. Its value's bits 0-15 count the completed phases (mbar_next
  // in trace_exec_async.cpp): the .parity form
  // returns whether the phase of that parity completed last, the state
  // form whether more than `state` phases have completed.
  void mbar_wait(State& s, const Inst& in);

  // mbarrier.arrive{.expect_tx} (PTX ISA 9.7.13.15.13: .release by default,
  // at .cta scope), mbarrier.expect_tx and mbarrier.complete_tx (.relaxed
  // only): one atomic read-modify-write of an mbarrier location whose
  // initial value sets its expected arrival count (mbar_next). Runs the
  // rest of the thread.
  void mbar_update(State s, const Inst& in);

  // cp.async / cp.async.bulk (PTX ISA 8.9.1.1, 9.7.9.25): an asynchronous
  // operation that reads its source and writes its destination location by
  // location, outside program order; a bulk copy's completion is followed
  // by an implicit generic-async proxy fence (9.7.9.25.2); with an mbarrier
  // operand it ends with a complete-tx of its size (a read-modify-write of
  // the mbarrier: mbar_next) whose write has .release semantics at .cluster
  // scope (cp.async.bulk description). Runs the rest of the thread.
  struct Piece {
    int src, dst;
    unsigned size;
  };
  void copy(State s, const Inst& in);

  // st.async / red.async (PTX ISA 9.x st.async, red.async): "a non-blocking
  // instruction which initiates an asynchronous store [reduction]
  // operation"; it "is performed in the generic proxy". An asynchronous
  // operation (8.9.1.1): its access is outside program order, ordered after
  // the thread's prior instructions; st.async's store "is treated as a weak
  // memory operation", red.async's "reduce operation is a relaxed memory
  // operation" at .cluster scope; upon completion a complete-tx on the
  // mbarrier "has .release semantics at .cluster scope" (of the access's
  // size, as for cp.async.bulk). The access is lowered
  // as the St/Red with async_tx followed by the complete_tx
  // (MbarOp::CompleteTx, lower_sync.cpp); both are consumed here. No implicit proxy fence:
  // the operation is in the generic proxy.
  void async_access(State s, const Inst& in);

  // cp.reduce.async.bulk (PTX ISA 9.7.9.25.4.2; BulkCopy mode 2): an
  // asynchronous operation of the async proxy (8.9.1.1) that reduces the
  // destination element by element with the source: "The load operations
  // ... are treated as weak memory operation", "Each reduction operation
  // ... has individually .relaxed.gpu memory ordering semantics" (a read
  // and a write paired as one atomic operation, with atom's arithmetic).
  // With an mbarrier operand it ends with a complete-tx (.release at
  // .cluster scope), else it joins the bulk async-group; as for
  // cp.async.bulk its completion is followed by the implicit
  // generic-async proxy fence. Each element must be one location of the
  // test, in the source and in the destination.
  void reduce(State s, const Inst& in);

  void reduce_piece(State s, const Inst& in, int k, const std::vector<Piece>& pieces, size_t i, int bar,
                    const Deps& ad);

  mm::Event async_event(mm::EventKind kind, int loc, int k, mm::Proxy proxy) const;

  // The operands an asynchronous copy or reduction starts with: the
  // destination and source addresses and the size, with their dependencies.
  void copy_operands(const State& s, const Inst& in, uint64_t& dst, uint64_t& src, uint64_t& size, Deps& ad) const;

  // The location of a bulk operation's mbarrier operand, or -1 without one;
  // its dependencies join `ad`.
  int bulk_mbarrier(const State& s, const Inst& in, Deps& ad) const;

  // Starts the thread's next asynchronous operation, ordered after its
  // events in program order so far; returns its index.
  static int start_async(State& s, mm::AsyncOpKind kind);

  void copy_piece(State s, const Inst& in, int k, const std::vector<Piece>& pieces, size_t i, int bar, const Deps& ad);

  void copy_done(State s, const Inst& in, int k, int bar, const Deps& ad);

  // A warp collective .sync instruction (TraceColl): the result is a choice
  // over what the partner lanes' operands may be (TraceEnv::coll_values),
  // computed by warp_collective_values; one path per distinct result.
  // Returns false when the path ended here (blocked).
  bool collective(State& s, const Inst& in);

  // Runs from s.pc until the thread ends or a read forks the state.
  void step(State s);

  const Program& prog_;
  uint32_t func_;
  const TraceEnv& env_;
  const TraceLimits& lim_;
  std::map<uint32_t, FnTables> tables_;
  uint64_t steps_ = 0;
  ThreadPaths out_;
};

}  // namespace ptxcheck::interp::trace_detail
