// The events of a cp.async at its completion (the outcomes hook's part of
// asynchronous copies; the rest of the hook: hook.cpp).
#include "semantics/outcomes/hook_impl.hpp"

namespace ptxcheck::outcomes {

using interp::HookAccess;
using interp::HookKind;
using interp::Inst;

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
  r.async.push_back(std::move(x));
  return static_cast<uint32_t>(r.async.size() - 1);
}

void Hook::async_done(interp::Thread& t, const interp::Cta& c, uint32_t id, bool waited) {
  ThreadRec& r = rec(t, c);
  if (id >= r.async.size()) return;
  ThreadRec::Async& x = r.async[id];
  x.done = true;
  if (waited) x.waits.push_back(r.events.size());
}

bool Hook::async_conflict(ThreadRec& r, const HookAccess& a, bool write) {
  auto overlap = [&](const std::pair<uint64_t, unsigned>& b) {
    return b.second && a.key < b.first + b.second && b.first < a.key + a.size;
  };
  for (const ThreadRec::Async& x : r.async)
    if (!x.done && (overlap(x.dst) || (write && overlap(x.src)))) {
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

int Hook::push_async(ThreadRec& r, mm::Event e, const Inst* in, uint32_t id) {
  ThreadRec::Async& x = r.async[id];
  e.async_op = static_cast<int>(id);  // the thread's copy; numbered in the skeleton by make_run
  std::swap(r.ctrl_on, x.ctrl);       // the control dependencies of its issue
  const int ev = push(r, std::move(e), in);
  std::swap(r.ctrl_on, r.async[id].ctrl);
  r.async[id].mem.push_back(ev);
  return ev;
}

bool Hook::async_read(ThreadRec& r, const interp::Cta& c, const HookAccess& a, int li, uint64_t& v) {
  ThreadRec::Async& x = r.async[a.async - 1];
  x.last_read = -1;
  if (li < 0) return det_access(r, a, false, -1, &x.vc);
  if (!async_plain(li)) return false;
  CommLoc& l = sh_.locs[static_cast<size_t>(li)];
  if (l.grid > 0) return grid_break(li);  // a copy reads a grid counter: its polls choose (hook_grid.cpp)
  const bool chose = l.values.size() > 1;
  v = l.values[choose(static_cast<uint32_t>(l.values.size()), sh_.unit_of(c))];
  l.chosen = true;
  ++r.comm_reads;
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
  const int id = push_async(r, std::move(e), a.in, a.async - 1);
  if (r.read_chain.size() <= static_cast<size_t>(id)) r.read_chain.resize(static_cast<size_t>(id) + 1);
  r.read_chain[static_cast<size_t>(id)] = sh_.chain_of(li, v);
  add_deps(r, id, r.async[a.async - 1].addr, nullptr);
  r.async[a.async - 1].last_read = id;
  return true;
}

}  // namespace ptxcheck::outcomes
