// The events of a cp.async at its completion (the outcomes hook's part of
// asynchronous copies; the rest of the hook: hook.cpp).
#include "semantics/outcomes/hook_impl.hpp"

namespace ptxcheck::outcomes {

using interp::HookAccess;
using interp::HookKind;
using interp::Inst;
using interp::IrOp;

// cp.async (PTX ISA 8.9.1.1 Asynchronous operations; 9.7.9.25.3 Non-bulk
// copy). The Machine reports a copy's reads of the source and writes of the
// destination when the copy completes (Machine::cp_complete): at the
// cp.async.wait_group / wait_all that waits for its group, at a
// cp.async.mbarrier.arrive of its thread, or at the thread's exit. Its
// events belong to an asynchronous operation (mm::AsyncOp: "not part of the
// program order"): ordered after the thread's events before its issue
// (issued_after), the reads before the writes (8.9.1.1: "the loads and
// stores performed as part of a cp.async are ordered with respect to each
// other"), and, when a wait completed it, before the thread's events after
// the wait (mm::AsyncWait; 9.7.9.25.3.3: the writes "made visible to the
// executing thread"); a copy completed at exit is ordered before nothing.
// So a read of the destination between issue and completion, by another
// thread after a barrier or by the issuing thread itself, may read the old
// value or the copy's, and conflicts with the copy's write unless a wait
// and a barrier (or release/acquire) order them: a data race (8.7.1).
// Deterministic locations follow the same order: a copy's access is
// checked against the accesses ordered before its issue (det_access's
// `issued`) and recorded at its completion; an access of the issuing
// thread to the bytes of a copy in flight makes them communicating
// (async_conflict).
uint32_t Hook::async_issue(interp::Thread& t, const interp::Cta& c, const Inst& in, const HookAccess& dst,
                           const HookAccess& src) {
  ThreadRec& r = rec(t, c);
  ++r.side;
  ThreadRec::Async x;
  x.issue_at = r.events.size();
  x.vc = r.vc;
  x.ctrl = r.ctrl_on;
  x.addr = addr_deps(r);  // the destination address register's (Hook::step)
  if (r.tracking && in.addr2.base == interp::Addr::Reg && t.reg_base + in.addr2.slot < r.rdeps.size())
    merge(x.addr, r.rdeps[t.reg_base + in.addr2.slot]);
  x.dst = {dst.key, dst.size};
  x.src = {src.key, src.size};
  x.bulk = in.op == IrOp::BulkCopy;
  x.on_mbar = x.bulk && in.src[1].kind != interp::Opnd::None;
  r.async.push_back(std::move(x));
  return static_cast<uint32_t>(r.async.size() - 1);
}

// A bulk copy (9.7.9.25.4.1) is an operation of the async proxy (8.6): its
// reads and writes are async-proxy accesses, and its completion is
// followed by an implicit generic-async proxy fence (9.7.9.25.2; mm::AsyncOp
// fence) and, with .mbarrier::complete_tx::bytes, by the complete_tx on
// the mbarrier (mm::AsyncOp complete_tx: an update of the mbarrier, its
// write .release at .cluster scope), "ordered only with respect to the
// memory operations performed by the same asynchronous instruction"
// (8.9.1.1). A wait that observes the phase the complete_tx completes
// (acquire) then synchronizes with it (8.8, 8.9.4 item 4), or with a later
// update of the mbarrier's RMW chain that it reads (8.9.2 item 2), so the
// copy's writes are visible after it. Nothing else orders the copy before
// anything, its thread's later operations included. The Machine performs
// it just before the first wait of any thread on its mbarrier reads it, or
// when its thread arrives at a CTA barrier or exits, whichever comes first
// (a later time in an execution is one the events leave open): the copy
// stays in flight for its thread (async_conflict: the bytes it accesses
// become communicating), its deterministic accesses are recorded at an
// epoch no clock reaches (det_access `unordered`: another thread's access
// makes them communicating), and the complete_tx makes its mbarrier
// communicating (its reads choose among the mbarrier's values). The
// tx-count is the Machine's, not part of the values: completing the copy
// late makes its complete_tx the update that completes the phase when the
// arrives come first, as with any tx-count. cp.async.bulk.wait_group completes a copy of
// the bulk async-group (9.7.9.25.1.1) as cp.async.wait_group does a cp.async; with .read only its reads ("the source
// ... can be reused"): they are performed then and ordered before the thread's later operations (mm::AsyncWait
// reads_only), the writes at a later wait or the exit.
void Hook::async_done(interp::Thread& t, const interp::Cta& c, uint32_t id, bool waited, bool reads_only) {
  ThreadRec& r = rec(t, c);
  if (id >= r.async.size()) return;
  ThreadRec::Async& x = r.async[id];
  if (!x.on_mbar) x.rdone = true;  // (an mbarrier's copy stays in flight for its thread)
  if (waited) x.waits.emplace_back(r.events.size(), reads_only);
  if (reads_only) return;
  if (!x.on_mbar) x.done = true;
  if (x.bulk && x.fence < 0 && !x.mem.empty()) {
    mm::Event e;
    e.kind = mm::EventKind::ProxyFence;
    e.pfence = mm::ProxyFenceKind::Async;
    x.fence = push_async(r, std::move(e), nullptr, id, false);
  }
}

bool Hook::async_conflict(ThreadRec& r, const HookAccess& a, bool write) {
  auto overlap = [&](const std::pair<uint64_t, unsigned>& b) {
    return b.second && a.key < b.first + b.second && b.first < a.key + a.size;
  };
  for (const ThreadRec::Async& x : r.async)
    if ((!x.done && overlap(x.dst)) || (write && !x.rdone && overlap(x.src))) {
      const int li = sh_.promote(a.key, a.size, a.in ? a.in->line : 0);
      sh_.locs[static_cast<size_t>(li)].canon = sh_.locs[static_cast<size_t>(li)].rmw_chain = false;
      restart = true;
      return false;
    }
  return true;
}

bool Hook::async_plain(int li) {
  CommLoc& l = sh_.locs[static_cast<size_t>(li)];
  if (!l.canon && !l.rmw_chain) return true;
  l.canon = l.rmw_chain = false;
  restart = true;
  return false;
}

int Hook::push_async(ThreadRec& r, mm::Event e, const Inst* in, uint32_t id, bool mem) {
  ThreadRec::Async& x = r.async[id];
  e.async_op = static_cast<int>(id);  // the thread's copy; numbered in the skeleton by make_run
  std::swap(r.ctrl_on, x.ctrl);       // the control dependencies of its issue
  const int ev = push(r, std::move(e), in);
  std::swap(r.ctrl_on, r.async[id].ctrl);
  if (mem) r.async[id].mem.push_back(ev);
  return ev;
}

bool Hook::async_promote(const HookAccess& a) {
  const int li = sh_.promote(a.key, a.size, a.in ? a.in->line : 0);
  sh_.locs[static_cast<size_t>(li)].canon = sh_.locs[static_cast<size_t>(li)].rmw_chain = false;
  restart = true;
  return false;
}

bool Hook::async_read(ThreadRec& r, const interp::Cta& c, const HookAccess& a, int li, uint64_t& v) {
  ThreadRec::Async& x = r.async[a.async - 1];
  // The read half of a bulk copy's complete_tx on its mbarrier.
  const bool tx = a.kind == HookKind::RmwRead;
  x.last_read = -1;
  if (li < 0 && tx) return async_promote(a);
  if (li < 0) return det_access(r, a, false, -1, &x.vc, x.on_mbar);
  if (!async_plain(li)) return false;
  CommLoc& l = sh_.locs[static_cast<size_t>(li)];
  if (l.grid > 0) return grid_break(li);  // a copy reads a grid counter: its polls choose (hook_grid.cpp)
  const bool chose = l.values.size() > 1;
  v = l.values[choose(static_cast<uint32_t>(l.values.size()), sh_.unit_of(c))];
  l.chosen = true;
  ++r.comm_reads;
  ++r.sync_reads;
  if (chose) {
    ++r.choices;
    r.last_choice_pc = static_cast<uint32_t>(a.in - sh_.prog->code.data());
  }
  mm::Event e;
  e.kind = mm::EventKind::Read;
  e.loc = li;
  e.value = v;
  e.order = mm::Order::Weak;
  e.scope = a.in->scope;
  if (tx) {  // complete_tx: .relaxed read half, generic proxy (as semantics/interp/trace_exec_async.cpp)
    e.order = mm::Order::Relaxed;
    e.scope = mm::Scope::Cluster;
  } else if (x.bulk) {
    e.proxy = mm::Proxy::Async;
  }
  const int id = push_async(r, std::move(e), a.in, a.async - 1, !tx);
  if (r.read_chain.size() <= static_cast<size_t>(id)) r.read_chain.resize(static_cast<size_t>(id) + 1);
  r.read_chain[static_cast<size_t>(id)] = sh_.chain_of(li, v);
  add_deps(r, id, r.async[a.async - 1].addr, nullptr);
  if (tx)
    r.pending_rmw = id;
  else
    r.async[a.async - 1].last_read = id;
  return true;
}

}  // namespace ptxcheck::outcomes
