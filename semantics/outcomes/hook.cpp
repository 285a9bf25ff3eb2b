// The ExecHook of `ptxcheck outcomes` (hook_impl.hpp, explore.hpp).
#include <algorithm>
#include <bit>
#include <cstring>
#include <iterator>

#include "parser/diagnostic.hpp"
#include "semantics/interp/tma.hpp"
#include "semantics/outcomes/hook_impl.hpp"

namespace ptxcheck::outcomes {

using interp::HookAccess;
using interp::HookKind;
using interp::Inst;
using interp::IrOp;

namespace {

// PTX ISA 8.4: an RMW's read half carries the acquire part of its order and
// its write half the release part (as semantics/litmus splits them).
std::pair<mm::Order, mm::Order> split_rmw(mm::Order o) {
  switch (o) {
    case mm::Order::AcqRel: return {mm::Order::Acquire, mm::Order::Release};
    case mm::Order::Acquire: return {mm::Order::Acquire, mm::Order::Relaxed};
    case mm::Order::Release: return {mm::Order::Relaxed, mm::Order::Release};
    case mm::Order::SC: return {mm::Order::Acquire, mm::Order::Release};
    default: return {o, o};
  }
}

}  // namespace

std::string Shared::loc_name(uint64_t key) const {
  if (key & kClusterBarKey && !(key & interp::kHookSharedKey)) {  // hook_barrier.cpp: by cluster (rank 0's uid)
    const uint64_t cl = (key >> 32) & 0x3fffffff;
    return "barrier.cluster" + (cl ? "[cta " + std::to_string(cl) + "]" : std::string()) + "#" +
           std::to_string((key & 0xffffffff) >> 3);
  }
  if (key & interp::kHookSharedKey) {
    uint64_t cta = (key >> 32) & 0x3fffffff, off = key & 0xffffffff;
    return "shared[cta " + std::to_string(cta) + "]+" + std::to_string(off);
  }
  for (const Alloc& a : allocs)
    if (key >= a.base && key < a.base + a.bytes.size()) {
      uint64_t off = key - a.base;
      if (off % a.elem == 0) return a.name + "[" + std::to_string(off / a.elem) + "]";
      return a.name + "+" + std::to_string(off);
    }
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(key));
  return buf;
}

// PTX ISA 8.2.6: the initial value of a location is what the launch put
// there (the spec's buffers, the module's .global data); shared memory has
// no initial value and reads as 0 in the interpreter.
uint64_t Shared::initial(uint64_t key, unsigned size) const {
  if (key & (interp::kHookSharedKey | kClusterBarKey)) return 0;
  for (const Alloc& a : allocs)
    if (key >= a.base && key + size <= a.base + a.bytes.size()) {
      uint64_t v = 0;
      std::memcpy(&v, &a.bytes[key - a.base], std::min(size, 8u));
      return v;
    }
  return 0;
}

int Shared::promote(uint64_t key, unsigned size, uint32_t line) {
  auto it = loc_at.find(key);
  if (it != loc_at.end() && locs[it->second].size == size) return it->second;
  for (uint64_t b = key; b < key + size; ++b)
    if (comm_byte.count(b))
      throw LimitError("accesses of different sizes overlap at " + loc_name(key) + " (PTX line " +
                       std::to_string(line) + "): mixed-size communicating accesses are not supported");
  CommLoc l;
  l.key = key;
  l.size = size;
  l.name = loc_name(key);
  l.init = initial(key, size);
  l.values = {l.init};
  int idx = static_cast<int>(locs.size());
  locs.push_back(std::move(l));
  loc_at[key] = idx;
  for (uint64_t b = key; b < key + size; ++b) comm_byte[b] = idx;
  return idx;
}

const std::vector<uint32_t>& Shared::chain_of(int li, uint64_t v) const {
  static const std::vector<uint32_t> none;
  const CommLoc& l = locs[static_cast<size_t>(li)];
  if (v == l.init) return none;
  auto it = l.chain.find(v);
  return it == l.chain.end() ? none : it->second;
}

Hook::Hook(Shared& sh, uint32_t nthreads) : sh_(sh), nthreads_(nthreads) { th.resize(nthreads); }

