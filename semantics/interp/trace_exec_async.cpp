// Asynchronous operations in a symbolic thread (trace_exec_impl.hpp): the
// bulk and cp.async groups (commit/wait_group), mbarrier.test_wait/try_wait,
// the cp.async / cp.async.bulk copies and st.async/red.async, which run
// outside program order (PTX ISA 8.9.1.1 Asynchronous operations).
#include "semantics/interp/trace_exec_impl.hpp"

namespace ptxcheck::interp::trace_detail {

namespace {
// The value of a litmus mbarrier location (docs/litmus-format.md): bits
// 0-15 count the completed phases; bits 16-31 hold the pending arrivals of
// the current phase, 32-47 the expected arrival count, 48-63 the tx-count
// (two's complement). An expected count of 0 is the plain phase counter of
// a test that never initialises the object: each complete-tx completes one
// phase. Otherwise (PTX ISA 9.7.13.15.5-6): an arrive decrements the
// pending count, expect-tx raises the tx-count, complete-tx lowers it, and
// the phase completes when "The count of the pending arrivals has reached
// zero" and "The tx-count has reached zero"; the next phase starts with the
// expected count.
uint64_t mbar_next(uint64_t v, uint64_t arrivals, int64_t tx) {
  const uint64_t expected = (v >> 32) & 0xffff;
  if (!expected) return v + 1;
  uint64_t phases = v & 0xffff, pending = ((v >> 16) & 0xffff) - arrivals;
  int64_t count = static_cast<int16_t>(v >> 48) + tx;
  pending &= 0xffff;
  if (pending == 0 && count == 0) {
    phases = (phases + 1) & 0xffff;
    pending = expected;
  }
  return phases | pending << 16 | expected << 32 | (static_cast<uint64_t>(count) & 0xffff) << 48;
}
}  // namespace

void Tracer::group_op(State& s, const Inst& in) {
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

void Tracer::mbar_wait(State& s, const Inst& in) {
  Deps ad;
  uint64_t a = address(s, in, ad);
  unsigned bsz = 0;  // an mbarrier location of any size (Dat3M's are 4 bytes)
  int loc = env_.locate_start(in.addr.space, a, bsz, in);
  if (loc < 0) fail(in, "the mbarrier operand is no location of the test");
  const uint64_t arg = val(s, in.src[0]);
  Deps d;
  deps_of(s, in.src[0], d);
  const bool parity = in.mbar == MbarOp::WaitParity;
  uint32_t pc = s.pc;
  fork_read(s, loc, [&, pc](State& f, uint64_t v) {
    mm::Event e = access(in, mm::EventKind::Read, in.order, loc);
    e.value = v;
    int id = push(f, std::move(e), pc);
    for (int x : ad) f.tr.addr.emplace_back(x, id);
    const uint64_t phases = v & 0xffff;  // completed phases (mbar_next)
    const bool done = parity ? phases >= 1 && ((phases - 1) & 1) == (arg & 1) : phases > arg;
    Deps pd = d;
    merge(pd, Deps{id});
    put(f, in.dst[0], done ? 1 : 0, reg_width(f, in.dst[0]), std::move(pd));
  });
}

void Tracer::mbar_update(State s, const Inst& in) {
  Deps ad;
  const uint64_t a = address(s, in, ad);
  unsigned bsz = 0;
  const int loc = env_.locate_start(in.addr.space, a, bsz, in);
  if (loc < 0) fail(in, "the mbarrier operand is no location of the test");
  if (!((env_.values(loc).front() >> 32) & 0xffff))
    fail(in,
         "mbarrier.arrive/expect_tx/complete_tx need an mbarrier location whose initial value sets an expected "
         "arrival count (bits 32-47; docs/litmus-format.md)");
  const uint64_t n = val(s, in.src[0]);
  Deps d;
  deps_of(s, in.src[0], d);
  // arrive: `count` arrivals (1 by default), or one arrival after adding
  // txCount (.expect_tx); expect_tx / complete_tx: +/- txCount.
  const uint64_t arrivals = in.mbar == MbarOp::Arrive ? (in.expect_tx ? 1 : n) : 0;
  const int64_t tx = in.mbar == MbarOp::CompleteTx                 ? -static_cast<int64_t>(n)
                     : in.mbar == MbarOp::ExpectTx || in.expect_tx ? static_cast<int64_t>(n)
                                                                   : 0;
  // expect_tx and complete_tx are .relaxed (their only .sem); arrive has
  // the instruction's order, .release by default.
  const mm::Order wo = in.mbar == MbarOp::Arrive ? in.order : mm::Order::Relaxed;
  const uint32_t pc = s.pc;
  fork_read(s, loc, [&, pc](State& f, uint64_t v) {
    mm::Event r = access(in, mm::EventKind::Read, mm::Order::Relaxed, loc);
    r.value = v;
    const int rid = push(f, std::move(r), pc);
    mm::Event w = access(in, mm::EventKind::Write, wo, loc);
    w.value = mbar_next(v, arrivals, tx);
    w.rmw_pair = rid;
    const int wid = push(f, std::move(w), pc);
    f.tr.events[rid].rmw_pair = wid;
    for (int x : ad) f.tr.addr.emplace_back(x, rid), f.tr.addr.emplace_back(x, wid);
    for (int x : d) f.tr.data.emplace_back(x, wid);
    // arrive's state: the completed-phase count before it (test_wait with
    // it returns True once that phase has completed).
    if (in.mbar == MbarOp::Arrive && in.ndst) put(f, in.dst[0], v & 0xffff, 64, Deps{rid});
  });
  ++s.pc;
  step(std::move(s));
}

void Tracer::copy_operands(const State& s, const Inst& in, uint64_t& dst, uint64_t& src, uint64_t& size,
                           Deps& ad) const {
  dst = address(s, in, ad);
  src = static_cast<uint64_t>(in.addr2.off);
  if (in.addr2.base == Addr::Reg) {
    src = in.addr2.wrap(src + s.regs[in.addr2.slot]);
    merge(ad, s.deps[in.addr2.slot]);
  }
  size = val(s, in.src[0]);
  deps_of(s, in.src[0], ad);
}

int Tracer::bulk_mbarrier(const State& s, const Inst& in, Deps& ad) const {
  if (in.src[1].kind == Opnd::None) return -1;
  deps_of(s, in.src[1], ad);
  unsigned bsz = 0;
  const int bar = env_.locate_start(Space::Shared, val(s, in.src[1]) + in.src[2].imm, bsz, in);
  if (bar < 0) fail(in, "the mbarrier operand is no location of the test");
  return bar;
}

int Tracer::start_async(State& s, mm::AsyncOpKind kind) {
  TraceAsyncOp op;
  op.kind = kind;
  op.issued_after = s.po_events;
  s.tr.async_ops.push_back(op);
  return static_cast<int>(s.tr.async_ops.size()) - 1;
}

void Tracer::copy(State s, const Inst& in) {
  const bool bulk = in.op == IrOp::BulkCopy;
  Deps ad;
  uint64_t dst = 0, src = 0, size = 0;
  copy_operands(s, in, dst, src, size, ad);
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
  const int bar = bulk ? bulk_mbarrier(s, in, ad) : -1;
  const int k = start_async(s, bulk ? mm::AsyncOpKind::Bulk : mm::AsyncOpKind::CpAsync);
  copy_piece(std::move(s), in, k, pieces, 0, bar, ad);
}

void Tracer::async_access(State s, const Inst& in) {
  if (s.pc + 1 >= prog_.code.size() || prog_.code[s.pc + 1].op != IrOp::Mbarrier ||
      prog_.code[s.pc + 1].mbar != MbarOp::CompleteTx)
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
  const int k = start_async(s, in.op == IrOp::St ? mm::AsyncOpKind::StAsync : mm::AsyncOpKind::RedAsync);
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
  const AtomOp aop = in.atom;
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

void Tracer::reduce(State s, const Inst& in) {
  Deps ad;
  uint64_t dst = 0, src = 0, size = 0;
  copy_operands(s, in, dst, src, size, ad);
  const unsigned es = in.size;
  std::vector<Piece> pieces;
  for (uint64_t off = 0; off < size; off += es) {
    unsigned sz = 0, dsz = 0;
    const int sl = env_.locate_start(in.addr2.space, src + off, sz, in);
    const int dl = env_.locate_start(in.addr.space, dst + off, dsz, in);
    if (sl < 0 && dl < 0) continue;
    if (sl < 0 || dl < 0 || sz != es || dsz != es)
      fail(in,
           "cp.reduce.async.bulk: each element must be a location of the test of the element's size, in the source and "
           "in the destination");
    pieces.push_back({sl, dl, es});
  }
  if (pieces.empty()) fail(in, "the asynchronous reduction reduces no location of the test");
  const int bar = bulk_mbarrier(s, in, ad);
  const int k = start_async(s, mm::AsyncOpKind::BulkReduce);
  reduce_piece(std::move(s), in, k, pieces, 0, bar, ad);
}

void Tracer::reduce_piece(State s, const Inst& in, int k, const std::vector<Piece>& pieces, size_t i, int bar,
                          const Deps& ad) {
  if (i == pieces.size()) return copy_done(std::move(s), in, k, bar, ad);
  const Piece p = pieces[i];
  const AtomOp aop = in.atom;
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

mm::Event Tracer::async_event(mm::EventKind kind, int loc, int k, mm::Proxy proxy) const {
  mm::Event e;
  e.kind = kind;
  e.order = mm::Order::Weak;  // "treated as a weak memory operation"
  e.loc = loc;
  e.async_op = k;
  e.proxy = proxy;
  return e;
}

void Tracer::copy_piece(State s, const Inst& in, int k, const std::vector<Piece>& pieces, size_t i, int bar,
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

void Tracer::copy_done(State s, const Inst& in, int k, int bar, const Deps& ad) {
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
  // The complete-tx counts the operation's bytes: a copy's size operand,
  // st.async/red.async their access size.
  const int64_t bytes = in.op == IrOp::BulkCopy ? static_cast<int64_t>(val(s, in.src[0])) : in.size;
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
    w.value = mbar_next(vals[n], 0, -bytes);
    w.rmw_pair = rid;
    int wid = push(f, std::move(w), f.pc);
    f.tr.events[rid].rmw_pair = wid;
    for (int x : ad) f.tr.addr.emplace_back(x, rid), f.tr.addr.emplace_back(x, wid);
    f.tr.async_ops[k].complete_tx = wid;
    ++f.pc;
    step(std::move(f));
  }
}

}  // namespace ptxcheck::interp::trace_detail
