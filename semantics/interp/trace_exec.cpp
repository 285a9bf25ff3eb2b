// Symbolic execution of one thread of lowered IR (see trace_exec.hpp). The
// register-level instructions are the interpreter's: arithmetic through the
// resolved arith::OpDesc, atom/red through arith::atom_apply, address space
// conversion through Memory.
#include <algorithm>
#include <bit>

#include "semantics/interp/trace_exec_impl.hpp"
#include "semantics/interp/warp_coll.hpp"

namespace ptxcheck::interp {
namespace trace_detail {

namespace {

bool supported(const Inst& in) {
  switch (in.op) {
    // mbarrier.try_wait / test_wait, and arrive{.expect_tx} / expect_tx /
    // complete_tx on a location initialised as an mbarrier (mbar_update).
    case IrOp::Mbarrier:
      return in.mbar == MbarOp::Wait || in.mbar == MbarOp::WaitParity || in.mbar == MbarOp::Arrive ||
             in.mbar == MbarOp::ExpectTx || in.mbar == MbarOp::CompleteTx;
    case IrOp::BulkCopy: return (in.mode == 0 && in.flags == 0) || in.mode == 2;
    // The deprecated shfl/vote without .sync act on the lanes that happen to
    // execute together (9.7.9.5, 9.7.13.8): not a rendezvous.
    case IrOp::Shfl:
    case IrOp::Vote: return (in.flags & 1) != 0;  // copy, reduce (not multicast / cp_mask)
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
    case IrOp::Call:
    case IrOp::Alloca:
    case IrOp::StackSave:
    case IrOp::StackRestore:
    case IrOp::Fence:
    case IrOp::Cvta:
    case IrOp::Match:
    case IrOp::Redux:
    case IrOp::Elect:
    case IrOp::WarpSync:
    case IrOp::BarSync:
    case IrOp::BarArrive: return true;
    default: return false;
  }
}

const char* op_text(IrOp op) {
  switch (op) {
#define IR_OP(id) \
  case IrOp::id:  \
    return #id;
#include "semantics/interp/ir_ops.def"
#undef IR_OP
  }
  return "?";
}

LocalBytes below(const LocalBytes& m, uint64_t sp) { return LocalBytes(m.begin(), m.lower_bound(sp)); }

Range range_of(const Program& prog, uint32_t func) {
  Range r{prog.funcs[func].entry_pc, static_cast<uint32_t>(prog.code.size())};
  for (const Function& f : prog.funcs)
    if (f.defined && f.entry_pc > r.begin) r.end = std::min(r.end, f.entry_pc);
  return r;
}

// Register slots an instruction reads and writes (a call: its arguments
// and function pointer, and the registers its return values go to, with
// the high half of a .b128 one).
void uses_defs(const Program& prog, const Inst& in, std::vector<uint32_t>& use, std::vector<uint32_t>& def) {
  use.clear();
  def.clear();
  for (unsigned k = 0; k < 4; ++k)
    if (in.src[k].kind == Opnd::Reg) use.push_back(in.src[k].slot);
  if (in.addr.base == Addr::Reg) use.push_back(in.addr.slot);
  if (in.guarded) use.push_back(in.guard);
  for (unsigned k = 0; k < 4; ++k)
    if (in.dst[k].kind == Opnd::Reg) def.push_back(in.dst[k].slot);
  if (in.op != IrOp::Call) return;
  const CallSite& cs = prog.calls[in.target];
  if (cs.fnptr.kind == Opnd::Reg) use.push_back(cs.fnptr.slot);
  for (size_t k = 0; k < cs.args.size(); ++k) {
    const CallArg& a = cs.args[k];
    if (a.in_frame || a.value.kind != Opnd::Reg) continue;
    use.push_back(a.value.slot);
    // The high half of a .b128 argument (Machine::do_call); an indirect
    // call's callee is not known here: both halves then.
    const Function* f = cs.callee == ~0u ? nullptr : &prog.funcs[cs.callee];
    if (!f || (k < f->params.size() && f->params[k].is_reg && f->params[k].width == 128))
      use.push_back(a.value.slot + 1);
  }
  // The return registers are written (not read): not added to `use`, and
  // not killed either (a call that returns fewer values leaves them).
}

}  // namespace

Tracer::Tracer(const Program& prog, uint32_t func, const TraceEnv& env, const TraceLimits& lim)
    : prog_(prog), func_(func), env_(env), lim_(lim) {}

const Tracer::FnTables& Tracer::tables(uint32_t func) {
  auto found = tables_.find(func);
  if (found != tables_.end()) return found->second;
  FnTables& t = tables_[func];
  t.r = range_of(prog_, func);
  const Range r = t.r;
  size_t n = r.end - r.begin, nr = prog_.funcs[func].nregs;
  t.head.assign(n, 0);
  for (uint32_t pc = r.begin; pc < r.end; ++pc) {
    const Inst& in = prog_.code[pc];
    if (in.op == IrOp::Bra && in.target <= pc && in.target >= r.begin) t.head[in.target - r.begin] = 1;
  }
  // Live registers (read before written on some path); all are live where
  // the function ends: the final state reads the thread's, a caller the
  // return values of a called one.
  t.live.assign(n + 1, std::vector<char>(nr, 0));
  std::fill(t.live[n].begin(), t.live[n].end(), 1);
  std::vector<uint32_t> use, def;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = n; i-- > 0;) {
      const Inst& in = prog_.code[r.begin + i];
      std::vector<char> out(nr, 0);
      auto add = [&](size_t succ) {
        for (size_t k = 0; k < nr; ++k) out[k] |= t.live[std::min(succ, n)][k];
      };
      bool ends = in.op == IrOp::Exit || in.op == IrOp::Ret;
      if (ends)
        add(n);
      else if (in.op == IrOp::Bra && !in.guarded)
        add(in.target - r.begin);
      else
        add(i + 1);
      if (in.op == IrOp::Bra && in.guarded) add(in.target - r.begin);
      if (ends && in.guarded) add(i + 1);
      uses_defs(prog_, in, use, def);
      if (!in.guarded)
        for (uint32_t d : def) out[d] = 0;
      for (uint32_t u : use)
        if (u < nr) out[u] = 1;  // (an indirect call names both halves of each register argument)
      if (out != t.live[i]) {
        t.live[i] = std::move(out);
        changed = true;
      }
    }
  }
  return t;
}