ThreadRec& Hook::rec(const interp::Thread& t, const interp::Cta& c) {
  if (t.gid >= th.size()) th.resize(t.gid + 1);
  ThreadRec& r = th[t.gid];
  r.t = &t;
  if (!r.seen) {
    r.seen = true;
    r.cta = c.id;
    r.tid = t.tid;
    r.cta_uid = c.uid;
    r.cluster = c.cluster_uid;  // rank 0's uid: a cluster's CTAs need not be consecutive (cluster (1,2,1))
    r.rank = c.rank;
    r.warp = t.lin / 32;
    r.vc.assign(nthreads_, 0);
    if (t.gid < r.vc.size()) r.vc[t.gid] = 1;
  }
  return r;
}

uint32_t Hook::choose(uint32_t n, uint32_t unit) {
  if (n <= 1) return 0;
  Shared::Path& p = sh_.path[unit];
  size_t& d = sh_.depth[unit];
  if (d < p.size()) return p[d++].first;
  p.emplace_back(0, n);
  ++d;
  return 0;
}

bool Hook::ordered(const ThreadRec& b, uint32_t a_gid, uint32_t a_epoch) const {
  return a_gid < b.vc.size() && b.vc[a_gid] >= a_epoch;
}

void Hook::warp_collective(const interp::Cta& c, uint32_t warp, uint32_t lanes, bool orders) {
  colls[{c.uid, warp}].push_back(lanes | (orders ? kCollOrders : 0));
  if (!orders) return;
  // bar.warp.sync (PTX ISA 9.7.13.3) "guarantees memory ordering among
  // threads participating in barrier": a barrier of the lanes `lanes`,
  // one instance, every lane arriving and waiting (8.9.4 item 2, as for
  // bar.sync), as semantics/interp/trace_exec.cpp models it for litmus
  // threads. Each lane's event is labelled with its own instruction (a lane
  // may join from another bar.warp.sync with the same membermask).
  const int inst = ++bar_inst_;
  std::vector<uint32_t> join(nthreads_, 0);
  std::vector<ThreadRec*> part;
  bool sync_in = false;  // hook_canon.cpp (e)
  for (uint32_t b = lanes; b; b &= b - 1) {
    const size_t idx = size_t{warp} * 32 + static_cast<size_t>(std::countr_zero(b));
    if (idx >= c.threads.size()) continue;
    const interp::Thread& t = c.threads[idx];
    ThreadRec& r = rec(t, c);
    ++r.side;
    mm::Event e;
    e.kind = mm::EventKind::Barrier;
    e.bar = mm::BarrierOp::Sync;
    e.scope = mm::Scope::CTA;
    e.bar_id = inst;
    push(r, std::move(e), t.pc < sh_.prog->code.size() ? &sh_.prog->code[t.pc] : nullptr);
    for (size_t k = 0; k < join.size(); ++k) join[k] = std::max(join[k], r.vc[k]);
    sync_in = sync_in || r.sync_in;
    ++r.vc[t.gid];
    part.push_back(&r);
  }
  for (ThreadRec* r : part) {
    for (size_t k = 0; k < join.size(); ++k) r->vc[k] = std::max(r->vc[k], join[k]);
    r->sync_in = r->sync_in || sync_in;
  }
}

unsigned Hook::element(ThreadRec& r, bool write) {
  if (r.counted != serial_) {
    r.counted = serial_;
    r.cur_reads = r.cur_writes = 0;
  }
  return write ? r.cur_writes++ : r.cur_reads++;
}

const Deps& Hook::addr_deps(const ThreadRec& r) const {
  static const Deps none;
  return r.snap == serial_ ? r.cur_addr : none;
}

void Hook::add_deps(ThreadRec& r, int id, const Deps& addr, const Deps* data) {
  for (int d : addr) r.dep_addr.emplace_back(d, id);
  if (data)
    for (int d : *data) r.dep_data.emplace_back(d, id);
}

