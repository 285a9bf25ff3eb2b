// The barrier callbacks of the outcomes ExecHook (hook_impl.hpp): CTA
// barriers (bar/barrier.sync, .arrive, .red) and cluster barriers
// (barrier.cluster.arrive/wait), as events and vector clocks.
#include "semantics/outcomes/hook_impl.hpp"

namespace ptxcheck::outcomes {

using interp::Inst;

namespace {

// The virtual 8-byte location of phase `n` of the cluster barrier of the
// cluster whose rank 0 has uid `cl`: phases lie 8 bytes apart, so that
// their byte ranges do not overlap. Each cluster has its own barrier (PTX
// ISA 9.7.13.3 barrier.cluster: the threads of the cluster arrive and
// wait), so its phases are numbered within it: a cluster explored apart
// (explore.hpp) names the same phases whatever the other clusters did.
uint64_t cluster_bar_key(uint32_t cl, uint64_t n) { return kClusterBarKey | uint64_t{cl} << 32 | n << 3; }

}  // namespace

// PTX ISA 8.9.4 item 2: a completed barrier orders what its participants
// did before arriving before what the waiting ones do after it.
bool Hook::barrier_arrive(interp::Thread& t, const interp::Cta& c, const Inst& in, uint32_t id, int, bool waits) {
  ThreadRec& r = rec(t, c);
  // Where it waits (hook_grid.cpp (f6)).
  stuck_at(r, t, static_cast<uint32_t>(&in - sh_.prog->code.data()));
  ++r.side;
  ++r.bars;
  mm::Event e;
  e.kind = mm::EventKind::Barrier;
  e.bar = waits ? mm::BarrierOp::Sync : mm::BarrierOp::Arrive;
  e.scope = mm::Scope::CTA;
  e.bar_id = -1;  // the instance, set when it completes
  int ev = push(r, std::move(e), &in);
  bar_arr_[{c.uid, id}].push_back({t.gid, waits, ev, r.vc, r.sync_in});
  ++r.vc[t.gid];
  return true;
}

void Hook::barrier_complete(const interp::Cta& c, uint32_t id) {
  auto it = bar_arr_.find({c.uid, id});
  if (it == bar_arr_.end()) return;
  std::vector<uint32_t> join(nthreads_, 0);
  bool sync_in = false;  // hook_canon.cpp (e)
  for (const Arr& a : it->second) {
    for (size_t k = 0; k < join.size(); ++k) join[k] = std::max(join[k], a.vc[k]);
    sync_in = sync_in || a.sync_in;
  }
  int inst = ++bar_inst_;
  uint32_t live = 0;
  for (const auto& t : c.threads) live += t.st != interp::TState::Exited;
  if (it->second.size() < live) cta_partial[c.uid] = true;
  for (const Arr& a : it->second) {
    ThreadRec& r = th[a.gid];
    r.events[static_cast<size_t>(a.event)].bar_id = inst;
    if (a.waits) {
      for (size_t k = 0; k < join.size(); ++k) r.vc[k] = std::max(r.vc[k], join[k]);
      r.sync_in = r.sync_in || sync_in;
    }
  }
  bar_arr_.erase(it);
}

// barrier.cluster (PTX ISA 9.7.13.3 barrier.cluster): arrive has release and wait acquire
// semantics at cluster scope. Encoded exactly with a virtual location per
// phase: each arrive is an RMW (relaxed read, release write) adding one, and
// each wait an acquire read of the phase's final count, which observes
// every arrive through the RMW chain (8.9.2). barrier.cluster.arrive.relaxed
// gives "no memory ordering and visibility guarantees" for what came before
// it (9.7.13.3): its write is relaxed, so only a fence before it (8.8
// fence-based release pattern) makes it synchronize with the waits.
bool Hook::cluster_arrive(interp::Thread& t, const interp::Cta& c, const Inst& in) {
  // Where it waits (hook_grid.cpp (f6)).
  stuck_at(rec(t, c), t, static_cast<uint32_t>(&in - sh_.prog->code.data()));
  if (sh_.decompose && sh_.no_cluster_units) {  // phases numbered over the grid: explore it whole
    sh_.no_decompose = true;
    restart = true;
    return false;
  }
  ThreadRec& r = rec(t, c);
  ++r.side;
  cl_now_ = sh_.no_cluster_units ? 0 : c.cluster_uid;  // the Machine runs one cluster at a time
  const uint64_t phase = phases_done_[cl_now_];
  int li = sh_.promote(cluster_bar_key(cl_now_, phase), 8, in.line);
  uint64_t k = static_cast<uint64_t>(cl_arr_.size());
  mm::Event rd;
  rd.kind = mm::EventKind::Read;
  rd.loc = li;
  rd.value = k;
  rd.order = mm::Order::Relaxed;
  rd.scope = mm::Scope::Cluster;
  int rid = push(r, std::move(rd), &in);
  mm::Event wr;
  wr.kind = mm::EventKind::Write;
  wr.loc = li;
  wr.value = k + 1;
  wr.order = in.order == mm::Order::Relaxed ? mm::Order::Relaxed : mm::Order::Release;
  wr.scope = mm::Scope::Cluster;
  int wid = push(r, std::move(wr), &in);
  r.events[static_cast<size_t>(rid)].rmw_pair = wid;
  r.events[static_cast<size_t>(wid)].rmw_pair = rid;
  // A relaxed arrive orders nothing by itself: it adds nothing to the
  // clocks the waits join (as races_sync.cpp leaves it out of the phase).
  cl_arr_.push_back({t.gid, true, -1, in.order == mm::Order::Relaxed ? std::vector<uint32_t>(nthreads_, 0) : r.vc});
  ++r.vc[t.gid];
  r.cluster_phase_arrived = static_cast<int>(phase);
  return true;
}

bool Hook::cluster_wait(interp::Thread& t, const interp::Cta& c, const Inst& in) {
  ThreadRec& r = rec(t, c);
  // Where it waits (hook_grid.cpp (f6)).
  stuck_at(r, t, static_cast<uint32_t>(&in - sh_.prog->code.data()));
  r.sync_in = true;  // hook_canon.cpp (e)
  if (r.cluster_phase_arrived < 0) return true;
  ++r.side;
  const uint32_t cl = sh_.no_cluster_units ? 0 : c.cluster_uid;
  int li = sh_.promote(cluster_bar_key(cl, static_cast<uint64_t>(r.cluster_phase_arrived)), 8, in.line);
  mm::Event rd;
  rd.kind = mm::EventKind::Read;
  rd.loc = li;
  rd.order = mm::Order::Acquire;
  rd.scope = mm::Scope::Cluster;
  bool done = static_cast<uint64_t>(r.cluster_phase_arrived) < phases_done_[cl];
  rd.value = done ? phase_total_[li] : 0;
  int id = push(r, std::move(rd), &in);
  if (!done) {
    cl_waits_.emplace_back(t.gid, id);
  } else {
    const std::vector<uint32_t>& j = phase_join_[li];
    for (size_t k = 0; k < r.vc.size() && k < j.size(); ++k) r.vc[k] = std::max(r.vc[k], j[k]);
  }
  r.cluster_phase_arrived = -1;
  return true;
}

void Hook::cluster_complete() {
  std::vector<uint32_t> join(nthreads_, 0);
  for (const Arr& a : cl_arr_)
    for (size_t k = 0; k < join.size(); ++k) join[k] = std::max(join[k], a.vc[k]);
  uint64_t total = cl_arr_.size();
  for (auto [gid, ev] : cl_waits_) {
    ThreadRec& r = th[gid];
    r.events[static_cast<size_t>(ev)].value = total;
    for (size_t k = 0; k < r.vc.size(); ++k) r.vc[k] = std::max(r.vc[k], join[k]);
  }
  const int li = sh_.promote(cluster_bar_key(cl_now_, phases_done_[cl_now_]++), 8, 0);
  phase_total_[li] = total;
  phase_join_[li] = std::move(join);
  cl_arr_.clear();
  cl_waits_.clear();
}

// Where the thread begins to wait (a barrier, a parked poll or update) and,
// the global bytes it may write from there (Shared::global_writes; hook_grid.cpp (f6), hook_latest.cpp (f)).
void Hook::stuck_at(ThreadRec& r, const interp::Thread& t, uint32_t pc) {
  r.stuck_func = t.func, r.stuck_pc = pc;
  r.stuck_known = false;
  r.stuck_writes.clear();
  const Shared::GlobalWrites& g = sh_.global_writes(t.func, pc);
  if (g.unknown) return;
  for (auto [in, slot, cover] : g.sites) {
    uint64_t a = static_cast<uint64_t>(in->addr.off);
    if (slot != ~0u) {
      if (t.reg_base + slot >= t.regs.size()) return;
      a = in->addr.wrap(a + t.regs[t.reg_base + slot]);
    }
    const uint64_t n = uint64_t{in->size} * std::max({1u, unsigned{in->nsrc}, unsigned{in->ndst}});
    r.stuck_writes.emplace_back(a, a + n, cover);
  }
  r.stuck_known = true;
}

}  // namespace ptxcheck::outcomes