int Tracer::push(State& s, mm::Event e, uint32_t pc) {
  int id = static_cast<int>(s.tr.events.size());
  if (e.kind == mm::EventKind::Write) {
    out_.written.emplace_back(e.loc, e.value);
    out_.most_writes = std::max(out_.most_writes, ++s.writes);
  }
  if (e.async_op < 0) ++s.po_events;
  s.tr.events.push_back(std::move(e));
  s.tr.pcs.push_back(pc);
  s.tr.access.push_back(id);
  for (int d : s.ctrl) s.tr.ctrl.emplace_back(d, id);
  return id;
}

void Tracer::finish(State& s) {
  if (out_.traces.size() >= lim_.max_traces)
    throw LimitError("more than " + std::to_string(lim_.max_traces) + " paths in one thread");
  s.tr.regs = s.regs;
  out_.traces.push_back(std::move(s.tr));
}

bool Tracer::subsumed(const State& s, uint32_t head) {
  auto it = s.arrivals.find(head);
  if (it == s.arrivals.end()) return false;
  const State::Arrival& a = it->second;
  for (size_t e = a.events; e < s.tr.events.size(); ++e) {
    const mm::Event& ev = s.tr.events[e];
    if (ev.kind != mm::EventKind::Read || ev.rmw_pair >= 0) return false;
  }
  const FnTables& t = tables(s.func);
  const auto& live = t.live[head - t.r.begin];
  for (size_t r = 0; r < s.regs.size(); ++r)
    if (live[r] && (s.regs[r] != a.regs[r] || s.deps[r] != a.deps[r])) return false;
  // The thread's own memory in use (frames and .local below sp) too.
  return below(s.local, s.sp) == a.local;
}

void Tracer::load(State& s, const Inst& in) {
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
      put(s, in.dst[k], v, reg_width(s, in.dst[k]), std::move(d));
    }
    return;
  }
  if (in.ndst != 1) fail(in, "a vector access to shared memory is not supported here");
  uint32_t span = 0;
  const std::vector<TraceEnv::Piece> ps = env_.pieces(in.addr.space, a, es, in, span);
  uint32_t pc = s.pc;
  auto done = [&, pc](State& f, const std::vector<uint64_t>& vals) {
    uint64_t v = 0;
    Deps ids;
    for (size_t k = 0; k < ps.size(); ++k) {
      mm::Event e = access(in, mm::EventKind::Read, in.order, ps[k].loc);
      e.value = vals[k];
      e.span = span;
      int id = push(f, std::move(e), pc);
      if (k > 0) f.tr.access[id] = ids.front();
      for (int x : ad) f.tr.addr.emplace_back(x, id);
      ids.push_back(id);
      v |= vals[k] << (8 * ps[k].at);
    }
    uint64_t r = sx ? sext(v, es * 8) : v & wmask(es * 8);
    put(f, in.dst[0], r, reg_width(f, in.dst[0]), std::move(ids));
  };
  fork_pieces(s, ps, {}, done);
}

