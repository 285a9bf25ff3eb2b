// Symbolic execution of one thread of lowered IR (see trace_exec.hpp). The
// register-level instructions are the interpreter's: arithmetic through the
// resolved arith::OpDesc, atom/red through arith::atom_apply, address space
// conversion through Memory.
#include <algorithm>

#include "semantics/interp/trace_exec_impl.hpp"

namespace ptxcheck::interp {
namespace trace_detail {

namespace {

LocalBytes below(const LocalBytes& m, uint64_t sp) { return LocalBytes(m.begin(), m.lower_bound(sp)); }

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
  // The thread's own memory makes no events: a value read back carries the
  // dependencies of the bytes (store_local) and of the address, as the
  // chain address -> store -> rf -> load would carry them through a
  // location only this thread accesses (PTX ISA 8.10.4).
  if (is_local(in.addr.space, a)) {
    for (unsigned k = 0; k < in.ndst; ++k) {
      uint64_t v = 0;
      Deps d = ad;
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
  if (is_local(in.addr.space, a)) {  // the bytes depend on the value and the address (load)
    for (unsigned k = 0; k < in.nsrc; ++k) {
      uint64_t v = val(s, in.src[k]);
      Deps d = ad;
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

using trace_detail::Tracer;

ThreadPaths trace_paths(const Program& prog, uint32_t func, std::vector<uint64_t> regs, const TraceEnv& env,
                        const TraceLimits& lim) {
  trace_check(prog, func);
  return Tracer(prog, func, env, lim).run(std::move(regs));
}

}  // namespace ptxcheck::interp