int Hook::push(ThreadRec& r, mm::Event e, const Inst* in) {
  e.thread = static_cast<int>(r.t->gid);  // renumbered when the skeleton is built
  EventSource s;
  s.cta = r.cta;
  s.tid = r.t->tid;
  s.cta_uid = r.cta_uid;
  s.warp = r.warp;
  s.lane = r.t->lin % 32;
  if (auto it = colls.find({r.cta_uid, r.warp}); it != colls.end())
    s.coll_seq = static_cast<uint32_t>(it->second.size());
  if (in) {
    s.line = in->line;
    s.col = in->col;
    if (in->line >= 1 && in->line <= sh_.ptx_lines.size()) s.text = sh_.ptx_lines[in->line - 1];
  }
  e.label = s.text;
  r.last_in = in;
  r.events.push_back(std::move(e));
  r.src.push_back(std::move(s));
  const int id = static_cast<int>(r.events.size()) - 1;
  for (int d : r.ctrl_on) r.dep_ctrl.emplace_back(d, id);
  // A run's events and control edges are what grows without bound in one
  // launch (a spin whose iterations are not dropped adds an event per
  // iteration, and an edge from each earlier read its exit depended on).
  if (sh_.mem) sh_.mem->tick(1 + r.ctrl_on.size());
  return id;
}

int Hook::comm_loc(const HookAccess& a) {
  bool any = false;
  for (uint64_t b = a.key; b < a.key + a.size && !any; ++b) any = sh_.comm_byte.count(b) > 0;
  if (!any) return -1;
  auto it = sh_.loc_at.find(a.key);
  if (it != sh_.loc_at.end() && sh_.locs[it->second].size == a.size) return it->second;
  return sh_.promote(a.key, a.size, a.in ? a.in->line : 0);  // throws: mixed sizes
}

bool Hook::exch_any(const interp::Thread& t, const HookAccess& a) {
  const Inst& in = *a.in;
  if (a.kind != HookKind::RmwRead || in.op != IrOp::Atom || in.atom != arith::AtomOp::Exch || in.ndst > 1) return false;
  if (in.dst[0].kind != interp::Opnd::Reg) return true;
  // Dead at once, or (-Xcicc -O0 / -G: atomicExch is a call) only moved up
  // through the .param return values of its wrappers to a dead register
  // (Hook::result_unused, as for commuting updates).
  const uint32_t pc = static_cast<uint32_t>(a.in - sh_.prog->code.data());
  return result_unused(t, t.func, pc + 1, in.dst[0].slot, t.frames.size());
}