void Tracer::store(State& s, const Inst& in) {
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
  uint32_t span = 0;
  const std::vector<TraceEnv::Piece> ps = env_.pieces(in.addr.space, a, es, in, span);
  const uint64_t v = val(s, in.src[0]) & wmask(es * 8);
  Deps d;
  deps_of(s, in.src[0], d);
  int first = -1;
  for (const TraceEnv::Piece& pc : ps) {
    mm::Event e = access(in, mm::EventKind::Write, in.order, pc.loc);
    e.value = (v >> (8 * pc.at)) & wmask(pc.size * 8);
    e.span = span;
    int id = push(s, std::move(e), s.pc);
    if (first < 0) first = id;
    s.tr.access[id] = first;
    for (int x : ad) s.tr.addr.emplace_back(x, id);
    for (int x : d) s.tr.data.emplace_back(x, id);
  }
}

void Tracer::rmw(State& s, const Inst& in) {
  if (in.size > 8 || (in.op == IrOp::Atom && in.ndst > 1) || (in.op == IrOp::Red && in.nsrc > 1))
    fail(in, "vector and .b128 atomics are not supported here");
  // A packed atomic is one atomic operation per 16-bit half (PTX ISA
  // 9.7.13.5); a litmus location is one whole variable, so its halves
  // cannot be two locations.
  if (in.ety == arith::Ty::f16x2 || in.ety == arith::Ty::bf16x2)
    fail(in, "packed .f16x2/.bf16x2 atomics (one atomic operation per half) are not supported here");
  Deps ad;
  uint64_t a = address(s, in, ad);
  const unsigned es = in.size;
  const AtomOp op = in.atom;
  const uint64_t b = val(s, in.src[0]) & wmask(es * 8);
  const uint64_t c = op == AtomOp::Cas ? val(s, in.src[1]) & wmask(es * 8) : 0;
  Deps d;
  deps_of(s, in.src[0], d);
  if (op == AtomOp::Cas) deps_of(s, in.src[1], d);
  if (is_local(in.addr.space, a)) fail(in, "an atomic on local memory is not supported here");
  uint32_t span = 0;
  const std::vector<TraceEnv::Piece> ps = env_.pieces(in.addr.space, a, es, in, span);
  auto [ro, wo] = split_rmw(in.order);
  uint32_t pc = s.pc;
  // A mixed-size atomic is one read and one write per granule, each pair an
  // atomic operation on its granule (PTX ISA 8.7.2 Atomicity of mixed-size
  // RMW operations orders overlapping atomics on the bytes they share).
  auto done = [&, pc, ro = ro, wo = wo](State& f, const std::vector<uint64_t>& vals) {
    uint64_t v = 0;
    std::vector<int> rids;
    for (size_t k = 0; k < ps.size(); ++k) {
      mm::Event r = access(in, mm::EventKind::Read, ro, ps[k].loc);
      r.value = vals[k];
      r.reduction = in.op == IrOp::Red;
      r.span = span;
      int rid = push(f, std::move(r), pc);
      if (k > 0) f.tr.access[rid] = rids.front();
      for (int x : ad) f.tr.addr.emplace_back(x, rid);
      rids.push_back(rid);
      v |= vals[k] << (8 * ps[k].at);
    }
    v &= wmask(es * 8);
    if (in.op == IrOp::Atom) put(f, in.dst[0], v, 64, Deps(rids.begin(), rids.end()));
    if (op == AtomOp::Cas && v != b) return;  // a failing cas only reads
    const uint64_t nv = arith::atom_apply(op, in.ety, v, b, c);
    int first = -1;
    for (size_t k = 0; k < ps.size(); ++k) {
      mm::Event w = access(in, mm::EventKind::Write, wo, ps[k].loc);
      w.value = (nv >> (8 * ps[k].at)) & wmask(ps[k].size * 8);
      w.reduction = in.op == IrOp::Red;
      w.rmw_pair = rids[k];
      w.span = span;
      int wid = push(f, std::move(w), pc);
      if (first < 0) first = wid;
      f.tr.access[wid] = first;
      f.tr.events[rids[k]].rmw_pair = wid;
      for (int x : ad) f.tr.addr.emplace_back(x, wid);
      for (int x : d) f.tr.data.emplace_back(x, wid);
    }
  };
  fork_pieces(s, ps, {}, done);
}

