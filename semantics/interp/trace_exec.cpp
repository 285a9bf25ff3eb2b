// Symbolic execution of one thread of lowered IR (see trace_exec.hpp). The
// register-level instructions are the interpreter's: arithmetic through the
// resolved arith::OpDesc, atom/red through arith::atom_apply, address space
// conversion through Memory.
#include "semantics/interp/trace_exec.hpp"

#include <algorithm>
#include <map>

#include "memmodel/names.hpp"
#include "parser/diagnostic.hpp"

namespace ptxcheck::interp {

namespace {

using Deps = std::vector<int>;  // sorted local event indices

void merge(Deps& into, const Deps& from) {
  if (from.empty()) return;
  Deps out;
  std::set_union(into.begin(), into.end(), from.begin(), from.end(), std::back_inserter(out));
  into = std::move(out);
}

uint64_t wmask(unsigned bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

uint64_t sext(uint64_t v, unsigned bits) {
  if (bits >= 64) return v;
  uint64_t m = 1ull << (bits - 1);
  v &= (1ull << bits) - 1;
  return (v ^ m) - m;
}

// PTX ISA 8.4 Operation types: an RMW's read half carries the acquire part
// of its order and its write half the release part.
std::pair<mm::Order, mm::Order> split_rmw(mm::Order o) {
  switch (o) {
    case mm::Order::AcqRel:
    case mm::Order::SC: return {mm::Order::Acquire, mm::Order::Release};
    case mm::Order::Acquire: return {mm::Order::Acquire, mm::Order::Relaxed};
    case mm::Order::Release: return {mm::Order::Relaxed, mm::Order::Release};
    default: return {o, o};
  }
}

bool supported(const Inst& in) {
  switch (in.op) {
    // mbarrier.try_wait / test_wait (modes 3, 4, lower_sync.cpp); a litmus
    // thread has no other mbarrier operation.
    case IrOp::Mbarrier: return in.mode == 3 || in.mode == 4;
    case IrOp::BulkCopy: return (in.mode == 0 && in.flags == 0) || in.mode == 2;  // copy, reduce (not multicast / cp_mask)
    case IrOp::CpAsync: return in.src[1].kind == Opnd::None;
    case IrOp::Nop:
    case IrOp::Arith:
    case IrOp::Mov:
    case IrOp::Pack:
    case IrOp::Unpack:
    case IrOp::Ld:
    case IrOp::St:
    case IrOp::Atom:
    case IrOp::Red:
    case IrOp::Bra:
    case IrOp::Ret:
    case IrOp::Exit:
    case IrOp::Fence:
    case IrOp::Cvta:
    case IrOp::BarSync:
    case IrOp::BarArrive: return true;
    default: return false;
  }
}

const char* op_text(IrOp op) {
  switch (op) {
#define IR_OP(id) \
  case IrOp::id: return #id;
#include "semantics/interp/ir_ops.def"
#undef IR_OP
  }
  return "?";
}

struct Range {
  uint32_t begin = 0, end = 0;
};

Range range_of(const Program& prog, uint32_t func) {
  Range r{prog.funcs[func].entry_pc, static_cast<uint32_t>(prog.code.size())};
  for (const Function& f : prog.funcs)
    if (f.defined && f.entry_pc > r.begin) r.end = std::min(r.end, f.entry_pc);
  return r;
}

// Register slots an instruction reads and writes.
void uses_defs(const Inst& in, std::vector<uint32_t>& use, std::vector<uint32_t>& def) {
  use.clear();
  def.clear();
  for (unsigned k = 0; k < 4; ++k)
    if (in.src[k].kind == Opnd::Reg) use.push_back(in.src[k].slot);
  if (in.addr.base == Addr::Reg) use.push_back(in.addr.slot);
  if (in.guarded) use.push_back(in.guard);
  for (unsigned k = 0; k < 4; ++k)
    if (in.dst[k].kind == Opnd::Reg) def.push_back(in.dst[k].slot);
}

struct State {
  uint32_t pc = 0;
  std::vector<uint64_t> regs;
  std::vector<Deps> deps;
  Deps ctrl;                           // reads the control flow depends on so far
  std::map<uint32_t, int> back_jumps;  // branch pc -> times taken
  struct Arrival {
    size_t events = 0;
    std::vector<uint64_t> regs;
    std::vector<Deps> deps;
  };
  std::map<uint32_t, Arrival> arrivals;  // per loop head: the state at the last arrival
  std::map<uint64_t, std::pair<uint8_t, Deps>> local;  // the thread's own bytes (.local, frame)
  size_t writes = 0;
  int po_events = 0;  // events in program order so far (not of asynchronous operations)
  // Asynchronous operations not yet committed, and committed groups not yet
  // waited for (PTX ISA 9.7.9.25.1.1): bulk and non-bulk apart.
  std::vector<int> bulk_open, cp_open;
  std::vector<std::vector<int>> bulk_groups, cp_groups;
  ThreadTrace tr;
};

class Tracer {
 public:
  Tracer(const Program& prog, uint32_t func, const TraceEnv& env, const TraceLimits& lim)
      : prog_(prog), fn_(prog.funcs[func]), r_(range_of(prog, func)), env_(env), lim_(lim) {
    size_t n = r_.end - r_.begin, nr = fn_.nregs;
    head_.assign(n, 0);
    for (uint32_t pc = r_.begin; pc < r_.end; ++pc) {
      const Inst& in = prog_.code[pc];
      if (in.op == IrOp::Bra && in.target <= pc && in.target >= r_.begin) head_[in.target - r_.begin] = 1;
    }
    // Live registers (read before written on some path); all are live at
    // the thread's end, where the final state reads them.
    live_.assign(n + 1, std::vector<char>(nr, 0));
    std::fill(live_[n].begin(), live_[n].end(), 1);
    std::vector<uint32_t> use, def;
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t i = n; i-- > 0;) {
        const Inst& in = prog_.code[r_.begin + i];
        std::vector<char> out(nr, 0);
        auto add = [&](size_t succ) {
          for (size_t k = 0; k < nr; ++k) out[k] |= live_[std::min(succ, n)][k];
        };
        bool ends = in.op == IrOp::Exit || in.op == IrOp::Ret;
        if (ends) add(n);
        else if (in.op == IrOp::Bra && !in.guarded) add(in.target - r_.begin);
        else add(i + 1);
        if (in.op == IrOp::Bra && in.guarded) add(in.target - r_.begin);
        if (ends && in.guarded) add(i + 1);
        uses_defs(in, use, def);
        if (!in.guarded)
          for (uint32_t d : def) out[d] = 0;
        for (uint32_t u : use) out[u] = 1;
        if (out != live_[i]) {
          live_[i] = std::move(out);
          changed = true;
        }
      }
    }
  }