bool Hook::read(interp::Thread& t, const interp::Cta& c, const HookAccess& a, uint64_t& v) {
  ThreadRec& r = rec(t, c);
  const unsigned elem = element(r, false);
  int li = comm_loc(a);
  if (li >= 0 && a.in && a.in->op == IrOp::Mbarrier && !mbar_loc(li)) return false;
  if (a.async) return async_read(r, c, a, li, v);
  if (li < 0 && !r.async.empty() && !async_conflict(r, a, a.kind != HookKind::Load)) return false;
  if (li < 0) {
    const int64_t rmw = commuting_rmw(t, r, a);
    if (!det_access(r, a, false, rmw)) return false;
    if (rmw >= 0)  // the operand, as Machine::exec_atom reads it
      r.exempt_b = a.in->src[0].kind == interp::Opnd::Imm ? a.in->src[0].imm : t.regs[t.reg_base + a.in->src[0].slot];
    r.det_reads.emplace_back(a.key, a.size);
    r.det_read_pcs.push_back(static_cast<uint32_t>(a.in - sh_.prog->code.data()));
    if (a.kind == HookKind::RmwRead) r.pending_rmw = -2, r.det_rmw_value = v;  // deterministic RMW: no events
    // A plain load of bytes this thread wrote last (a location only it
    // accesses, or accesses in order): the value carries the dependencies
    // its store gave them (Hook::write), as through .local (Hook::step).
    if (r.tracking && a.kind == HookKind::Load && a.in->op == IrOp::Ld) {
      Deps d = addr_deps(r);
      for (uint64_t b = a.key; b < a.key + a.size; ++b)
        if (auto it = r.gdeps.find(b); it != r.gdeps.end() && shadow_[b].w_gid == static_cast<int>(t.gid))
          merge(d, it->second);
      unsigned n = 0;
      for (unsigned k = 0; k < 4; ++k)
        if (a.in->dst[k].kind == interp::Opnd::Reg && n++ == elem) {
          if (r.rdeps.size() < t.regs.size()) r.rdeps.resize(t.regs.size());
          if (t.reg_base + a.in->dst[k].slot < r.rdeps.size()) r.rdeps[t.reg_base + a.in->dst[k].slot] = std::move(d);
          break;
        }
    }
    return true;
  }
  // A poll of a grid counter: its event waits until the loop is left (hook_grid.cpp).
  if (const int g = grid_read(r, t, c, a, li, v); g != 0) return g > 0;
  // hook_round.cpp (r0): a load of a grid counter under rounds that is no
  // poll would choose among the values of the machine's order only.
  if (a.kind == HookKind::Load && round_on(li)) return round_break(li);
  CommLoc& l = sh_.locs[static_cast<size_t>(li)];
  const Inst& in0 = *a.in;
  const uint32_t pc = static_cast<uint32_t>(a.in - sh_.prog->code.data());
  // The read half of atom.exch writes a value that does not depend on what
  // it reads; if its result register is dead, no value needs choosing (the
  // memory model still gives it a write to read from, of any value).
  const bool any = exch_any(t, a);
  bool lazy = false;
  // An update that Hook::rmw_wait let run reads the machine's value, the
  // latest write of the location executed (hook_chain.cpp).
  bool chain = a.kind == HookKind::RmwRead && r.chain_li == li;
  if (!chain) r.chain_li = -1;
  // A plain read after every write of an update chain so far reads the
  // machine's value too (hook_chain.cpp (d)).
  const bool tail = a.kind == HookKind::Load && in0.op == IrOp::Ld && chain_tail(r, li);
  if (tail) chain = true;
  // A plain read ordered after every write so far (hook_latest.cpp).
  const bool latest = !chain && !any && a.kind == HookKind::Load && in0.op == IrOp::Ld && latest_read(r, a, li, pc);
  // The CAS of a CAS retry loop: a failure drops the thread at its
  // backward jump (hook_cas.cpp).
  if (chain && a.kind == HookKind::RmwRead && in0.op == IrOp::Atom && in0.atom == arith::AtomOp::Cas &&
      !cas_read(r, t, a, li, v))
    return false;
  // The read half of an mbarrier.arrive whose order nothing observes reads
  // the machine's memory (hook_canon.cpp).
  bool canon = false;
  if (a.kind == HookKind::RmwRead && in0.op == IrOp::Mbarrier) {
    const int k = canon_arrive(r, t, c, a, li, v);
    if (k < 0) return false;
    canon = k > 0;
  }
  // A blocking wait reads the machine's value; when it fails, the thread
  // spins and the poll leaves no event (hook_wait.cpp).
  int block = 0;
  if (a.kind == HookKind::Load && in0.op == IrOp::Mbarrier) {
    block = canon_block(r, t, c, a, li, v);
    if (block < 0) return false;
    if (block == 2) return true;
  }
  // A wait whose failed result is redundant reads only the values that
  // complete its phase (hook_wait.cpp).
  bool chose = chain ? r.chain_chose && !tail : !any && !canon && !block && !latest && l.values.size() > 1;
  if (!tail) r.chain_chose = false;
  // hook_canon.cpp (e): a blocking wait synchronizes as the machine ran; any
  // other read only as an acquire pattern (PTX ISA 8.8): an acquire read
  // here (below), a relaxed one with a later acquire fence (canon_fence); a
  // weak ld forms none (8.8, 8.7). (e2): a wait of a plain write's value, none.
  const bool syncs = !canon && !block && !(a.kind == HookKind::Load && in0.op == IrOp::Mbarrier && canon_plain(r, li));
  if (!canon) {
    std::vector<uint32_t> cand;
    if (any) {
      v = l.values[0];
    } else if (block || chain || latest) {
      // the machine's value
    } else if (a.kind == HookKind::RmwRead && in0.op == IrOp::Atom && in0.atom == arith::AtomOp::Cas &&
               cas_seeded(r, t, a, li, v)) {
      // A CAS retry loop's CAS reads its compare value (hook_cas.cpp)
      chose = false;
    } else if (a.kind == HookKind::Load && in0.op == IrOp::Mbarrier && canon_wait(r, t, a, li, v, cand)) {
      v = l.values[cand[choose(static_cast<uint32_t>(cand.size()), sh_.unit_of(c))]];
      chose = cand.size() > 1;
    } else if (a.kind == HookKind::Load && in0.op == IrOp::Ld && poll_cand(t, a, li, cand)) {
      // An unrolled poll reads only the values that end its wait (wait_analysis.cpp)
      v = l.values[cand[choose(static_cast<uint32_t>(cand.size()), sh_.unit_of(c))]];
      chose = cand.size() > 1;
      l.chosen = true;
    } else if (chose && lazy_load(r, a, li)) {
      // A lazy load reads any value until a run uses it (hook_lazy.cpp).
      v = l.values[0];
      lazy = true;
      chose = false;
      l.chosen = true;
    } else {
      v = l.values[choose(static_cast<uint32_t>(l.values.size()), sh_.unit_of(c))];
      l.chosen = true;
    }
  }
  if (a.kind == HookKind::Load) canon_read(r, li, v, !canon && !block && !syncs);
  // hook_wait.cpp (l): an update that read `init` after a plain write its
  // clock covers read the initial contents in no consistent execution.
  if (a.kind == HookKind::RmwRead) r.rmw_floored = v == l.init && init_floor(r, li);
  ++r.comm_reads;
  if (!(a.kind == HookKind::Load && in0.op == IrOp::Ld && in0.order == mm::Order::Weak)) ++r.sync_reads;
  if (any || lazy) r.any_value.push_back(static_cast<int>(r.events.size()));
  if (chose) {
    ++r.choices;
    r.last_choice_pc = pc;
  }
  const Inst& in = *a.in;
  mm::Event e;
  e.kind = mm::EventKind::Read;
  e.loc = li;
  e.value = r.ev_tag ? r.ev_value : v;  // a chain position's tag (hook_canon.cpp (j5))
  r.ev_tag = false;
  e.scope = in.scope;
  e.order = in.order;
  if (in.op == IrOp::Mbarrier) {
    // PTX ISA 9.7.13.15 mbarrier: test_wait/try_wait are .acquire unless
    // .relaxed, at the scope they name (.cta by default, Inst::scope); an
    // arrive's read half is relaxed (8.8: it releases).
    e.order = a.kind == HookKind::Load && in.order != mm::Order::Relaxed ? mm::Order::Acquire : mm::Order::Relaxed;
    e.scope = in.scope;
  } else if (a.kind == HookKind::RmwRead) {
    e.order = split_rmw(in.order).first;
    e.reduction = in.op == IrOp::Red;
  }
  if (syncs && (e.order == mm::Order::Acquire || e.order == mm::Order::AcqRel || e.order == mm::Order::SC ||
                (sh_.no_pipe_sync && !(in.op == IrOp::Ld && in.order == mm::Order::Weak))))
    r.sync_in = true;
  int id = push(r, std::move(e), &in);
  r.pending_rmw = a.kind == HookKind::RmwRead ? id : -1;
  grid_update(r, t, a, li, chain);  // a ticket (hook_grid_sync.cpp (t))
  if (!any && !lazy) {
    if (r.read_chain.size() <= static_cast<size_t>(id)) r.read_chain.resize(static_cast<size_t>(id) + 1);
    r.read_chain[static_cast<size_t>(id)] = sh_.chain_of(li, v);
  }
  add_deps(r, id, addr_deps(r), nullptr);
  // The destination that receives the value read depends on this read:
  // element `elem` of ld's register destinations, of atom's destinations,
  // the result of an mbarrier test/try_wait or arrive.
  const interp::Opnd* dst = nullptr;
  if (in.op == IrOp::Ld) {
    unsigned n = 0;
    for (unsigned k = 0; k < 4 && !dst; ++k)
      if (in.dst[k].kind == interp::Opnd::Reg && n++ == elem) dst = &in.dst[k];
  } else if ((in.op == IrOp::Atom && elem < 4) || (in.op == IrOp::Mbarrier && elem == 0)) {
    dst = &in.dst[elem];
  }
  if (lazy) lazy_dst(r, t, dst, pc);
  if (!any && !lazy && dst && dst->kind == interp::Opnd::Reg) {
    if (!r.tracking) r.tracking = true, ++tracking_;
    if (r.rdeps.size() < t.regs.size()) r.rdeps.resize(t.regs.size());
    if (t.reg_base + dst->slot < r.rdeps.size()) r.rdeps[t.reg_base + dst->slot] = Deps{id};
  }
  return true;
}