static const char* coll_section(IrOp op) {
  switch (op) {
    case IrOp::Shfl: return "PTX ISA 9.7.9.6 shfl.sync";
    case IrOp::Vote: return "PTX ISA 9.7.13.9 vote.sync";
    case IrOp::Match: return "PTX ISA 9.7.13.10 match.sync";
    case IrOp::Redux: return "PTX ISA 9.7.13.12 redux.sync";
    case IrOp::Elect: return "PTX ISA 9.7.13.13 elect.sync";
    default: return "PTX ISA 9.7.13.3 bar.warp.sync";
  }
}

bool Tracer::collective(State& s, const Inst& in) {
  const uint32_t L = env_.lane(), n = env_.nlanes();
  const uint32_t lanes = n >= 32 ? ~0u : (1u << n) - 1;
  const Opnd& mo = in.op == IrOp::Shfl                               ? in.src[3]
                   : in.op == IrOp::WarpSync || in.op == IrOp::Elect ? in.src[0]
                                                                     : in.src[1];
  // As the interpreter: membermask bits of lanes the warp lacks are dropped (warp_ops.cpp).
  const uint32_t M = static_cast<uint32_t>(val(s, mo)) & lanes;
  if (!((M >> L) & 1))
    fail(in, "the executing lane " + std::to_string(L) + " is not in the membermask: undefined behaviour (" +
                 coll_section(in.op) + ")");
  TraceColl rec;
  rec.pc = s.pc;
  rec.mask = M;
  rec.lane = L;
  Deps own;
  deps_of(s, mo, own);
  CollOperands op;
  if (in.op != IrOp::WarpSync && in.op != IrOp::Elect) {
    rec.a = op.a[L] = val(s, in.src[0]);
    deps_of(s, in.src[0], rec.a_deps);
    merge(own, rec.a_deps);
  }
  if (in.op == IrOp::Shfl) {
    rec.b = op.b[L] = val(s, in.src[1]);
    rec.c = op.c[L] = val(s, in.src[2]);
    deps_of(s, in.src[1], own);
    deps_of(s, in.src[2], own);
  }
  // The lanes whose operand the result reads, and this collective's index
  // among this thread's collectives with each lane of the mask.
  uint32_t need = 0;
  uint32_t nth[32] = {};
  for (uint32_t b = M & ~(1u << L); b; b &= b - 1) {
    uint32_t w = static_cast<uint32_t>(std::countr_zero(b));
    nth[w] = s.coll_with[w]++;
    if (in.op != IrOp::WarpSync && in.op != IrOp::Elect) out_.coll_given.emplace_back(w, nth[w], rec.a);
  }
  if (in.op == IrOp::Shfl) {
    CollResult r;
    warp_collective_values(in, 1u << L, M, n, op, r);
    if (r.outside)
      fail(in, "shfl.sync reads lane " + std::to_string(r.src[L]) +
                   ", outside the membermask: an undefined value (PTX ISA 9.7.9.6 shfl.sync)");
    if (static_cast<uint32_t>(r.src[L]) != L) need = 1u << r.src[L];
  } else if (in.op != IrOp::WarpSync && in.op != IrOp::Elect) {
    need = M & ~(1u << L);
  }
  const int k = static_cast<int>(s.tr.colls.size());
  out_.most_colls = std::max(out_.most_colls, s.tr.colls.size() + 1);
  if (in.op == IrOp::WarpSync) {
    // PTX ISA 9.7.13.3 bar.warp.sync "guarantees memory ordering among
    // threads participating in barrier": a barrier of those lanes.
    mm::Event e;
    e.kind = mm::EventKind::Barrier;
    e.bar = mm::BarrierOp::Sync;
    e.scope = mm::Scope::CTA;
    e.bar_id = kWarpBarrierId;
    e.value = M;
    push(s, std::move(e), s.pc);
  }
  // The partner operands this path may meet: the product of their sets.
  std::vector<uint32_t> who;
  std::vector<const std::vector<uint64_t>*> sets;
  for (uint32_t b = need; b; b &= b - 1) {
    uint32_t w = static_cast<uint32_t>(std::countr_zero(b));
    const std::vector<uint64_t>* vs = env_.coll_values(w, L, nth[w]);
    if (!vs || vs->empty()) {
      rec.blocked = true;
      s.tr.colls.push_back(std::move(rec));
      finish(s);
      return false;
    }
    who.push_back(w);
    sets.push_back(vs);
  }
  std::set<std::pair<uint64_t, uint64_t>> results;
  std::vector<size_t> at(who.size(), 0);
  for (uint64_t combos = 0;; ++combos) {
    if (combos > lim_.max_traces)
      throw LimitError("more than " + std::to_string(lim_.max_traces) +
                       " operand combinations for one warp collective");
    for (size_t i = 0; i < who.size(); ++i) op.a[who[i]] = (*sets[i])[at[i]];
    CollResult r;
    warp_collective_values(in, M, M, n, op, r);
    results.emplace(r.d0[L], r.d1[L]);
    size_t i = 0;
    for (; i < who.size(); ++i) {
      if (++at[i] < sets[i]->size()) break;
      at[i] = 0;
    }
    if (i == who.size()) break;
  }
  Deps rd = own;
  merge(rd, Deps{-(k + 1)});
  auto apply = [&](State& f, std::pair<uint64_t, uint64_t> res) {
    TraceColl c = rec;
    c.d0 = res.first;
    c.d1 = res.second;
    f.tr.colls.push_back(std::move(c));
    switch (in.op) {
      case IrOp::Shfl:
        put(f, in.dst[0], res.first, reg_width(f, in.dst[0]), rd);
        if (in.ndst > 1) put(f, in.dst[1], res.second, reg_width(f, in.dst[1]), rd);
        break;
      case IrOp::Match:
        if (in.mode == 1 && in.ndst > 1) put(f, in.dst[1], res.second, reg_width(f, in.dst[1]), rd);
        put(f, in.dst[0], res.first, reg_width(f, in.dst[0]), rd);
        break;
      case IrOp::Elect:
        put(f, in.dst[0], res.first, reg_width(f, in.dst[0]), own);
        put(f, in.dst[1], res.second, reg_width(f, in.dst[1]), own);
        break;
      case IrOp::WarpSync: break;
      default: put(f, in.dst[0], res.first, reg_width(f, in.dst[0]), rd); break;
    }
  };
  auto last = std::prev(results.end());
  for (auto it = results.begin(); it != last; ++it) {
    State f = s;
    apply(f, *it);
    ++f.pc;
    step(std::move(f));
  }
  apply(s, *last);
  return true;
}