  ThreadPaths run(std::vector<uint64_t> regs) {
    State s;
    s.pc = r_.begin;
    regs.resize(fn_.nregs, 0);
    s.regs = std::move(regs);
    s.deps.resize(fn_.nregs);
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
      case Opnd::FrameAddr: return o.imm;  // the frame starts at local address 0
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
  unsigned reg_width(const Opnd& d) const { return d.kind == Opnd::Reg ? fn_.reg_width[d.slot] : 64; }

  uint64_t address(const State& s, const Inst& in, Deps& d) const {
    uint64_t a = static_cast<uint64_t>(in.addr.off);
    if (in.addr.base == Addr::Reg) {
      a = in.addr.wrap(a + s.regs[in.addr.slot]);
      merge(d, s.deps[in.addr.slot]);
    }
    return a;
  }

  // Local (own) memory: the address space of the access, and whether it is local.
  static bool is_local(Space sp, uint64_t a) {
    return sp == Space::Local || (sp == Space::Generic && a >= kLocalWin && a < kLocalWin + kWinSize);
  }
  static uint64_t local_off(Space sp, uint64_t a) { return sp == Space::Local ? a : a - kLocalWin; }

  int push(State& s, mm::Event e, uint32_t pc) {
    int id = static_cast<int>(s.tr.events.size());
    if (e.kind == mm::EventKind::Write) {
      out_.written.emplace_back(e.loc, e.value);
      out_.most_writes = std::max(out_.most_writes, ++s.writes);
    }
    if (e.async_op < 0) ++s.po_events;
    s.tr.events.push_back(std::move(e));
    s.tr.pcs.push_back(pc);
    for (int d : s.ctrl) s.tr.ctrl.emplace_back(d, id);
    return id;
  }

  mm::Event access(const Inst& in, mm::EventKind k, mm::Order o, int loc) const {
    mm::Event e;
    e.kind = k;
    e.order = o;
    e.scope = in.scope;
    e.loc = loc;
    return e;
  }

  void finish(State& s) {
    if (out_.traces.size() >= lim_.max_traces)
      throw LimitError("more than " + std::to_string(lim_.max_traces) + " paths in one thread");
    s.tr.regs = s.regs;
    out_.traces.push_back(std::move(s.tr));
  }

  // A loop iteration that only loaded (no write, RMW, fence or barrier) and
  // returns to its head with the same live registers (values and deps) is
  // redundant: the path that skipped it reaches the same states with a
  // subset of the events, and dropping plain reads never makes a consistent
  // execution inconsistent (they only add rf/fr/causality constraints).
  bool subsumed(const State& s, uint32_t head) const {
    auto it = s.arrivals.find(head);
    if (it == s.arrivals.end()) return false;
    const State::Arrival& a = it->second;
    for (size_t e = a.events; e < s.tr.events.size(); ++e) {
      const mm::Event& ev = s.tr.events[e];
      if (ev.kind != mm::EventKind::Read || ev.rmw_pair >= 0) return false;
    }
    const auto& live = live_[head - r_.begin];
    for (size_t r = 0; r < s.regs.size(); ++r)
      if (live[r] && (s.regs[r] != a.regs[r] || s.deps[r] != a.deps[r])) return false;
    return true;
  }

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

  void load(State& s, const Inst& in) {
    Deps ad;
    uint64_t a = address(s, in, ad);
    const unsigned es = in.size;
    const bool sx = in.nk == NumKind::S;
    if (is_local(in.addr.space, a)) {
      for (unsigned k = 0; k < in.ndst; ++k) {
        uint64_t v = 0;
        Deps d;
        for (unsigned b = 0; b < es; ++b) {
          auto it = s.local.find(local_off(in.addr.space, a) + k * es + b);
          if (it == s.local.end()) continue;
          v |= uint64_t{it->second.first} << (8 * b);
          merge(d, it->second.second);
        }
        if (sx) v = sext(v, es * 8);
        put(s, in.dst[k], v, reg_width(in.dst[k]), std::move(d));
      }
      return;
    }
    if (in.ndst != 1) fail(in, "a vector access to shared memory is not supported here");
    int loc = env_.locate(in.addr.space, a, es, in);
    uint32_t pc = s.pc;
    fork_read(s, loc, [&, pc](State& f, uint64_t v) {
      mm::Event e = access(in, mm::EventKind::Read, in.order, loc);
      e.value = v & wmask(es * 8);
      int id = push(f, std::move(e), pc);
      for (int x : ad) f.tr.addr.emplace_back(x, id);
      uint64_t r = sx ? sext(v, es * 8) : v & wmask(es * 8);
      put(f, in.dst[0], r, reg_width(in.dst[0]), Deps{id});
    });
  }

  void store(State& s, const Inst& in) {
    Deps ad;
    uint64_t a = address(s, in, ad);
    const unsigned es = in.size;
    if (is_local(in.addr.space, a)) {
      for (unsigned k = 0; k < in.nsrc; ++k) {
        uint64_t v = val(s, in.src[k]);
        Deps d;
        deps_of(s, in.src[k], d);
        for (unsigned b = 0; b < es; ++b)
          s.local[local_off(in.addr.space, a) + k * es + b] = {static_cast<uint8_t>(v >> (8 * b)), d};
      }
      return;
    }
    if (in.nsrc != 1) fail(in, "a vector access to shared memory is not supported here");
    int loc = env_.locate(in.addr.space, a, es, in);
    mm::Event e = access(in, mm::EventKind::Write, in.order, loc);
    e.value = val(s, in.src[0]) & wmask(es * 8);
    Deps d;
    deps_of(s, in.src[0], d);
    int id = push(s, std::move(e), s.pc);
    for (int x : ad) s.tr.addr.emplace_back(x, id);
    for (int x : d) s.tr.data.emplace_back(x, id);
  }

  // atom/red (PTX ISA 9.7.13.5-6): a read and, unless a cas fails, a write
  // of arith::atom_apply's value, paired as one atomic operation.
  void rmw(State& s, const Inst& in) {
    if (in.size > 8 || (in.op == IrOp::Atom && in.ndst > 1) || (in.op == IrOp::Red && in.nsrc > 1))
      fail(in, "vector and .b128 atomics are not supported here");
    Deps ad;
    uint64_t a = address(s, in, ad);
    const unsigned es = in.size;
    const AtomOp op = static_cast<AtomOp>(in.mode);
    const uint64_t b = val(s, in.src[0]) & wmask(es * 8);
    const uint64_t c = op == AtomOp::Cas ? val(s, in.src[1]) & wmask(es * 8) : 0;
    Deps d;
    deps_of(s, in.src[0], d);
    if (op == AtomOp::Cas) deps_of(s, in.src[1], d);
    if (is_local(in.addr.space, a)) fail(in, "an atomic on local memory is not supported here");
    int loc = env_.locate(in.addr.space, a, es, in);
    auto [ro, wo] = split_rmw(in.order);
    uint32_t pc = s.pc;
    fork_read(s, loc, [&, pc, ro = ro, wo = wo](State& f, uint64_t v) {
      v &= wmask(es * 8);
      mm::Event r = access(in, mm::EventKind::Read, ro, loc);
      r.value = v;
      r.reduction = in.op == IrOp::Red;
      int rid = push(f, std::move(r), pc);
      for (int x : ad) f.tr.addr.emplace_back(x, rid);
      if (in.op == IrOp::Atom) put(f, in.dst[0], v, 64, Deps{rid});
      if (op == AtomOp::Cas && v != b) return;  // a failing cas only reads
      mm::Event w = access(in, mm::EventKind::Write, wo, loc);
      w.value = arith::atom_apply(op, in.ety, v, b, c);
      w.reduction = in.op == IrOp::Red;
      w.rmw_pair = rid;
      int wid = push(f, std::move(w), pc);
      f.tr.events[rid].rmw_pair = wid;
      for (int x : ad) f.tr.addr.emplace_back(x, wid);
      for (int x : d) f.tr.data.emplace_back(x, wid);
    });
  }

  // commit_group / wait_group (Nop modes, lower_sync.cpp; PTX ISA
  // 9.7.9.25.1.1): a commit makes the pending operations a group; a wait
  // for all but the N most recent groups completes theirs before the
  // thread's later events (with .read only their reads).
  void group_op(State& s, const Inst& in) {
    auto commit = [](std::vector<int>& open, std::vector<std::vector<int>>& groups) {
      groups.push_back(std::move(open));
      open.clear();
    };
    auto wait = [&](std::vector<std::vector<int>>& groups, uint64_t n, bool read) {
      const size_t done = groups.size() - std::min<uint64_t>(n, groups.size());
      for (size_t g = 0; g < done; ++g)
        for (int op : groups[g]) s.tr.waits.push_back({op, s.po_events, read});
      if (!read) groups.erase(groups.begin(), groups.begin() + static_cast<std::ptrdiff_t>(done));
    };
    switch (in.mode) {
      case 1: commit(s.bulk_open, s.bulk_groups); break;
      case 2: wait(s.bulk_groups, val(s, in.src[0]), (in.flags & 1) != 0); break;
      case 3: commit(s.cp_open, s.cp_groups); break;
      case 4: wait(s.cp_groups, val(s, in.src[0]), false); break;
      case 5:
        commit(s.cp_open, s.cp_groups);
        wait(s.cp_groups, 0, false);
        break;
      default: break;
    }
  }

  // mbarrier.try_wait / test_wait (PTX ISA 9.7.13.15.16): a read of the
  // mbarrier location with the instruction's order (.acquire by default)
  // and scope. Its value counts the completed phases: the .parity form
  // returns whether the phase of that parity completed last, the state
  // form whether more than `state` phases have completed.
  void mbar_wait(State& s, const Inst& in) {
    Deps ad;
    uint64_t a = address(s, in, ad);
    unsigned bsz = 0;  // an mbarrier location of any size (Dat3M's are 4 bytes)
    int loc = env_.locate_start(in.addr.space, a, bsz, in);
    if (loc < 0) fail(in, "the mbarrier operand is no location of the test");
    const uint64_t arg = val(s, in.src[0]);
    Deps d;
    deps_of(s, in.src[0], d);
    const bool parity = in.mode == 4;
    uint32_t pc = s.pc;
    fork_read(s, loc, [&, pc](State& f, uint64_t v) {
      mm::Event e = access(in, mm::EventKind::Read, in.order, loc);
      e.value = v;
      int id = push(f, std::move(e), pc);
      for (int x : ad) f.tr.addr.emplace_back(x, id);
      const bool done = parity ? v >= 1 && ((v - 1) & 1) == (arg & 1) : v > arg;
      Deps pd = d;
      merge(pd, Deps{id});
      put(f, in.dst[0], done ? 1 : 0, reg_width(in.dst[0]), std::move(pd));
    });
  }

  // cp.async / cp.async.bulk (PTX ISA 8.9.1.1, 9.7.9.25): an asynchronous
  // operation that reads its source and writes its destination location by
  // location, outside program order; a bulk copy's completion is followed
  // by an implicit generic-async proxy fence (9.7.9.25.2); with an mbarrier
  // operand it ends with a complete-tx, here an increment of the mbarrier's
  // completed-phase count whose write has .release semantics at .cluster
  // scope (cp.async.bulk description). Runs the rest of the thread.
  struct Piece {
    int src, dst;
    unsigned size;
  };
  void copy(State s, const Inst& in) {
    const bool bulk = in.op == IrOp::BulkCopy;
    Deps ad;
    const uint64_t dst = address(s, in, ad);
    uint64_t src = static_cast<uint64_t>(in.addr2.off);
    if (in.addr2.base == Addr::Reg) {
      src = in.addr2.wrap(src + s.regs[in.addr2.slot]);
      merge(ad, s.deps[in.addr2.slot]);
    }
    const uint64_t size = val(s, in.src[0]);
    deps_of(s, in.src[0], ad);
    // The range is copied location by location; bytes outside the test's
    // locations are not modelled, but a destination location must face a
    // source location of its size.
    std::vector<Piece> pieces;
    for (uint64_t off = 0; off < size;) {
      unsigned sz = 0, dsz = 0;
      int sl = env_.locate_start(in.addr2.space, src + off, sz, in);
      if (sl < 0) {
        if (env_.locate_start(in.addr.space, dst + off, dsz, in) >= 0)
          fail(in, "the copy writes a location of the test from bytes that are no location");
        ++off;
        continue;
      }
      int dl = env_.locate(in.addr.space, dst + off, sz, in);
      pieces.push_back({sl, dl, sz});
      off += sz;
    }
    if (pieces.empty()) fail(in, "the asynchronous copy reads no location of the test");
    int bar = -1;
    if (bulk && in.src[1].kind != Opnd::None) {
      deps_of(s, in.src[1], ad);
      unsigned bsz = 0;
      bar = env_.locate_start(Space::Shared, val(s, in.src[1]) + in.src[2].imm, bsz, in);
      if (bar < 0) fail(in, "the mbarrier operand is no location of the test");
    }
    TraceAsyncOp op;
    op.kind = bulk ? mm::AsyncOpKind::Bulk : mm::AsyncOpKind::CpAsync;
    op.issued_after = s.po_events;
    const int k = static_cast<int>(s.tr.async_ops.size());
    s.tr.async_ops.push_back(op);
    copy_piece(std::move(s), in, k, pieces, 0, bar, ad);
  }

  // st.async / red.async (PTX ISA 9.x st.async, red.async): "a non-blocking
  // instruction which initiates an asynchronous store [reduction]
  // operation"; it "is performed in the generic proxy". An asynchronous
  // operation (8.9.1.1): its access is outside program order, ordered after
  // the thread's prior instructions; st.async's store "is treated as a weak
  // memory operation", red.async's "reduce operation is a relaxed memory
  // operation" at .cluster scope; upon completion a complete-tx on the
  // mbarrier "has .release semantics at .cluster scope" (an increment of
  // the completed-phase count, as for cp.async.bulk). The access is lowered
  // as the St/Red with async_tx followed by the complete_tx (Mbarrier mode
  // 8, lower_sync.cpp); both are consumed here. No implicit proxy fence:
  // the operation is in the generic proxy.
  void async_access(State s, const Inst& in) {
    if (s.pc + 1 >= r_.end || prog_.code[s.pc + 1].op != IrOp::Mbarrier || prog_.code[s.pc + 1].mode != 8)
      fail(in, "st.async/red.async without its complete_tx");
    const Inst& tx = prog_.code[s.pc + 1];
    if (in.size > 8 || in.nsrc != 1) fail(in, "vector and .b128 st.async/red.async are not supported here");
    Deps ad;
    const uint64_t a = address(s, in, ad);
    if (is_local(in.addr.space, a)) fail(in, "st.async/red.async on local memory");
    const unsigned es = in.size;
    const int loc = env_.locate(in.addr.space, a, es, in);
    Deps bd;
    const uint64_t ba = address(s, tx, bd);
    merge(ad, bd);
    unsigned bsz = 0;
    const int bar = env_.locate_start(tx.addr.space, ba, bsz, tx);
    if (bar < 0) fail(tx, "the mbarrier operand is no location of the test");
    Deps d;
    deps_of(s, in.src[0], d);
    const uint64_t b = val(s, in.src[0]) & wmask(es * 8);
    TraceAsyncOp op;
    op.kind = in.op == IrOp::St ? mm::AsyncOpKind::StAsync : mm::AsyncOpKind::RedAsync;
    op.issued_after = s.po_events;
    const int k = static_cast<int>(s.tr.async_ops.size());
    s.tr.async_ops.push_back(op);
    ++s.pc;  // copy_done steps past the complete_tx
    if (in.op == IrOp::St) {
      mm::Event w = async_event(mm::EventKind::Write, loc, k, mm::Proxy::Generic);
      w.value = b;
      int wid = push(s, std::move(w), s.pc);
      for (int x : ad) s.tr.addr.emplace_back(x, wid);
      for (int x : d) s.tr.data.emplace_back(x, wid);
      s.tr.async_ops[k].mem.push_back(wid);
      return copy_done(std::move(s), in, k, bar, ad);
    }
    const AtomOp aop = static_cast<AtomOp>(in.mode);
    const std::vector<uint64_t>& vals = env_.values(loc);
    for (size_t n = 0; n < vals.size(); ++n) {
      State f = n + 1 < vals.size() ? State(s) : std::move(s);
      const uint64_t v = vals[n] & wmask(es * 8);
      mm::Event r = async_event(mm::EventKind::Read, loc, k, mm::Proxy::Generic);
      r.order = mm::Order::Relaxed;
      r.scope = mm::Scope::Cluster;
      r.reduction = true;
      r.value = v;
      int rid = push(f, std::move(r), f.pc);
      mm::Event w = async_event(mm::EventKind::Write, loc, k, mm::Proxy::Generic);
      w.order = mm::Order::Relaxed;
      w.scope = mm::Scope::Cluster;
      w.reduction = true;
      w.value = arith::atom_apply(aop, in.ety, v, b, 0);
      w.rmw_pair = rid;
      int wid = push(f, std::move(w), f.pc);
      f.tr.events[rid].rmw_pair = wid;
      for (int x : ad) f.tr.addr.emplace_back(x, rid), f.tr.addr.emplace_back(x, wid);
      for (int x : d) f.tr.data.emplace_back(x, wid);
      f.tr.async_ops[k].mem.push_back(rid);
      f.tr.async_ops[k].mem.push_back(wid);
      copy_done(std::move(f), in, k, bar, ad);
    }
  }

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
  void reduce(State s, const Inst& in) {
    Deps ad;
    const uint64_t dst = address(s, in, ad);
    uint64_t src = static_cast<uint64_t>(in.addr2.off);
    if (in.addr2.base == Addr::Reg) {
      src = in.addr2.wrap(src + s.regs[in.addr2.slot]);
      merge(ad, s.deps[in.addr2.slot]);
    }
    const uint64_t size = val(s, in.src[0]);
    deps_of(s, in.src[0], ad);
    const unsigned es = in.size;
    std::vector<Piece> pieces;
    for (uint64_t off = 0; off < size; off += es) {
      unsigned sz = 0, dsz = 0;
      const int sl = env_.locate_start(in.addr2.space, src + off, sz, in);
      const int dl = env_.locate_start(in.addr.space, dst + off, dsz, in);
      if (sl < 0 && dl < 0) continue;
      if (sl < 0 || dl < 0 || sz != es || dsz != es)
        fail(in, "cp.reduce.async.bulk: each element must be a location of the test of the element's size, in the source and "
                 "in the destination");
      pieces.push_back({sl, dl, es});
    }
    if (pieces.empty()) fail(in, "the asynchronous reduction reduces no location of the test");
    int bar = -1;
    if (in.src[1].kind != Opnd::None) {
      deps_of(s, in.src[1], ad);
      unsigned bsz = 0;
      bar = env_.locate_start(Space::Shared, val(s, in.src[1]) + in.src[2].imm, bsz, in);
      if (bar < 0) fail(in, "the mbarrier operand is no location of the test");
    }
    TraceAsyncOp op;
    op.kind = mm::AsyncOpKind::BulkReduce;
    op.issued_after = s.po_events;
    const int k = static_cast<int>(s.tr.async_ops.size());
    s.tr.async_ops.push_back(op);
    reduce_piece(std::move(s), in, k, pieces, 0, bar, ad);
  }

  void reduce_piece(State s, const Inst& in, int k, const std::vector<Piece>& pieces, size_t i, int bar,
                    const Deps& ad) {
    if (i == pieces.size()) return copy_done(std::move(s), in, k, bar, ad);
    const Piece p = pieces[i];
    const AtomOp aop = static_cast<AtomOp>(in.flags);
    const std::vector<uint64_t>& svals = env_.values(p.src);
    const std::vector<uint64_t>& dvals = env_.values(p.dst);
    for (size_t n = 0; n < svals.size() * dvals.size(); ++n) {
      State f = n + 1 < svals.size() * dvals.size() ? State(s) : std::move(s);
      const uint64_t v = svals[n / dvals.size()] & wmask(p.size * 8);
      const uint64_t old = dvals[n % dvals.size()] & wmask(p.size * 8);
      mm::Event r = async_event(mm::EventKind::Read, p.src, k, mm::Proxy::Async);
      r.value = v;
      const int rid = push(f, std::move(r), f.pc);
      mm::Event rd = async_event(mm::EventKind::Read, p.dst, k, mm::Proxy::Async);
      rd.order = mm::Order::Relaxed;
      rd.scope = mm::Scope::GPU;
      rd.reduction = true;
      rd.value = old;
      const int rdid = push(f, std::move(rd), f.pc);
      mm::Event w = async_event(mm::EventKind::Write, p.dst, k, mm::Proxy::Async);
      w.order = mm::Order::Relaxed;
      w.scope = mm::Scope::GPU;
      w.reduction = true;
      w.value = arith::atom_apply(aop, in.ety, old, v, 0);
      w.rmw_pair = rdid;
      const int wid = push(f, std::move(w), f.pc);
      f.tr.events[rdid].rmw_pair = wid;
      for (int x : ad) f.tr.addr.emplace_back(x, rid), f.tr.addr.emplace_back(x, rdid), f.tr.addr.emplace_back(x, wid);
      f.tr.data.emplace_back(rid, wid);
      f.tr.async_ops[k].mem.push_back(rid);
      f.tr.async_ops[k].mem.push_back(rdid);
      f.tr.async_ops[k].mem.push_back(wid);
      reduce_piece(std::move(f), in, k, pieces, i + 1, bar, ad);
    }
  }

  mm::Event async_event(mm::EventKind kind, int loc, int k, mm::Proxy proxy) const {
    mm::Event e;
    e.kind = kind;
    e.order = mm::Order::Weak;  // "treated as a weak memory operation"
    e.loc = loc;
    e.async_op = k;
    e.proxy = proxy;
    return e;
  }

  void copy_piece(State s, const Inst& in, int k, const std::vector<Piece>& pieces, size_t i, int bar,
                  const Deps& ad) {
    if (i == pieces.size()) return copy_done(std::move(s), in, k, bar, ad);
    const Piece p = pieces[i];
    const mm::Proxy proxy = mm::async_op_proxy(s.tr.async_ops[k].kind);
    const std::vector<uint64_t>& vals = env_.values(p.src);
    for (size_t n = 0; n < vals.size(); ++n) {
      State f = n + 1 < vals.size() ? State(s) : std::move(s);
      const uint64_t v = vals[n] & wmask(p.size * 8);
      mm::Event r = async_event(mm::EventKind::Read, p.src, k, proxy);
      r.value = v;
      int rid = push(f, std::move(r), f.pc);
      mm::Event w = async_event(mm::EventKind::Write, p.dst, k, proxy);
      w.value = v;
      int wid = push(f, std::move(w), f.pc);
      for (int x : ad) f.tr.addr.emplace_back(x, rid), f.tr.addr.emplace_back(x, wid);
      f.tr.data.emplace_back(rid, wid);
      f.tr.async_ops[k].mem.push_back(rid);
      f.tr.async_ops[k].mem.push_back(wid);
      copy_piece(std::move(f), in, k, pieces, i + 1, bar, ad);
    }
  }

  void copy_done(State s, const Inst& in, int k, int bar, const Deps& ad) {
    if (mm::async_op_proxy(s.tr.async_ops[k].kind) == mm::Proxy::Async) {
      mm::Event fe;
      fe.kind = mm::EventKind::ProxyFence;
      fe.pfence = mm::ProxyFenceKind::Async;
      fe.async_op = k;
      int fid = push(s, std::move(fe), s.pc);
      s.tr.async_ops[k].fence = fid;
    }
    if (bar < 0) {
      (s.tr.async_ops[k].kind == mm::AsyncOpKind::CpAsync ? s.cp_open : s.bulk_open).push_back(k);
      ++s.pc;
      return step(std::move(s));
    }
    const std::vector<uint64_t>& vals = env_.values(bar);
    for (size_t n = 0; n < vals.size(); ++n) {
      State f = n + 1 < vals.size() ? State(s) : std::move(s);
      mm::Event r = async_event(mm::EventKind::Read, bar, k, mm::Proxy::Generic);
      r.order = mm::Order::Relaxed;
      r.scope = mm::Scope::Cluster;
      r.value = vals[n];
      int rid = push(f, std::move(r), f.pc);
      mm::Event w = async_event(mm::EventKind::Write, bar, k, mm::Proxy::Generic);
      w.order = mm::Order::Release;
      w.scope = mm::Scope::Cluster;
      w.value = vals[n] + 1;
      w.rmw_pair = rid;
      int wid = push(f, std::move(w), f.pc);
      f.tr.events[rid].rmw_pair = wid;
      for (int x : ad) f.tr.addr.emplace_back(x, rid), f.tr.addr.emplace_back(x, wid);
      f.tr.async_ops[k].complete_tx = wid;
      ++f.pc;
      step(std::move(f));
    }
  }

  // Runs from s.pc until the thread ends or a read forks the state.
  void step(State s) {
    while (s.pc < r_.end) {
      if (++steps_ > lim_.max_steps)
        throw LimitError("more than " + std::to_string(lim_.max_steps) + " instructions executed in one thread");
      const Inst& in = prog_.code[s.pc];
      if (head_[s.pc - r_.begin]) s.arrivals[s.pc] = {s.tr.events.size(), s.regs, s.deps};
      if (in.guarded) {
        // The instruction's effect depends on its guard: control dependency.
        merge(s.ctrl, s.deps[in.guard]);
        bool p = s.regs[in.guard] != 0;
        if (p == in.guard_neg) {
          ++s.pc;
          continue;
        }
      }
      switch (in.op) {
        case IrOp::Nop: group_op(s, in); break;
        case IrOp::Mbarrier: mbar_wait(s, in); break;
        case IrOp::BulkCopy:
          if (in.mode == 2) return reduce(std::move(s), in);
          copy(std::move(s), in);
          return;
        case IrOp::CpAsync: copy(std::move(s), in); return;
        case IrOp::Arith: {
          uint64_t src[5] = {0, 0, 0, 0, 0};
          Deps d;
          for (unsigned k = 0; k < in.nsrc; ++k) {
            src[k] = val(s, in.src[k]);
            deps_of(s, in.src[k], d);
          }
          uint64_t aux = 0;
          uint64_t v = in.fn.fn(src, &aux, in.fn.cfg);
          if (in.ndst > 1) put(s, in.dst[1], aux, 64, d);
          put(s, in.dst[0], v, in.dwidth, std::move(d));
          break;
        }
        case IrOp::Mov: {
          Deps d;
          deps_of(s, in.src[0], d);
          put(s, in.dst[0], val(s, in.src[0]), in.dwidth, std::move(d));
          break;
        }
        case IrOp::Pack: {
          unsigned eb = in.size * 8u;
          uint64_t v = 0;
          Deps d;
          for (unsigned k = 0; k < in.nsrc; ++k) {
            v |= (val(s, in.src[k]) & wmask(eb)) << (eb * k);
            deps_of(s, in.src[k], d);
          }
          put(s, in.dst[0], v, in.dwidth, std::move(d));
          break;
        }
        case IrOp::Unpack: {
          unsigned eb = in.size * 8u;
          uint64_t v = val(s, in.src[0]);
          Deps d;
          deps_of(s, in.src[0], d);
          for (unsigned k = 0; k < in.ndst; ++k) put(s, in.dst[k], eb >= 64 ? v : v >> (eb * k), eb, d);
          break;
        }
        case IrOp::Cvta: {
          uint64_t v = val(s, in.src[0]);
          Deps d;
          deps_of(s, in.src[0], d);
          put(s, in.dst[0], in.flags ? Memory::from_generic(in.addr.space, v) : Memory::to_generic(in.addr.space, v),
              in.dwidth, std::move(d));
          break;
        }
        case IrOp::Ld: load(s, in); break;
        case IrOp::St:
        case IrOp::Red:
          if (in.async_tx) {
            async_access(std::move(s), in);
            return;
          }
          if (in.op == IrOp::St) store(s, in);
          else rmw(s, in);
          break;
        case IrOp::Atom: rmw(s, in); break;
        case IrOp::Fence: {
          mm::Event e;
          if (in.flags >= 2) {  // 2 a proxy fence, 3 fence.proxy.async (lower_insn.cpp)
            e.kind = mm::EventKind::ProxyFence;
            e.pfence = in.size == 1 ? mm::ProxyFenceKind::Async : mm::ProxyFenceKind::Other;
            // PTX ISA 9.7.13.4: fence.proxy.async.{global,shared::cta,shared::cluster}
            // orders only accesses to objects in that state space.
            if (in.size == 1)
              e.fspace = in.addr.space == Space::Global ? mm::StateSpace::Global
                       : in.addr.space == Space::Shared || in.addr.space == Space::SharedCluster ? mm::StateSpace::Shared
                       : mm::StateSpace::Any;
          } else {
            e.kind = mm::EventKind::Fence;
            e.order = in.order;
            e.scope = in.scope;
          }
          push(s, std::move(e), s.pc);
          break;
        }
        case IrOp::BarSync:
        case IrOp::BarArrive: {
          mm::Event e;
          e.kind = mm::EventKind::Barrier;
          e.bar = in.op == IrOp::BarSync ? mm::BarrierOp::Sync : mm::BarrierOp::Arrive;
          e.scope = mm::Scope::CTA;
          e.bar_id = static_cast<int>(val(s, in.src[0]));
          e.bar_count = in.src[1].kind != Opnd::None ? static_cast<int>(val(s, in.src[1])) : -1;
          push(s, std::move(e), s.pc);
          break;
        }
        case IrOp::Bra: {
          uint32_t from = s.pc;
          if (in.target <= from) {
            if (subsumed(s, in.target)) {
              ++out_.subsumed;
              return;
            }
            if (++s.back_jumps[from] > lim_.unroll) {
              ++out_.cut;
              return;
            }
          }
          s.pc = in.target;
          continue;
        }
        case IrOp::Exit:
        case IrOp::Ret: finish(s); return;
        default: fail(in, std::string("instruction not supported here (IR ") + op_text(in.op) + ")");
      }
      ++s.pc;
    }
    finish(s);
  }

  const Program& prog_;
  const Function& fn_;
  Range r_;
  const TraceEnv& env_;
  const TraceLimits& lim_;
  std::vector<char> head_;
  std::vector<std::vector<char>> live_;
  uint64_t steps_ = 0;
  ThreadPaths out_;
};

}  // namespace

void trace_check(const Program& prog, uint32_t func) {
  Range r = range_of(prog, func);
  for (uint32_t pc = r.begin; pc < r.end; ++pc) {
    const Inst& in = prog.code[pc];
    if (in.op == IrOp::Unsupported)
      throw InputError(prog.file, SourcePos{in.line, in.col}, "instruction not supported: " + prog.messages[in.target]);
    // The complete_tx of st.async/red.async (mode 8 after the access, lower_sync.cpp)
    // belongs to that instruction; the mbarrier.complete_tx instruction alone is refused.
    const bool async_tx = in.op == IrOp::Mbarrier && in.mode == 8 && pc > r.begin && prog.code[pc - 1].async_tx;
    if (!async_tx && !supported(in))
      throw InputError(prog.file, SourcePos{in.line, in.col},
                       std::string("instruction not supported in a symbolic thread (IR ") + op_text(in.op) + ")");
  }
}

ThreadPaths trace_paths(const Program& prog, uint32_t func, std::vector<uint64_t> regs, const TraceEnv& env,
                        const TraceLimits& lim) {
  trace_check(prog, func);
  return Tracer(prog, func, env, lim).run(std::move(regs));
}

}  // namespace ptxcheck::interp
