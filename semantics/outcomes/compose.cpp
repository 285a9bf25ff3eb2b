// Runs from launch records, and the per-unit composition (compose.hpp).
#include "semantics/outcomes/compose.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <set>

namespace ptxcheck::outcomes {

namespace {

// Every communicating location of `sh` with its initial write, as the first
// events of a run's skeleton; `labelled`: with names and source texts (for
// witnesses), not needed by a location check.
void add_init_events(Result::Run& run, const Shared& sh, bool labelled) {
  mm::Skeleton& s = run.skeleton;
  for (size_t i = 0; i < sh.locs.size(); ++i) {
    mm::Location l;
    if (labelled) l.name = sh.locs[i].name;
    l.physical = static_cast<int>(i);
    l.init = sh.locs[i].init;
    l.size = sh.locs[i].size;
    // For state-space-restricted proxy fences (fence.proxy.async.shared::cta, ...).
    l.space = sh.locs[i].key & interp::kHookSharedKey ? mm::StateSpace::Shared : mm::StateSpace::Global;
    s.locations.push_back(l);
    mm::Event e;
    e.kind = mm::EventKind::Init;
    e.loc = static_cast<int>(i);
    e.value = l.init;
    if (labelled) e.label = l.name + " = " + std::to_string(l.init);
    s.events.push_back(std::move(e));
    if (labelled) {
      run.sources.emplace_back();
      run.sources.back().text = s.events.back().label;
    }
  }
}

// The virtual location of a cluster barrier phase (hook_barrier.cpp).
bool cluster_bar(const Shared& sh, int loc) {
  if (loc < 0) return false;
  const uint64_t key = sh.locs[static_cast<size_t>(loc)].key;
  return (key & kClusterBarKey) && !(key & interp::kHookSharedKey);
}

// Whether leaving out the threads not in `keep` loses no order between the
// kept threads' barrier operations. Causality (PTX ISA 8.9.5) passes
// through a thread with no memory event only by its barriers: it
// synchronizes in one barrier instance or cluster barrier phase (8.9.4
// items 2 and 3) and, later in program order, in another. The graph: one
// node per completed barrier operation (bar/barrier arrive, sync or red;
// barrier.cluster arrive, as the write half of its RMW, and wait), program
// order between consecutive ones of a thread, and one hub per barrier
// instance and per cluster phase, with an edge into the hub from each
// operation that synchronizes (an arrive, sync or red; a cluster arrive)
// and out of it to each that is synchronized with (a sync or red; a wait
// that saw the phase complete). This is exactly the barriers' part of
// causality order, so if every kept node reaches the same kept nodes with
// and without the dropped threads' nodes, every order between kept events
// that went through a dropped thread also holds without it. A relaxed
// cluster arrive synchronizes only through a release fence before it in
// program order (8.8, pattern 3), whose scope must include the waiting
// thread (8.9.4 item 4): an edge into the hub after a fence of cluster
// scope or wider, none without a fence; after only a .cta fence it would
// reach the waits of its own CTA alone, which the hub cannot say, so
// nothing is left out.
bool drop_keeps_order(const RunView& h, const Shared& sh, const std::vector<char>& keep) {
  struct Node {
    uint32_t thread;
    std::vector<uint32_t> out;
  };
  std::vector<Node> g;
  std::map<std::pair<uint64_t, int64_t>, uint32_t> hub;  // (cta uid, instance) or (~0, phase location)
  auto hub_of = [&](uint64_t a, int64_t b) {
    auto [it, fresh] = hub.try_emplace({a, b}, static_cast<uint32_t>(g.size()));
    if (fresh) g.push_back({~0u, {}});
    return it->second;
  };
  for (size_t t = 0; t < h.th.size(); ++t) {
    const ThreadRec& r = h.th[t];
    if (!r.seen) continue;
    uint32_t prev = ~0u;
    int fenced = -1;  // widest scope of a release fence so far, -1 none
    for (const mm::Event& e : r.events) {
      uint32_t into = ~0u, from = ~0u;  // hub this node synchronizes into / is synchronized from
      if (e.kind == mm::EventKind::Fence &&
          (e.order == mm::Order::Release || e.order == mm::Order::AcqRel || e.order == mm::Order::SC)) {
        fenced = std::max(fenced, static_cast<int>(e.scope));
        continue;
      }
      if (e.kind == mm::EventKind::Barrier) {
        if (e.bar_id < 0) continue;  // never completed
        into = hub_of(r.cta_uid, e.bar_id);
        if (e.bar != mm::BarrierOp::Arrive) from = into;
      } else if ((e.kind == mm::EventKind::Write || e.kind == mm::EventKind::Read) && cluster_bar(sh, e.loc)) {
        if (e.kind == mm::EventKind::Write) {
          if (e.order != mm::Order::Relaxed || fenced >= static_cast<int>(mm::Scope::Cluster))
            into = hub_of(~0ull, e.loc);
          else if (fenced >= 0)
            return false;
        } else if (e.rmw_pair >= 0) {
          continue;  // the read half of an arrive
        } else if (e.value != 0) {
          from = hub_of(~0ull, e.loc);  // a wait of a completed phase
        }
      } else {
        continue;
      }
      const auto n = static_cast<uint32_t>(g.size());
      g.push_back({static_cast<uint32_t>(t), {}});
      if (prev != ~0u) g[prev].out.push_back(n);
      if (into != ~0u) g[n].out.push_back(into);
      if (from != ~0u) g[from].out.push_back(n);
      prev = n;
    }
  }
  auto kept = [&](uint32_t n) { return g[n].thread != ~0u && keep[g[n].thread]; };
  auto reach = [&](uint32_t from, bool all) {
    std::vector<char> seen(g.size(), 0);
    std::vector<uint32_t> stack{from}, hit;
    seen[from] = 1;
    while (!stack.empty()) {
      uint32_t n = stack.back();
      stack.pop_back();
      if (kept(n)) hit.push_back(n);
      for (uint32_t m : g[n].out)
        if (!seen[m] && (all || g[m].thread == ~0u || keep[g[m].thread])) seen[m] = 1, stack.push_back(m);
    }
    std::sort(hit.begin(), hit.end());
    return hit;
  };
  for (uint32_t n = 0; n < g.size(); ++n)
    if (kept(n) && reach(n, true) != reach(n, false)) return false;
  return true;
}

// The barrier operations of a thread as drop_keeps_order's graph sees
// them: two threads with the same sequence are interchangeable on any
// path through the graph.
std::vector<int64_t> barrier_pattern(const Shared& sh, const ThreadRec& r) {
  std::vector<int64_t> p;
  for (const mm::Event& e : r.events) {
    if (e.kind == mm::EventKind::Barrier && e.bar_id >= 0) {
      p.insert(p.end(), {0, r.cta_uid, e.bar_id, e.bar == mm::BarrierOp::Arrive});
    } else if ((e.kind == mm::EventKind::Write || e.kind == mm::EventKind::Read) && cluster_bar(sh, e.loc)) {
      if (e.kind == mm::EventKind::Read && e.rmw_pair >= 0) continue;
      p.insert(p.end(), {e.kind == mm::EventKind::Write ? 1 : 2, e.loc, e.kind == mm::EventKind::Read && e.value != 0,
                         e.order == mm::Order::Relaxed});
    }
  }
  return p;
}

}  // namespace

Result::Run make_run(const RunView& h, const Shared& sh, const std::vector<std::vector<uint8_t>>& buffers,
                     const std::vector<uint64_t>& out_base) {
  Result::Run run;
  run.colls = h.colls;
  mm::Skeleton& s = run.skeleton;
  add_init_events(run, sh, true);
  // Threads that take part: those with a memory event, and every thread
  // with events of a CTA where some barrier did not gather all live
  // threads (then orders may chain through barrier-only threads).
  // Threads whose only events are barriers and cluster barriers (each
  // cluster.sync() of every thread is an RMW and a read of a phase
  // location) are left out too when that loses no order between the others
  // (drop_keeps_order): 2 CTAs of 64 threads meeting at two cluster.sync()
  // made runs of about 780 events, where only a few threads communicate.
  std::vector<char> keep(h.th.size(), 0), barrier_only(h.th.size(), 0);
  bool some_barrier_only = false;
  for (size_t g = 0; g < h.th.size(); ++g) {
    const ThreadRec& r = h.th[g];
    bool mem = false, cl = false, other = false;
    for (const auto& e : r.events) {
      if (e.kind == mm::EventKind::Read || e.kind == mm::EventKind::Write)
        (cluster_bar(sh, e.loc) ? cl : mem) = true;
      else if (e.kind != mm::EventKind::Barrier)
        other = true;
    }
    keep[g] = mem || cl;
    barrier_only[g] = cl && !mem && !other;
  }
  for (size_t g = 0; g < h.th.size(); ++g) {
    const ThreadRec& r = h.th[g];
    if (!r.seen || r.events.empty()) continue;
    auto it = h.cta_partial.find(r.cta_uid);
    if (it != h.cta_partial.end() && it->second) keep[g] = 1, barrier_only[g] = 0;
    some_barrier_only = some_barrier_only || barrier_only[g];
  }
  if (some_barrier_only) {
    std::vector<char> fewer = keep;
    for (size_t g = 0; g < h.th.size(); ++g)
      if (barrier_only[g]) fewer[g] = 0;
    if (drop_keeps_order(h, sh, fewer)) {
      keep = std::move(fewer);
    } else {
      // Some order goes through them (a thread left before a cluster
      // barrier that others of its CTA reach after a CTA barrier with it):
      // one thread of each barrier pattern is enough to carry it.
      std::set<std::vector<int64_t>> patterns;
      for (size_t g = 0; g < h.th.size(); ++g)
        if (barrier_only[g] && patterns.insert(barrier_pattern(sh, h.th[g])).second) fewer[g] = 1;
      if (drop_keeps_order(h, sh, fewer)) keep = std::move(fewer);
    }
  }
  // The kept arrives of each cluster barrier phase, renumbered in their
  // order: the i-th reads i and writes i + 1, and a wait of the completed
  // phase reads their number (the encoding of hook_barrier.cpp over the
  // threads that stay; unchanged when all do).
  std::map<int, std::vector<uint64_t>> arrived;  // phase location -> old values the kept arrives read
  for (size_t g = 0; g < h.th.size(); ++g)
    if (keep[g])
      for (const auto& e : h.th[g].events)
        if (e.kind == mm::EventKind::Read && e.rmw_pair >= 0 && cluster_bar(sh, e.loc))
          arrived[e.loc].push_back(e.value);
  for (auto& [loc, v] : arrived) std::sort(v.begin(), v.end());
  auto renumber = [&](mm::Event& e) {
    auto it = arrived.find(e.loc);
    if (it == arrived.end()) return;
    const std::vector<uint64_t>& v = it->second;
    auto rank = [&](uint64_t old) {
      return static_cast<uint64_t>(std::lower_bound(v.begin(), v.end(), old) - v.begin());
    };
    if (e.kind == mm::EventKind::Write)
      e.value = rank(e.value - 1) + 1;
    else if (e.rmw_pair >= 0)
      e.value = rank(e.value);
    else if (e.value != 0)
      e.value = v.size();
  };
  for (size_t g = 0; g < h.th.size(); ++g) {
    if (!keep[g]) continue;
    const ThreadRec& r = h.th[g];
    int tix = static_cast<int>(s.threads.size());
    mm::ThreadPlace p;
    p.name = "cta(" + std::to_string(r.cta[0]) + "," + std::to_string(r.cta[1]) + "," + std::to_string(r.cta[2]) +
             ")/t(" + std::to_string(r.tid[0]) + "," + std::to_string(r.tid[1]) + "," + std::to_string(r.tid[2]) + ")";
    p.cta = static_cast<int>(r.cta_uid);
    p.cluster = static_cast<int>(r.cluster);
    p.warp = static_cast<int>(r.cta_uid * 64 + r.warp);
    s.threads.push_back(p);
    s.po.emplace_back();
    int base = static_cast<int>(s.events.size());
    size_t next_any = 0;
    std::vector<int> id_of(r.events.size(), -1);  // record index -> event id
    // Program-order position of each record index (events before it in po),
    // and the skeleton's number of each cp.async with events (-1: none).
    std::vector<int> po_at(r.events.size() + 1, 0);
    std::vector<int> op_of(r.async.size(), -1);
    for (size_t i = 0; i < r.async.size(); ++i)
      if (!r.async[i].mem.empty() || r.async[i].ctx >= 0) {
        op_of[i] = static_cast<int>(s.async_ops.size());
        s.async_ops.emplace_back();
      }
    for (size_t k = 0; k < r.events.size(); ++k) {
      mm::Event e = r.events[k];
      po_at[k + 1] = po_at[k];
      if (e.kind == mm::EventKind::Barrier && e.bar_id < 0) continue;  // never completed
      id_of[k] = static_cast<int>(s.events.size());
      if (e.async_op >= 0) {
        // A cp.async's access (Hook::async_issue): outside program order.
        e.async_op = op_of[static_cast<size_t>(e.async_op)];
        e.thread = tix;
        if (e.rmw_pair >= 0) e.rmw_pair += base;  // a bulk copy's complete_tx
        s.events.push_back(std::move(e));
        run.sources.push_back(r.src[k]);
        continue;
      }
      ++po_at[k + 1];
      while (next_any < r.any_value.size() && static_cast<size_t>(r.any_value[next_any]) < k) ++next_any;
      if (next_any < r.any_value.size() && static_cast<size_t>(r.any_value[next_any]) == k)
        e.any_value = true;  // the engines take any write of the location as its source
      e.thread = tix;
      if ((e.kind == mm::EventKind::Read || e.kind == mm::EventKind::Write) && cluster_bar(sh, e.loc)) renumber(e);
      if (e.rmw_pair >= 0) e.rmw_pair += base;
      s.po.back().push_back(static_cast<int>(s.events.size()));
      s.events.push_back(std::move(e));
      run.sources.push_back(r.src[k]);
    }
    // Dependencies (PTX ISA 8.10.4; ThreadRec::dep_*).
    auto deps = [&](const std::vector<std::pair<int, int>>& from, std::vector<std::pair<int, int>>& to) {
      for (auto [a, b] : from)
        if (id_of[static_cast<size_t>(a)] >= 0 && id_of[static_cast<size_t>(b)] >= 0)
          to.emplace_back(id_of[static_cast<size_t>(a)], id_of[static_cast<size_t>(b)]);
    };
    deps(r.dep_addr, s.addr);
    deps(r.dep_data, s.data);
    deps(r.dep_ctrl, s.ctrl);
    // Its cp.async operations (PTX ISA 8.9.1.1) and the waits that completed them.
    for (size_t i = 0; i < r.async.size(); ++i) {
      if (op_of[i] < 0) continue;
      const ThreadRec::Async& x = r.async[i];
      mm::AsyncOp& op = s.async_ops[static_cast<size_t>(op_of[i])];
      op.kind = x.bulk ? mm::AsyncOpKind::Bulk : mm::AsyncOpKind::CpAsync;
      op.thread = tix;
      op.issued_after = po_at[std::min(x.issue_at, r.events.size())];
      for (int k : x.mem)
        if (id_of[static_cast<size_t>(k)] >= 0) op.mem.push_back(id_of[static_cast<size_t>(k)]);
      if (x.fence >= 0) op.fence = id_of[static_cast<size_t>(x.fence)];
      if (x.ctx >= 0) op.complete_tx = id_of[static_cast<size_t>(x.ctx)];
      for (auto [w, ro] : x.waits) s.async_waits.push_back({op_of[i], tix, po_at[std::min(w, r.events.size())], ro});
    }
  }
  // Output bytes and where each communicating location lies in them.
  run.buffers = buffers;
  for (size_t i = 0; i < sh.locs.size(); ++i) {
    const CommLoc& l = sh.locs[i];
    for (size_t o = 0; o < out_base.size(); ++o) {
      uint64_t base = out_base[o];
      if (l.key >= base && l.key + l.size <= base + run.buffers[o].size())
        run.placement.push_back({static_cast<int>(i), {o, l.key - base}});
    }
  }
  return run;
}

// Rebuilds rmw pairs after barriers that never completed were skipped
// (the two halves of an RMW are adjacent in program order).
void fix_rmw(Result::Run& run) {
  mm::Skeleton& s = run.skeleton;
  for (const auto& po : s.po) {
    for (size_t k = 0; k < po.size(); ++k) {
      mm::Event& e = s.events[static_cast<size_t>(po[k])];
      if (e.rmw_pair < 0) continue;
      // Halves are adjacent in program order (read, then write).
      if (e.kind == mm::EventKind::Read && k + 1 < po.size()) {
        e.rmw_pair = po[k + 1];
        s.events[static_cast<size_t>(po[k + 1])].rmw_pair = po[k];
      }
    }
  }
}

// An execution of a run's skeleton where every read reads from a write of
// the value the run gave it (the engine chooses rf over all writes). A read
// of any value (explore.hpp) may read from any write of its location.
bool reads_their_values(const Result::Run& r, const mm::Execution& ex) {
  const mm::Skeleton& s = r.skeleton;
  // A write of any value (Event::any_value) still writes one value: every
  // read of a value that reads from it reads the same one.
  std::map<int, uint64_t> any_write;
  for (size_t e = 0; e < s.events.size(); ++e) {
    if (s.events[e].kind != mm::EventKind::Read) continue;
    int w = ex.rf[e];
    if (w < 0) return false;
    if (s.events[e].any_value) continue;
    if (s.events[static_cast<size_t>(w)].any_value) {
      if (any_write.try_emplace(w, s.events[e].value).first->second != s.events[e].value) return false;
      continue;
    }
    if (s.events[static_cast<size_t>(w)].value != s.events[e].value) return false;
  }
  return true;
}

Result::Run Composer::build(const std::vector<const UnitTrace*>& pick) const {
  std::vector<ThreadRec> th(nthreads);
  std::map<uint32_t, bool> partial;
  std::map<std::pair<uint32_t, uint32_t>, std::vector<uint64_t>> colls;
  std::vector<std::vector<uint8_t>> bufs = init_out;
  for (const UnitTrace* u : pick) {
    for (const auto& [g, r] : u->th) th[g] = r;
    for (const auto& kv : u->cta_partial) partial.insert(kv);
    for (const auto& kv : u->colls) colls.insert(kv);
    if (!u->buffers.empty()) bufs = u->buffers;
    for (const auto& [at, b] : u->det_bytes) bufs[at.first][at.second] = b;
  }
  // Words exempt updates of several CTAs changed (Hook::commuting_rmw; no
  // CTA writes or reads them otherwise): their initial value with each
  // picked CTA's combined operands applied. A CTA's bytes from its launch
  // would hold the updates of the other CTAs of that launch.
  std::map<std::pair<size_t, size_t>, std::tuple<unsigned, int64_t, uint64_t>> changed;
  for (const UnitTrace* u : pick)
    for (const auto& [at, x] : u->exempt) {
      auto d = sh.det_units.find(out_base[at.first] + at.second);
      if (d == sh.det_units.end() || d->second.x != -2) continue;
      auto [it, fresh] = changed.try_emplace(at, x);
      if (!fresh)
        std::get<2>(it->second) =
            exempt_combine(std::get<1>(x), std::get<2>(it->second), std::get<2>(x), std::get<0>(x));
    }
  for (const auto& [at, x] : changed) {
    const auto [size, cls, ch] = x;
    uint64_t v = 0;
    std::memcpy(&v, &init_out[at.first][at.second], size);
    v = exempt_combine(cls, v, ch, size);
    std::memcpy(&bufs[at.first][at.second], &v, size);
  }
  Result::Run run = make_run(RunView{th, partial, colls}, sh, bufs, out_base);
  fix_rmw(run);
  return run;
}

namespace {

// The completed CTA barrier instances of one unit's threads, numbered in
// the order they completed (Hook::barrier_complete numbers instances over
// the whole launch, so the same barriers of a unit get other numbers in
// another launch; the engines match barrier events by CTA, id and
// occurrence only, PTX ISA 8.9.4 item 2).
using BarRanks = std::map<int, int>;
BarRanks bar_ranks(const std::vector<std::pair<uint32_t, ThreadRec>>& th) {
  BarRanks m;
  for (const auto& [g, r] : th)
    for (const mm::Event& e : r.events)
      if (e.kind == mm::EventKind::Barrier && e.bar_id >= 0) m.emplace(e.bar_id, 0);
  int n = 0;
  for (auto& [id, k] : m) k = n++;
  return m;
}

// The events of thread record `r` that the check of `x` (and `y`) keeps:
// its accesses there, with two locations also its fences and completed CTA
// barriers (renumbered by `ranks`) when it accesses them, but reads of any
// value. Barriers are events too: keeping those of the kept threads keeps
// exactly the synchronization between them that the run has (8.9.4 item
// 2), and the restriction argument (docs/outcomes.md) holds as for fences.
std::vector<mm::Event> project_thread(const ThreadRec& r, int x, int y, const BarRanks* ranks,
                                      std::vector<mm::Event>* loose = nullptr) {
  std::vector<mm::Event> out;
  auto at = [&](const mm::Event& ev) {
    return (ev.kind == mm::EventKind::Read || ev.kind == mm::EventKind::Write) &&
           (ev.loc == x || (y >= 0 && ev.loc == y));
  };
  // With two locations, the fences of a thread that accesses them too.
  const bool fences = y >= 0 && std::any_of(r.events.begin(), r.events.end(), at);
  size_t next_any = 0;
  bool unpair = false;
  for (size_t k = 0; k < r.events.size(); ++k) {
    const mm::Event& ev = r.events[k];
    const bool fence = fences && ev.kind == mm::EventKind::Fence && ev.async_op < 0;
    if (fences && ranks && ev.kind == mm::EventKind::Barrier && ev.bar_id >= 0) {
      out.push_back(ev);
      out.back().bar_id = ranks->at(ev.bar_id);
      out.back().label.clear();
      continue;
    }
    if (!fence && !at(ev)) continue;
    if (ev.async_op >= 0) {
      // A cp.async's access is in no program order (Hook::async_issue): a
      // thread of its own in the projection, ordered with nothing, which
      // only adds executions (a necessary condition still).
      if (loose) {
        loose->push_back(ev);
        loose->back().async_op = -1;
        loose->back().rmw_pair = -1;  // a bulk copy's complete_tx: two plain events here
        loose->back().label.clear();
      }
      continue;
    }
    while (next_any < r.any_value.size() && static_cast<size_t>(r.any_value[next_any]) < k) ++next_any;
    if (!fence && next_any < r.any_value.size() && static_cast<size_t>(r.any_value[next_any]) == k) {
      // A read of any value is left out (docs/outcomes.md: a subset of
      // the events is still a necessary condition); its write half
      // stays, as a plain write.
      unpair = ev.rmw_pair >= 0;
      continue;
    }
    out.push_back(ev);
    if (unpair && ev.kind == mm::EventKind::Write) out.back().rmw_pair = -1;
    unpair = false;
    out.back().label.clear();
  }
  return out;
}

mm::ThreadPlace place_of(const ThreadRec& r) {
  mm::ThreadPlace tp;
  tp.cta = static_cast<int>(r.cta_uid);
  tp.cluster = static_cast<int>(r.cluster);
  tp.warp = static_cast<int>(r.cta_uid * 64 + r.warp);
  return tp;
}

// Appends one thread with `events` (in program order) to a projection.
void add_thread(Result::Run& p, const mm::ThreadPlace& place, const std::vector<mm::Event>& events) {
  mm::Skeleton& q = p.skeleton;
  const int tix = static_cast<int>(q.threads.size());
  q.threads.push_back(place);
  q.po.emplace_back();
  for (const mm::Event& ev : events) {
    q.po.back().push_back(static_cast<int>(q.events.size()));
    q.events.push_back(ev);
    q.events.back().thread = tix;
  }
}

// Two events of a unit's traces at the same place of the same thread are
// the same but maybe for their values.
bool alike(const mm::Event& a, const mm::Event& b) {
  return a.kind == b.kind && a.order == b.order && a.scope == b.scope && a.proxy == b.proxy && a.loc == b.loc &&
         (a.rmw_pair >= 0) == (b.rmw_pair >= 0) && a.reduction == b.reduction && a.pfence == b.pfence &&
         a.fspace == b.fspace && a.async_op == b.async_op && a.bar == b.bar && a.bar_id == b.bar_id &&
         a.bar_count == b.bar_count && a.span == b.span;
}

}  // namespace

std::optional<UnitShape> unit_shape(const std::vector<UnitTrace>& traces, int x, int y) {
  // Plain reads left out at no location, at x, at y, at both.
  for (const int drop : {0, 1, 2, 3}) {
    if ((drop & 2) && y < 0) break;
    std::optional<UnitShape> s;
    bool same = true;
    for (const UnitTrace& t : traces) {
      UnitShape cur;
      const BarRanks ranks = bar_ranks(t.th);
      for (const auto& [g, r] : t.th) {
        std::vector<mm::Event> loose;
        std::vector<mm::Event> ev = project_thread(r, x, y, &ranks, &loose);
        if (!loose.empty()) return std::nullopt;  // cp.async accesses: no shape (the check is left out)
        std::erase_if(ev, [&](const mm::Event& e) {
          return e.kind == mm::EventKind::Read && e.rmw_pair < 0 &&
                 (((drop & 1) && e.loc == x) || ((drop & 2) && e.loc == y));
        });
        if (!ev.empty()) cur.th.push_back({g, place_of(r), std::move(ev)});
      }
      if (!s) {
        s = std::move(cur);
        continue;
      }
      same = s->th.size() == cur.th.size();
      for (size_t i = 0; same && i < cur.th.size(); ++i) {
        UnitShape::Thread &a = s->th[i], &b = cur.th[i];
        same = a.gid == b.gid && a.events.size() == b.events.size();
        for (size_t k = 0; same && k < b.events.size(); ++k) {
          mm::Event &ea = a.events[k], &eb = b.events[k];
          same = alike(ea, eb);
          if (ea.value != eb.value) ea.any_value = true;  // Event::any_value: a read or a write of any value
        }
      }
      if (!same) break;
    }
    // A plain read whose value differs among the traces only adds choices
    // of its source: left out too.
    if (same && s)
      for (auto& t : s->th)
        std::erase_if(t.events, [](const mm::Event& e) {
          return e.kind == mm::EventKind::Read && e.rmw_pair < 0 && e.any_value;
        });
    if (same && s) return s;
  }
  return std::nullopt;
}

Result::Run Composer::project(const std::vector<const UnitTrace*>& pick, int x, int y) const {
  Result::Run p;
  add_init_events(p, sh, false);
  for (const UnitTrace* u : pick) {
    const BarRanks ranks = bar_ranks(u->th);
    for (const auto& [g, r] : u->th) {
      std::vector<mm::Event> loose;
      std::vector<mm::Event> ev = project_thread(r, x, y, &ranks, &loose);
      if (!ev.empty()) add_thread(p, place_of(r), ev);
      for (const mm::Event& e : loose) add_thread(p, place_of(r), {e});
    }
  }
  fix_rmw(p);
  return p;
}

// Why a prefix whose projection with shapes for the other units fails can
// be skipped with every composition that starts with it (docs/outcomes.md,
// "How the search scales", item 2). Let C be such a composition with a
// consistent execution E whose reads read their values. E restricted to
// the events of project(C) is consistent (the argument of the location
// checks: every axiom of PTX ISA 8.10 forbids a cycle or a pattern of rf,
// co, program order and the static predicates of the events, 8.7 morally
// strong, 8.8 release/acquire patterns, 8.9 orders, which removing events
// can only remove), and so is its restriction to the events that remain
// when a later unit's shape left its plain reads out: those are no
// write's, so every kept read keeps its source (8.9.7). What remains is
// the projection with shapes, event by event: the same threads (CTA,
// cluster, warp: the scopes of 8.5), program order, kind, semantics,
// scope, proxy and RMW pairs; only values may differ, where the shape
// says any value. The axioms and the orders they use never look at a value
// (8.9.2-8.9.7 relate operations by reads-from and coherence order), so
// the same rf, co and Fence-SC order are consistent there; and each read
// still reads a write of its value: a read with a value kept its value, a
// write with a value kept its value, a read of any value matches any
// write, and the reads of a value that read one write of any value all
// read the one value that write had in C (reads_their_values asks no
// more). So the projection with shapes has a consistent execution reading
// its values, and when it has none, no such C exists.
Result::Run Composer::project_prefix(const std::vector<const UnitTrace*>& prefix,
                                     const std::vector<const UnitShape*>& rest, int x, int y) const {
  Result::Run p = project(prefix, x, y);
  for (const UnitShape* s : rest)
    for (const UnitShape::Thread& t : s->th) add_thread(p, t.place, t.events);
  fix_rmw(p);
  return p;
}

// Some execution of `r` is consistent and reads the values the run read.
bool feasible(Result::Run& r, mm::Engine& engine, const mm::Model& m, const mm::Limits& lim, uint64_t* skipped) {
  // First a necessary condition without the engine: each read (but those
  // of any value) has a write of its value at its location (the initial
  // write included) to read from.
  const mm::Skeleton& s = r.skeleton;
  for (size_t e = 0; e < s.events.size(); ++e) {
    const mm::Event& rd = s.events[e];
    if (rd.kind != mm::EventKind::Read || rd.async_op >= 0 || rd.any_value) continue;
    const int ph = s.physical(static_cast<int>(e));
    bool src = false;
    for (size_t w = 0; w < s.events.size() && !src; ++w) {
      const mm::Event& wr = s.events[w];
      src = (wr.kind == mm::EventKind::Write || wr.kind == mm::EventKind::Init) &&
            (wr.value == rd.value || wr.any_value) && s.physical(static_cast<int>(w)) == ph;
    }
    if (!src) return false;
  }
  // The visitor stops at the first execution that reads its values, which
  // renaming CTAs keeps (enum_engine.cpp, "Interchangeable CTAs").
  // PTXCHECK_OUTCOMES_NO_SYMMETRY: every execution may be visited (for
  // cross-checks, tests/corpus/outcomes_symmetry.py).
  static const bool symmetry = std::getenv("PTXCHECK_OUTCOMES_NO_SYMMETRY") == nullptr;
  bool any = false;
  mm::Limits one = lim;
  one.exists_only = symmetry;
  const mm::EngineStats st = engine.enumerate(r.skeleton, m, one, [&](const mm::Execution& ex) {
    any = reads_their_values(r, ex);
    return !any;
  });
  if (skipped) *skipped += st.symmetric;
  return any;
}

// What a trace does at location `loc`, as a key: the run's projection on
// `loc` is a function of these keys of its units' traces (threads are
// placed by their gid).
std::string access_key(const UnitTrace& t, int loc, int loc2, bool local) {
  std::string k;
  auto at = [&](const mm::Event& e) {
    return (e.kind == mm::EventKind::Read || e.kind == mm::EventKind::Write) &&
           (e.loc == loc || (loc2 >= 0 && e.loc == loc2));
  };
  // A thread by its gid, or with `local` by its index in its cluster (its
  // CTA's rank there and its index in the CTA).
  auto who = [&](uint32_t g, const ThreadRec& r) {
    return "T" +
           (local ? std::to_string(r.rank) + "." + std::to_string(r.tid[0]) + "," + std::to_string(r.tid[1]) + "," +
                        std::to_string(r.tid[2])
                  : std::to_string(g)) +
           ":";
  };
  const BarRanks ranks = loc2 >= 0 ? bar_ranks(t.th) : BarRanks{};
  for (const auto& [g, r] : t.th) {
    bool head = false;
    size_t next_any = 0;
    const bool fences = loc2 >= 0 && std::any_of(r.events.begin(), r.events.end(), at);
    for (size_t i = 0; i < r.events.size(); ++i) {
      const mm::Event& e = r.events[i];
      if (fences && e.kind == mm::EventKind::Barrier && e.bar_id >= 0) {
        if (!head) k += who(g, r), head = true;
        k += "B" + std::to_string(static_cast<int>(e.bar)) + "," + std::to_string(ranks.at(e.bar_id)) + ";";
        continue;
      }
      if (fences && e.kind == mm::EventKind::Fence && e.async_op < 0) {
        if (!head) k += who(g, r), head = true;
        k += "F" + std::to_string(static_cast<int>(e.order)) + "," + std::to_string(static_cast<int>(e.scope)) + "," +
             std::to_string(static_cast<int>(e.pfence)) + "," + std::to_string(static_cast<int>(e.fspace)) + ";";
        continue;
      }
      if (!at(e)) continue;
      while (next_any < r.any_value.size() && static_cast<size_t>(r.any_value[next_any]) < i) ++next_any;
      const bool any = next_any < r.any_value.size() && static_cast<size_t>(r.any_value[next_any]) == i;
      if (!head) k += who(g, r), head = true;
      if (loc2 >= 0) k += e.loc == loc ? "x" : "y";
      if (e.async_op >= 0) k += "A";  // a cp.async's access (project_thread)
      k += std::to_string(static_cast<int>(e.kind)) + "," + std::to_string(e.value) + "," +
           std::to_string(static_cast<int>(e.order)) + "," + std::to_string(static_cast<int>(e.scope)) + "," +
           std::to_string(static_cast<int>(e.proxy)) + "," + (e.rmw_pair >= 0 ? "r" : "-") + (e.reduction ? "d" : "-") +
           (any ? "a" : "-") + ";";
    }
  }
  return k;
}

}  // namespace ptxcheck::outcomes