uint64_t Tracer::read_local(const State& s, uint64_t off, unsigned n, Deps& d) {
  uint64_t v = 0;
  for (unsigned b = 0; b < n && b < 8; ++b) {
    auto it = s.local.find(off + b);
    if (it == s.local.end()) continue;
    v |= uint64_t{it->second.first} << (8 * b);
    merge(d, it->second.second);
  }
  return v;
}

void Tracer::write_local(State& s, uint64_t off, unsigned n, uint64_t v, const Deps& d) {
  for (unsigned b = 0; b < n && b < 8; ++b) s.local[off + b] = {static_cast<uint8_t>(v >> (8 * b)), d};
}

void Tracer::copy_local(State& s, uint64_t to, uint64_t from, unsigned n) {
  if (to == from) return;
  std::vector<std::pair<bool, std::pair<uint8_t, Deps>>> bytes(n);
  for (unsigned b = 0; b < n; ++b) {
    auto it = s.local.find(from + b);
    if (it != s.local.end()) bytes[b] = {true, it->second};
  }
  for (unsigned b = 0; b < n; ++b) {
    if (bytes[b].first)
      s.local[to + b] = std::move(bytes[b].second);
    else
      s.local.erase(to + b);  // not initialised (as Machine::do_call copies the init marks)
  }
}