bool Hook::write(interp::Thread& t, const interp::Cta& c, const HookAccess& a, uint64_t v) {
  ThreadRec& r = rec(t, c);
  const unsigned elem = element(r, true);
  int li = comm_loc(a);
  if (li >= 0 && a.in && a.in->op == IrOp::Mbarrier && !mbar_loc(li)) return false;
  // A cp.async's write at its completion (async_issue).
  ThreadRec::Async* ax = a.async ? &r.async[a.async - 1] : nullptr;
  if (!ax && li < 0 && !r.async.empty() && !async_conflict(r, a, true)) return false;
  if (ax) {
    if (li < 0 && a.kind == HookKind::RmwWrite) return async_promote(a);  // a complete_tx (async_read)
    if (li < 0) {
      ++r.side;
      if (!det_access(r, a, true, -1, &ax->vc, ax->on_mbar)) return false;
      r.det_writes.emplace_back(a.key, a.size);
      for (uint64_t b = a.key; b < a.key + a.size; ++b) r.gdeps.erase(b);  // (not followed)
      return true;
    }
    if (!async_plain(li)) return false;
  }
  const int64_t rmw = li < 0 ? commuting_rmw(t, r, a) : -1;
  // PTX ISA 8.8 forms 1 and 2: a release operation may start a release pattern on a later write.
  r.released = r.released || a.in->order == mm::Order::Release || a.in->order == mm::Order::AcqRel ||
               a.in->order == mm::Order::SC;
  // An atomic that writes back the value it read (atomicAdd(p, 0), an
  // atomicOr of 0, a CAS that stores its compare value) leaves the state as
  // it was: a spin iteration whose only writes are such RMWs is redundant
  // like one that only reads (back_jump). Dropping it loses no final state:
  // the RMW's readers can read its source instead (the same value, with
  // nothing co-between, 8.10.3), which removes observation and causality
  // edges but adds none, so the execution without it is consistent too
  // (docs/outcomes.md "Loops"). On a deterministic location it is no side
  // effect either: a spin of such RMWs there is a spin on deterministic
  // memory, which back_jump makes communicating (its reads are det_reads),
  // instead of running to the step limit (probe9k's -G `atomicAdd(flag, 0)`
  // poll in CTA 0 waiting for CTA 1: tests/corpus/rmwpoll).
  const bool idempotent = a.kind == HookKind::RmwWrite && a.in->op == IrOp::Atom &&
                          (li >= 0 ? r.pending_rmw >= 0 && r.events[static_cast<size_t>(r.pending_rmw)].value == v &&
                                         (r.any_value.empty() || r.any_value.back() != r.pending_rmw)
                                   : r.pending_rmw == -2 && r.det_rmw_value == v);
  if (!idempotent) ++r.side;
  if (li < 0) {
    if (a.kind == HookKind::RmwWrite && r.pending_rmw >= 0) {
      // The read half was communicating but this half is not: sizes differ.
      throw LimitError("an atomic at PTX line " + std::to_string(a.in->line) +
                       " mixes communicating and private bytes");
    }
    r.pending_rmw = -1;
    if (!det_access(r, a, true, rmw)) return false;
    r.det_writes.emplace_back(a.key, a.size);
    if (rmw >= 0 && !(a.key & interp::kHookSharedKey)) {
      auto [it, fresh] = r.exempt.try_emplace({a.key, a.size}, rmw, r.exempt_b);
      if (!fresh) {
        if (it->second.first == rmw)
          it->second.second = exempt_combine(rmw, it->second.second, r.exempt_b, a.size);
        else
          it->second.first = -2;
      }
    }
    if (r.tracking || !r.gdeps.empty()) {
      // The bytes depend on the value and the address (a plain store; an
      // atomic's bytes depend on nothing: not followed).
      Deps d;
      if (a.kind == HookKind::Store) {
        d = addr_deps(r);
        if (r.snap == serial_ && elem < 4) merge(d, r.cur_data[elem]);
      }
      for (uint64_t b = a.key; b < a.key + a.size; ++b) {
        if (d.empty())
          r.gdeps.erase(b);
        else
          r.gdeps[b] = d;
      }
    }
    return true;
  }
  // Blocking waits: wakes the threads parked on it (wake_blocked).
  loc_written_[li] = ++writes_;
  if (!blocked_.empty()) written_.insert(li);
  if (!ax && !canon_write(r, a, li, v)) return false;
  if (!grid_write(r, a, li, v)) return false;  // hook_grid.cpp
  const bool upd = a.kind == HookKind::RmwWrite && r.chain_li == li;
  r.chain_li = -1;
  if (!ax && !chain_write(r, li, upd)) return false;
  if (!latest_write(r, a, li)) return false;  // hook_latest.cpp
  CommLoc& l = sh_.locs[static_cast<size_t>(li)];
  const bool floored = a.kind == HookKind::RmwWrite && r.rmw_floored;
  r.rmw_floored = false;
  if (v == l.init && !l.init_written && !floored) {
    // hook_wait.cpp (l): `init` is no longer the initial contents' alone; a
    // wait that left it out relied on that: restart without it.
    l.init_written = true;
    if (l.init_dropped) {
      restart = true;
      return false;
    }
  }
  l.written.insert(v);
  if (!ax) writes_at_[li].emplace_back(t.gid, r.vc[t.gid]);  // (not in program order: hook_wait.cpp (l) leaves it)
  const Inst& in = *a.in;
  mm::Event e;
  e.kind = mm::EventKind::Write;
  e.loc = li;
  e.value = r.ev_tag ? r.ev_value : v;  // a chain position's tag (hook_canon.cpp (j5))
  r.ev_tag = false;
  e.scope = in.scope;
  e.order = in.order;
  if (in.op == IrOp::Mbarrier) {
    // mbarrier.arrive (and complete_tx): .release unless .relaxed, at its
    // scope (9.7.13.15); init/inval: plain writes.
    e.order = a.kind != HookKind::RmwWrite     ? mm::Order::Weak
              : in.order == mm::Order::Relaxed ? mm::Order::Relaxed
                                               : mm::Order::Release;
    e.scope = in.scope;
  } else if (a.kind == HookKind::RmwWrite) {
    e.order = split_rmw(in.order).second;
    e.reduction = in.op == IrOp::Red;
  }
  int id = -1;
  if (ax && a.kind == HookKind::RmwWrite) {
    // A bulk copy's complete_tx (hook_async.cpp): .release at .cluster
    // scope, generic proxy (9.7.9.25.4.1), after the copy's operations.
    e.order = mm::Order::Release;
    e.scope = mm::Scope::Cluster;
    id = push_async(r, std::move(e), &in, a.async - 1, false);
    ax = &r.async[a.async - 1];
    ax->ctx = id;
    add_deps(r, id, ax->addr, nullptr);
  } else if (ax) {
    // The copy writes what its read of this element read (a data
    // dependency, as semantics/interp/trace_exec_async.cpp gives litmus
    // copies), at the addresses of its issue.
    e.order = mm::Order::Weak;  // "treated as a weak memory operation" (9.7.9.25.3)
    if (ax->bulk) e.proxy = mm::Proxy::Async;
    id = push_async(r, std::move(e), &in, a.async - 1);
    const Deps data = ax->last_read >= 0 ? Deps{ax->last_read} : Deps{};
    add_deps(r, id, ax->addr, &data);
    ax->last_read = -1;
  } else {
    id = push(r, std::move(e), &in);
    add_deps(r, id, addr_deps(r), r.snap == serial_ && elem < 4 ? &r.cur_data[elem] : nullptr);
  }
  // The chain bound of this write (explore.hpp "Value chains"): one write
  // of its location more than the longest chain of a read it depends on
  // (addr, data, ctrl: the edges just added end at `id`).
  std::vector<uint32_t> chain;
  auto take = [&](const std::vector<std::pair<int, int>>& edges) {
    for (size_t k = edges.size(); k-- > 0 && edges[k].second == id;) {
      const size_t from = static_cast<size_t>(edges[k].first);
      if (from >= r.read_chain.size()) continue;
      const std::vector<uint32_t>& c = r.read_chain[from];
      if (chain.size() < c.size()) chain.resize(c.size(), 0);
      for (size_t x = 0; x < c.size(); ++x) chain[x] = std::max(chain[x], c[x]);
    }
  };
  take(r.dep_addr);
  take(r.dep_data);
  take(r.dep_ctrl);
  // The write half of an RMW computes its value from what its read half
  // read (every atom/red but exch; mbarrier.arrive's count): the value
  // descends from that read as through a data dependency (PTX ISA 8.10.4
  // No Thin Air: no value out of a cycle of instruction dependencies and
  // communication). Without this, a counter of RMWs (a ticket, the arrival
  // word of cooperative_groups' grid.sync) gained a value every round.
  if (a.kind == HookKind::RmwWrite && r.pending_rmw >= 0 && !(in.op == IrOp::Atom && in.atom == arith::AtomOp::Exch) &&
      static_cast<size_t>(r.pending_rmw) < r.read_chain.size()) {
    const std::vector<uint32_t>& c = r.read_chain[static_cast<size_t>(r.pending_rmw)];
    if (chain.size() < c.size()) chain.resize(c.size(), 0);
    for (size_t x = 0; x < c.size(); ++x) chain[x] = std::max(chain[x], c[x]);
  }
  if (chain.size() <= static_cast<size_t>(li)) chain.resize(static_cast<size_t>(li) + 1, 0);
  ++chain[static_cast<size_t>(li)];
  if (auto [it, fresh] = l.chain.emplace(v, chain); fresh) {
    sh_.chain_changed = true;
  } else {
    // Keep the least bound of every write seen (componentwise; entries
    // past a vector's end are 0, and none ends in 0).
    std::vector<uint32_t>& old = it->second;
    bool lower = false;
    for (size_t x = 0; x < old.size(); ++x) {
      const uint32_t c = x < chain.size() ? chain[x] : 0;
      if (c < old[x]) old[x] = c, lower = true;
    }
    while (!old.empty() && old.back() == 0) old.pop_back();
    sh_.chain_changed = sh_.chain_changed || lower;
  }
  if (a.kind == HookKind::RmwWrite) {
    if (r.pending_rmw == -2) {
      // The read half was deterministic (its bytes became communicating in
      // between: impossible within one access) -- treat as a plain write.
    } else if (r.pending_rmw >= 0) {
      r.events[static_cast<size_t>(r.pending_rmw)].rmw_pair = id;
      r.events[static_cast<size_t>(id)].rmw_pair = r.pending_rmw;
    }
  }
  r.pending_rmw = -1;
  return true;
}