bool Tracer::call(State& s, const Inst& in) {
  const CallSite& cs = prog_.calls[in.target];
  uint32_t callee = cs.callee;
  if (callee == ~0u) {
    // An indirect call (`call (r), %rd, (a), proto;`): the code that runs
    // depends on the register, a control dependency of what follows.
    const uint64_t a = val(s, cs.fnptr);
    const uint64_t idx = (a - kFuncAddrBase) / 16;
    if (a < kFuncAddrBase || (a - kFuncAddrBase) % 16 || idx >= prog_.funcs.size())
      fail(in, "indirect call through an address that is not a function");
    deps_of(s, cs.fnptr, s.ctrl);
    callee = static_cast<uint32_t>(idx);
  }
  const Function& f = prog_.funcs[callee];
  if (!f.defined) {
    if (cs.builtin_vprintf || f.name == "vprintf" || f.name == "malloc" || f.name == "free")
      fail(in,
           "call to '" + f.name + "': vprintf and the device heap (malloc, free) are not modelled in a litmus thread");
    fail(in, "call to function '" + f.name + "' that has no body (define it with its body before the threads)");
  }
  // PTX ISA 9.7.12.5 call: the lowering checks a direct call against its
  // callee (check_calls in lower.cpp); an indirect call's callee is known
  // only now. The interpreter runs a mismatched indirect call with the
  // formals it lacks at 0; here it is an error.
  if (cs.callee == ~0u && (cs.args.size() != f.params.size() || cs.rets.size() != f.rets.size()))
    fail(in, "indirect call to '" + f.name + "' with " + std::to_string(cs.args.size()) + " argument(s) and " +
                 std::to_string(cs.rets.size()) + " return value(s); it takes " + std::to_string(f.params.size()) +
                 " and returns " + std::to_string(f.rets.size()));
  // Recursion is bounded like a loop: a function may be active at most
  // unroll + 1 times on one path.
  int active = s.func == callee;
  for (const State::Frame& fr : s.frames) active += fr.func == callee;
  if (active > lim_.unroll) {
    ++out_.cut;
    return false;
  }
  if (s.frames.size() >= 1024) fail(in, "call depth limit (1024) exceeded");
  std::vector<uint64_t> regs(f.nregs, 0);
  std::vector<Deps> deps(f.nregs);
  const uint64_t fp = (s.sp + 15) & ~uint64_t{15};
  // Copy the arguments into the callee's formals (PTX ISA 5.1.6.4), as Machine::do_call.
  for (size_t k = 0; k < f.params.size(); ++k) {
    const Formal& fm = f.params[k];
    const CallArg& a = cs.args[k];
    const unsigned n = std::min(8u, fm.size);
    if (a.in_frame) {
      if (fm.is_reg) {
        Deps d;
        regs[fm.slot] = read_local(s, s.fp + a.frame_off, n, d);
        deps[fm.slot] = std::move(d);
      } else {
        copy_local(s, fp + fm.frame_off, s.fp + a.frame_off, fm.size);
      }
    } else {
      const uint64_t v = val(s, a.value);
      Deps d;
      deps_of(s, a.value, d);
      if (fm.is_reg) {
        regs[fm.slot] = v;
        deps[fm.slot] = std::move(d);
      } else {
        write_local(s, fp + fm.frame_off, n, v, d);
      }
    }
    if (fm.is_reg && fm.width == 128) {  // the high half of a .b128 formal
      Deps d;
      uint64_t hi = 0;
      if (a.in_frame) {
        hi = read_local(s, s.fp + a.frame_off + 8, 8, d);
      } else if (a.value.kind == Opnd::Reg) {
        hi = s.regs[a.value.slot + 1];
        d = s.deps[a.value.slot + 1];
      }
      regs[fm.slot + 1] = hi;
      deps[fm.slot + 1] = std::move(d);
    }
  }
  State::Frame fr;
  fr.ret_pc = s.pc + 1;
  fr.call = in.target;
  fr.func = s.func;
  fr.fp = s.fp;
  fr.sp = s.sp;
  fr.regs = std::move(s.regs);
  fr.deps = std::move(s.deps);
  fr.back_jumps = std::move(s.back_jumps);
  fr.arrivals = std::move(s.arrivals);
  s.frames.push_back(std::move(fr));
  s.regs = std::move(regs);
  s.deps = std::move(deps);
  s.back_jumps.clear();
  s.arrivals.clear();
  s.func = callee;
  s.fp = fp;
  s.sp = fp + f.frame_bytes;
  s.pc = f.entry_pc;
  return true;
}

void Tracer::ret(State& s) {
  State::Frame fr = std::move(s.frames.back());
  s.frames.pop_back();
  const Function& f = prog_.funcs[s.func];
  const CallSite& cs = prog_.calls[fr.call];
  for (size_t k = 0; k < f.rets.size() && k < cs.rets.size(); ++k) {
    const Formal& fm = f.rets[k];
    const CallArg& a = cs.rets[k];
    const unsigned n = std::min(8u, fm.size);
    uint64_t v = 0;
    Deps d;
    if (fm.is_reg) {
      v = s.regs[fm.slot];
      d = s.deps[fm.slot];
    } else if (!a.in_frame) {
      v = read_local(s, s.fp + fm.frame_off, n, d);
    }
    if (a.in_frame) {
      if (fm.is_reg)
        write_local(s, fr.fp + a.frame_off, n, v, d);
      else
        copy_local(s, fr.fp + a.frame_off, s.fp + fm.frame_off, fm.size);
    } else if (a.value.kind == Opnd::Reg) {
      fr.regs[a.value.slot] = v;
      fr.deps[a.value.slot] = std::move(d);
    }
    if (fm.is_reg && fm.width == 128) {  // the high half of a .b128 return value
      const uint64_t hi = s.regs[fm.slot + 1];
      if (a.in_frame)
        write_local(s, fr.fp + a.frame_off + 8, 8, hi, s.deps[fm.slot + 1]);
      else if (a.value.kind == Opnd::Reg) {
        fr.regs[a.value.slot + 1] = hi;
        fr.deps[a.value.slot + 1] = s.deps[fm.slot + 1];
      }
    }
  }
  s.regs = std::move(fr.regs);
  s.deps = std::move(fr.deps);
  s.back_jumps = std::move(fr.back_jumps);
  s.arrivals = std::move(fr.arrivals);
  s.func = fr.func;
  s.fp = fr.fp;
  s.sp = fr.sp;
  s.pc = fr.ret_pc;
}

void Tracer::step(State s) {
  while (s.pc < prog_.code.size()) {
    if (++steps_ > lim_.max_steps)
      throw LimitError("more than " + std::to_string(lim_.max_steps) + " instructions executed in one thread");
    const Inst& in = prog_.code[s.pc];
    const FnTables& tab = tables(s.func);
    if (s.pc >= tab.r.begin && s.pc < tab.r.end && tab.head[s.pc - tab.r.begin])
      s.arrivals[s.pc] = {s.tr.events.size(), s.regs, s.deps, below(s.local, s.sp)};
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
      case IrOp::Mbarrier:
        if (in.mbar == MbarOp::Wait || in.mbar == MbarOp::WaitParity) {
          mbar_wait(s, in);
          break;
        }
        return mbar_update(std::move(s), in);
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
      case IrOp::Shfl:
      case IrOp::Vote:
      case IrOp::Match:
      case IrOp::Redux:
      case IrOp::Elect:
      case IrOp::WarpSync:
        if (!collective(s, in)) return;
        break;
      case IrOp::Ld: load(s, in); break;
      case IrOp::St:
      case IrOp::Red:
        if (in.async_tx) {
          async_access(std::move(s), in);
          return;
        }
        if (in.op == IrOp::St)
          store(s, in);
        else
          rmw(s, in);
        break;
      case IrOp::Atom: rmw(s, in); break;
      case IrOp::Fence: {
        mm::Event e;
        if (in.fence == FenceKind::Proxy || in.fence == FenceKind::ProxyAsync) {
          e.kind = mm::EventKind::ProxyFence;
          e.pfence = in.fence == FenceKind::ProxyAsync ? mm::ProxyFenceKind::Async : mm::ProxyFenceKind::Other;
          // PTX ISA 9.7.13.4: fence.proxy.async.{global,shared::cta,shared::cluster}
          // orders only accesses to objects in that state space.
          if (in.fence == FenceKind::ProxyAsync)
            e.fspace = in.addr.space == Space::Global ? mm::StateSpace::Global
                       : in.addr.space == Space::Shared || in.addr.space == Space::SharedCluster
                           ? mm::StateSpace::Shared
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
      case IrOp::Call:
        if (!call(s, in)) return;
        continue;
      case IrOp::Ret:
        if (s.frames.empty()) {
          finish(s);
          return;
        }
        ret(s);
        continue;
      case IrOp::Exit: finish(s); return;
      // alloca, stacksave, stackrestore (PTX ISA Stack Manipulation Instructions): the stack pointer
      // of the thread's own memory, as the interpreter moves it (exec.cpp).
      case IrOp::Alloca: {
        uint64_t sz = val(s, in.src[0]), al = std::max<uint64_t>(1, val(s, in.src[1]));
        uint64_t p = (s.sp + al - 1) / al * al;
        if (p + sz > (1u << 20)) fail(in, "alloca exceeds the 1 MiB per-thread stack");
        s.sp = p + sz;
        Deps d;
        deps_of(s, in.src[0], d);
        deps_of(s, in.src[1], d);
        put(s, in.dst[0], p, in.dwidth, std::move(d));
        break;
      }
      case IrOp::StackSave: put(s, in.dst[0], s.sp, in.dwidth, {}); break;
      case IrOp::StackRestore: s.sp = val(s, in.src[0]) & 0xffff'ffffull; break;
      default: fail(in, std::string("instruction not supported here (IR ") + op_text(in.op) + ")");
    }
    ++s.pc;
  }
  finish(s);
}

}  // namespace trace_detail