bool Hook::fence(interp::Thread& t, const interp::Cta& c, const Inst& in) {
  // fence.proxy.async{.global,.shared::cta,.shared::cluster} (PTX ISA
  // 9.7.13.4): a proxy fence between the generic and the async proxy (the
  // bulk copies' proxy, hook_async.cpp), over the state space it names; no
  // memory fence. Other proxy fences: not modelled (their proxies make no
  // events here).
  if (in.fence == interp::FenceKind::Proxy) return true;
  ThreadRec& r = rec(t, c);
  if (in.fence == interp::FenceKind::ProxyAsync) {
    mm::Event e;
    e.kind = mm::EventKind::ProxyFence;
    e.pfence = mm::ProxyFenceKind::Async;
    e.fspace = in.addr.space == interp::Space::Global ? mm::StateSpace::Global
               : in.addr.space == interp::Space::Shared || in.addr.space == interp::Space::SharedCluster
                   ? mm::StateSpace::Shared
                   : mm::StateSpace::Any;
    push(r, std::move(e), &in);
    return true;
  }
  // PTX ISA 8.8 form 3: a release pattern may start here (commuting_rmw).
  r.released =
      r.released || in.order == mm::Order::Release || in.order == mm::Order::AcqRel || in.order == mm::Order::SC;
  if (!canon_fence(r, in)) return false;
  grid_fence(r, in);  // hook_grid.cpp (g4)
  round_fence(r);     // hook_round.cpp (r7)
  // A fence is no side effect for the redundancy of a spin iteration
  // (back_jump): dropping a failed iteration's reads and fences removes
  // synchronizes-with, causality and Fence-SC edges but adds none, so the
  // execution without it is consistent whenever the one with it is
  // (PTX ISA 8.10: every axiom forbids a cycle or requires an inclusion in
  // co and the Fence-SC order, which a restriction keeps); a seqlock
  // reader's fenced retry is then redundant.
  mm::Event e;
  e.kind = mm::EventKind::Fence;
  e.order = in.order;
  e.scope = in.scope;
  push(r, std::move(e), &in);
  return true;
}

void Hook::exited(interp::Thread& t, const interp::Cta& c) {
  ThreadRec& r = rec(t, c);
  if (r.rwatch && r.rwatch->live) r.rwatch->live = false, --rwatching_;  // (hook_loop.cpp (R))
  exited_.insert(t.gid);
}

}  // namespace ptxcheck::outcomes