namespace {

// Why a form of an operation that a symbolic thread runs in other forms is refused.
const char* form_limit(IrOp op) {
  switch (op) {
    case IrOp::Mbarrier:
      return "mbarrier.init, inval, arrive_drop and pending_count are not modelled: a litmus mbarrier is "
             "initialised by its location's initial value";
    case IrOp::BulkCopy: return "cp.async.bulk .multicast::cluster and .cp_mask are not modelled";
    case IrOp::CpAsync: return "cp.async with src-size or ignore-src is not modelled";
    case IrOp::Shfl:
    case IrOp::Vote:
      return "the deprecated shfl and vote without .sync act on the lanes that happen to run converged, a "
             "scheduling choice the litmus model does not make";
    default: return nullptr;
  }
}

}  // namespace

const char* trace_limit(IrOp op) {
  switch (op) {
    case IrOp::BrxIdx: return "brx.idx needs a .branchtargets directive, which a litmus thread body cannot declare";
    case IrOp::Trap: return "trap aborts the whole launch: no final state to list";
    case IrOp::BarRed:
      return "bar.red exchanges values among the threads of a CTA at a barrier; only warp collectives exchange values";
    case IrOp::ClusterArrive:
    case IrOp::ClusterWait: return "barrier.cluster: the model's barriers are CTA barriers";
    case IrOp::Activemask:
      return "activemask is the set of lanes that happen to run converged, a scheduling choice the litmus model does "
             "not make";
    case IrOp::Isspacep:
    case IrOp::Mapa:
    case IrOp::Getctarank:
      return "isspacep, mapa and getctarank read the launch's address windows and cluster layout, which a litmus "
             "test does not have";
    case IrOp::StBulk: return "st.bulk fills a byte range; the bytes between a test's locations are not modelled";
    case IrOp::Mma:
      return "matrix instructions move fragments among the lanes of a warp and access memory for the whole warp; "
             "their accesses are not modelled as events";
    case IrOp::Tensor: return "tensor copies need a tensor map in memory, which a litmus test does not have";
    case IrOp::Tex:
      return "texture and surface instructions need a bound resource; a litmus test models the texture and surface "
             "proxies with `via texture`/`via surface` locations";
    case IrOp::Unsupported: return "the interpreter does not run it either";
    default: return nullptr;
  }
}

using trace_detail::op_text;
using trace_detail::Range;
using trace_detail::range_of;
using trace_detail::supported;
using trace_detail::Tracer;

namespace {

void check_function(const Program& prog, uint32_t func) {
  Range r = range_of(prog, func);
  for (uint32_t pc = r.begin; pc < r.end; ++pc) {
    const Inst& in = prog.code[pc];
    if (in.op == IrOp::Unsupported)
      throw InputError(prog.file, SourcePos{in.line, in.col}, "instruction not supported: " + prog.messages[in.target]);
    // The complete_tx of st.async/red.async (MbarOp::CompleteTx after the access, lower_sync.cpp)
    // belongs to that instruction; the mbarrier.complete_tx instruction alone is refused.
    const bool async_tx =
        in.op == IrOp::Mbarrier && in.mbar == MbarOp::CompleteTx && pc > r.begin && prog.code[pc - 1].async_tx;
    if (!async_tx && !supported(in)) {
      const char* why = trace_limit(in.op);
      if (!why) why = form_limit(in.op);
      throw InputError(prog.file, SourcePos{in.line, in.col},
                       std::string("instruction not supported in a symbolic thread (IR ") + op_text(in.op) + ")" +
                           (why ? std::string(": ") + why : std::string()));
    }
  }
}

}  // namespace

void trace_check(const Program& prog, uint32_t func) {
  // The function and every function it may call: direct callees, and with
  // an indirect call every defined function.
  std::vector<char> seen(prog.funcs.size(), 0);
  std::vector<uint32_t> todo{func};
  seen[func] = 1;
  while (!todo.empty()) {
    const uint32_t f = todo.back();
    todo.pop_back();
    check_function(prog, f);
    const Range r = range_of(prog, f);
    for (uint32_t pc = r.begin; pc < r.end; ++pc) {
      const Inst& in = prog.code[pc];
      if (in.op != IrOp::Call) continue;
      const uint32_t c = prog.calls[in.target].callee;
      for (uint32_t g = 0; g < prog.funcs.size(); ++g)
        if ((c == ~0u || c == g) && prog.funcs[g].defined && !seen[g]) {
          seen[g] = 1;
          todo.push_back(g);
        }
    }
  }
}

ThreadPaths trace_paths(const Program& prog, uint32_t func, std::vector<uint64_t> regs, const TraceEnv& env,
                        const TraceLimits& lim) {
  trace_check(prog, func);
  return Tracer(prog, func, env, lim).run(std::move(regs));
}

}  // namespace ptxcheck::interp
