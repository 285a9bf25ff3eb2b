// Skeleton-only relations (see static_relations.hpp). Each definition cites
// PTX ISA 9.2 chapter 8 and, where the text leaves room, follows Dat3M's
// cat models; docs/model-notes.md gives the arguments.
#include "memmodel/static_relations.hpp"

#include "memmodel/names.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace ptxcheck::mm {

// PTX ISA 8.5 Scope: the set of threads a scope names, relative to thread a.
// CTA identity is (gpu, cta); a cluster is (gpu, cluster).
bool scope_includes(const Skeleton& s, Scope sc, int a, int b) {
  if (a < 0 || b < 0) return false;
  const ThreadPlace& ta = s.threads[a];
  const ThreadPlace& tb = s.threads[b];
  switch (sc) {
    case Scope::CTA: return ta.gpu == tb.gpu && ta.cta == tb.cta;
    case Scope::Cluster: return ta.gpu == tb.gpu && (ta.cluster == tb.cluster || ta.cta == tb.cta);
    case Scope::GPU: return ta.gpu == tb.gpu;
    case Scope::Sys: return true;
  }
  return false;
}

namespace {

bool is_fence_like(const Event& e) {
  return e.kind == EventKind::Fence || e.kind == EventKind::ProxyFence || e.kind == EventKind::Barrier;
}

// 8.4: strong = not weak. Init writes carry no order and are never strong.
bool is_strong_mem(const Event& e) {
  return (e.kind == EventKind::Read || e.kind == EventKind::Write) && e.order != Order::Weak;
}

// The proxy tag of an event (Dat3M: GEN/TEX/SUR/CON), or -1 for none.
// Memory fences are generic; proxy fences carry the proxy they order;
// alias fences and barriers carry none.
int proxy_tag(const Event& e) {
  switch (e.kind) {
    case EventKind::Read:
    case EventKind::Write:
    case EventKind::Init: return static_cast<int>(e.proxy);
    case EventKind::Fence: return static_cast<int>(Proxy::Generic);
    case EventKind::ProxyFence:
      switch (e.pfence) {
        // fence.proxy.async: "memory ordering is established between the
        // async proxy and the generic proxy" (PTX ISA 9.7.13.4); also the
        // implicit generic-async proxy fence of a completed bulk operation.
        case ProxyFenceKind::Async: return static_cast<int>(Proxy::Async);
        case ProxyFenceKind::Texture: return static_cast<int>(Proxy::Texture);
        case ProxyFenceKind::Surface: return static_cast<int>(Proxy::Surface);
        case ProxyFenceKind::Constant: return static_cast<int>(Proxy::Constant);
        default: return -1;
      }
    case EventKind::Barrier: return -1;
  }
  return -1;
}

// PTX ISA 9.7.13.4: a proxy fence with a state space orders only accesses
// to objects in that state space; without one, all state spaces.
bool fence_covers(const Skeleton& s, const Event& f, const Event& m) {
  if (f.fspace == StateSpace::Any || m.loc < 0) return true;
  return s.locations[m.loc].space == f.fspace;
}

// PTX ISA 8.9.1.1 Asynchronous operations: the ordering the text and the
// instruction descriptions give an operation (Skeleton::async_ops).
void build_async(const Skeleton& s, StaticRelations& r) {
  for (const AsyncOp& op : s.async_ops) {
    std::vector<int> reads, writes;
    for (int e : op.mem) (s.events[e].kind == EventKind::Read ? reads : writes).push_back(e);
    // A copy (or reduction) writes what it read: reads before writes.
    for (int a : reads)
      for (int b : writes) r.async_order.add(a, b);
    // Completion is followed by the implicit generic-async proxy fence
    // (9.7.9.25.2), and the complete-tx signals completion (9.7.13.15.5.2);
    // it "is ordered only with respect to the memory operations performed by
    // the same asynchronous instruction" (8.9.1.1).
    std::vector<int> done = op.mem;
    if (op.fence >= 0) {
      for (int a : done) r.async_order.add(a, op.fence);
      done.push_back(op.fence);
    }
    if (op.complete_tx >= 0)
      for (int a : done) r.async_order.add(a, op.complete_tx);
    // 8.9.1.1: "ordered after prior instructions in the same thread (except
    // in the case of wgmma.mma_async)"; the memory operations only.
    if (async_op_issue_ordered(op.kind) && op.thread >= 0 && op.thread < static_cast<int>(s.po.size())) {
      const auto& po = s.po[op.thread];
      for (int i = 0; i < op.issued_after && i < static_cast<int>(po.size()); ++i)
        for (int b : op.mem) r.async_issue.add(po[i], b);
    }
  }
  // Async-group completion (9.7.9.25.1.1; cp.async.bulk.wait_group): the
  // operation's writes made visible to the executing thread, or with .read
  // only its reads of the source complete.
  for (const AsyncWait& w : s.async_waits) {
    if (w.op < 0 || w.op >= static_cast<int>(s.async_ops.size())) continue;
    if (w.thread < 0 || w.thread >= static_cast<int>(s.po.size())) continue;
    const AsyncOp& op = s.async_ops[w.op];
    std::vector<int> from;
    for (int e : op.mem)
      if (!w.reads_only || s.events[e].kind == EventKind::Read) from.push_back(e);
    if (!w.reads_only && op.fence >= 0) from.push_back(op.fence);
    const auto& po = s.po[w.thread];
    for (int i = std::max(w.before, 0); i < static_cast<int>(po.size()); ++i)
      for (int a : from) r.async_order.add(a, po[i]);
  }
}

int vaddr_of(const Skeleton& s, int loc) {
  int v = s.locations[loc].vaddr;
  return v < 0 ? loc : v;
}

// Barrier matching (8.9.4 item 2): the k-th barrier with id i executed by a
// thread pairs with the k-th barrier with id i of every other thread of the
// same CTA. bar.sync/red/arrive synchronize with bar.sync/red, never with an
// arrive (which does not wait).
void add_sync(const Skeleton& s, Relation& r, int a, int b) {
  if (a == b || s.events[a].thread == s.events[b].thread) return;
  if (s.events[b].bar == BarrierOp::Arrive) return;
  r.add(a, b);
}

// All q-subsets of `evs`, as index vectors.
void subsets(int n, int q, int from, std::vector<int>& cur, std::vector<std::vector<int>>& out) {
  if (static_cast<int>(cur.size()) == q) {
    out.push_back(cur);
    return;
  }
  for (int i = from; i < n; ++i) {
    cur.push_back(i);
    subsets(n, q, i + 1, cur, out);
    cur.pop_back();
  }
}

void build_barriers(const Skeleton& s, StaticRelations& r) {
  // (gpu, cta, id, k) -> barrier events
  std::map<std::tuple<int, int, int, int>, std::vector<int>> inst;
  for (size_t t = 0; t < s.po.size(); ++t) {
    std::map<int, int> occ;
    for (int e : s.po[t]) {
      const Event& ev = s.events[e];
      if (ev.kind != EventKind::Barrier) continue;
      const ThreadPlace& tp = s.threads[t];
      inst[{tp.gpu, tp.cta, ev.bar_id, occ[ev.bar_id]++}].push_back(e);
    }
  }
  r.sync_barrier_choices.assign(1, Relation(r.n));
  for (auto& [key, evs] : inst) {
    int q = -1;
    for (int e : evs)
      if (s.events[e].bar_count > 0) q = s.events[e].bar_count;
    const int n = static_cast<int>(evs.size());
    if (q > n) {
      r.barrier_hangs = true;
      continue;
    }
    if (q < 0 || q == n) {
      for (Relation& choice : r.sync_barrier_choices)
        for (int a : evs)
          for (int b : evs) add_sync(s, choice, a, b);
      continue;
    }
    // Dat3M's quorum tests (litmus/PTX/Barrier/quorum*): the first q
    // arrivals complete the barrier; the rest are ordered after them.
    std::vector<std::vector<int>> firsts;
    std::vector<int> cur;
    subsets(n, q, 0, cur, firsts);
    std::vector<Relation> next;
    for (const Relation& base : r.sync_barrier_choices)
      for (const auto& first : firsts) {
        Relation choice = base;
        std::vector<bool> in(n, false);
        for (int i : first) in[i] = true;
        for (int i = 0; i < n; ++i)
          for (int j = 0; j < n; ++j)
            if (in[i]) add_sync(s, choice, evs[i], evs[j]);
        next.push_back(std::move(choice));
      }
    r.sync_barrier_choices = std::move(next);
  }
  r.sync_barrier = r.sync_barrier_choices.front();
  for (const Relation& c : r.sync_barrier_choices) r.sync_barrier &= c;
}

}  // namespace

StaticRelations build_static(const Skeleton& s, const Model& m) {
  const int n = static_cast<int>(s.events.size());
  StaticRelations r;
  r.n = n;
  for (EventSet* es : {&r.init, &r.reads, &r.writes, &r.mem, &r.fences, &r.sc_fences, &r.rel_fences,
                       &r.acq_fences, &r.alias_fences, &r.barriers, &r.strong_writes, &r.strong_reads,
                       &r.rel_writes, &r.acq_reads, &r.generic, &r.async_events})
    *es = EventSet(n);
  for (Relation* rel : {&r.po, &r.same_thread, &r.loc, &r.vloc, &r.same_proxy, &r.scta, &r.sr, &r.ms,
                        &r.rmw, &r.dep, &r.release_pattern, &r.acquire_pattern, &r.proxy_fence_ops,
                        &r.sync_barrier, &r.sc_fence_pairs, &r.async_order, &r.ord, &r.async_issue})
    *rel = Relation(n);

  for (const Location& l : s.locations) r.num_physical = std::max(r.num_physical, l.physical + 1);
  r.init_of_physical.assign(r.num_physical, -1);

  for (int e = 0; e < n; ++e) {
    const Event& ev = s.events[e];
    switch (ev.kind) {
      case EventKind::Init:
        r.init.set(e);
        r.writes.set(e);
        if (r.init_of_physical[s.physical(e)] < 0) r.init_of_physical[s.physical(e)] = e;
        break;
      case EventKind::Read: r.reads.set(e); break;
      case EventKind::Write: r.writes.set(e); break;
      default: break;
    }
    if (is_fence_like(ev)) r.fences.set(e);
    if (ev.kind == EventKind::Barrier) r.barriers.set(e);
    if (ev.kind == EventKind::ProxyFence && ev.pfence == ProxyFenceKind::Alias) r.alias_fences.set(e);
    if (ev.kind == EventKind::Fence) {
      const bool sc = ev.order == Order::SC;
      if (sc) r.sc_fences.set(e);
      // PTX ISA 8.8 form 3; fence.sc counts as acq_rel under fence_sc_is_acq_rel
      // (the MP litmus test of 8.10.6 uses `fence.sys` as the release fence).
      const bool acqrel = ev.order == Order::AcqRel || (sc && m.fence_sc_is_acq_rel);
      if (acqrel || ev.order == Order::Release) r.rel_fences.set(e);
      if (acqrel || ev.order == Order::Acquire) r.acq_fences.set(e);
    }
    if (is_strong_mem(ev)) {
      if (ev.kind == EventKind::Write) r.strong_writes.set(e);
      if (ev.kind == EventKind::Read) r.strong_reads.set(e);
    }
    if (ev.kind == EventKind::Write &&
        (ev.order == Order::Release || ev.order == Order::AcqRel || ev.order == Order::SC))
      r.rel_writes.set(e);
    if (ev.kind == EventKind::Read &&
        (ev.order == Order::Acquire || ev.order == Order::AcqRel || ev.order == Order::SC) &&
        !(ev.reduction && !m.reductions_acquire))
      r.acq_reads.set(e);
    if (proxy_tag(ev) == static_cast<int>(Proxy::Generic) && ev.kind != EventKind::Init) r.generic.set(e);
    if (ev.rmw_pair >= 0 && ev.kind == EventKind::Read) r.rmw.add(e, ev.rmw_pair);
    if (ev.async_op >= 0) r.async_events.set(e);
  }
  r.mem = r.reads | r.writes;

  // Program order (8.9.1): per thread, strict total order.
  for (const auto& thread : s.po)
    for (size_t i = 0; i < thread.size(); ++i)
      for (size_t j = 0; j < thread.size(); ++j) {
        r.same_thread.add(thread[i], thread[j]);
        if (i < j) r.po.add(thread[i], thread[j]);
      }
  build_async(s, r);
  r.ord = (r.po | r.async_order).plus();

  for (int a = 0; a < n; ++a) {
    const Event& ea = s.events[a];
    for (int b = 0; b < n; ++b) {
      const Event& eb = s.events[b];
      if (r.mem.has(a) && r.mem.has(b)) {
        if (s.physical(a) == s.physical(b)) r.loc.add(a, b);
        if (vaddr_of(s, ea.loc) == vaddr_of(s, eb.loc) && s.physical(a) == s.physical(b)) r.vloc.add(a, b);
      }
      const int pa = proxy_tag(ea), pb = proxy_tag(eb);
      if (pa >= 0 && pa == pb) r.same_proxy.add(a, b);
      if (ea.thread >= 0 && eb.thread >= 0) {
        const ThreadPlace& ta = s.threads[ea.thread];
        const ThreadPlace& tb = s.threads[eb.thread];
        if (ta.gpu == tb.gpu && ta.cta == tb.cta) r.scta.add(a, b);
        // 8.7 condition 1, second half: each specifies a scope that includes
        // the other's thread. Proxy fences and barriers carry no scope.
        const bool scoped_a = is_strong_mem(ea) || ea.kind == EventKind::Fence;
        const bool scoped_b = is_strong_mem(eb) || eb.kind == EventKind::Fence;
        if (scoped_a && scoped_b && scope_includes(s, ea.scope, ea.thread, eb.thread) &&
            scope_includes(s, eb.scope, eb.thread, ea.thread))
          r.sr.add(a, b);
      }
    }
  }

  // PTX ISA 8.7 Morally strong: (po | po^-1 | [strong]; sr; [strong]) & same
  // proxy & (complete overlap if both are memory operations), minus identity.
  // Overlap is same virtual address under PTX75 (Dat3M v7.5: aliases are not
  // morally strong, 8.6) and same physical location under PTX6.
  {
    const EventSet strong_ops = r.strong_writes | r.strong_reads | (r.fences - r.barriers);
    Relation ms1 = r.po | r.po.inverse() | r.sr.restrict(strong_ops, strong_ops);
    const Relation& overlap = m.kind == ModelKind::PTX6 ? r.loc : r.vloc;
    const EventSet all = EventSet::full(n);
    const EventSet nm = all - r.mem;
    const Relation nonmem = Relation::product(nm, all) | Relation::product(all, nm);
    Relation same_proxy = m.kind == ModelKind::PTX6 ? Relation::product(all, all) : r.same_proxy;
    r.ms = ms1 & same_proxy & (overlap | nonmem);
    for (int e = 0; e < n; ++e) r.ms.remove(e, e);
    // Granule events of accesses of two threads with different byte ranges
    // (Event::span) overlap only partially (8.2.1): not morally strong. In
    // one thread, program order already orders them (8.9.5 base causality;
    // kept morally strong so that 8.10.5 orders them under PTX6 too, whose
    // causality order has no bare program order).
    if (std::any_of(s.events.begin(), s.events.end(), [](const Event& e) { return e.span != 0; }))
      for (auto [a, b] : r.ms.pairs())
        if (s.events[a].span != s.events[b].span && r.mem.has(a) && r.mem.has(b) && !r.same_thread.has(a, b))
          r.ms.remove(a, b);
  }

  for (auto [a, b] : s.addr) r.dep.add(a, b);
  for (auto [a, b] : s.data) r.dep.add(a, b);
  for (auto [a, b] : s.ctrl) r.dep.add(a, b);

  // PTX ISA 8.8 release patterns (Dat3M form): [W & REL]; po-loc?; [strong-W]
  // covers forms 1 and 2; [F & REL]; po; [strong-W] is form 3.
  {
    const Relation& poloc = r.po & (m.kind == ModelKind::PTX6 ? r.loc : r.vloc);
    Relation opt = poloc.optional();
    r.release_pattern = opt.restrict(r.rel_writes, r.strong_writes) | r.po.restrict(r.rel_fences, r.strong_writes);
    // 8.11.1: the strong read of a reduction never starts an acquire pattern.
    EventSet acq_start = r.strong_reads;
    if (!m.reductions_acquire)
      for (int e : r.strong_reads.elements())
        if (s.events[e].reduction) acq_start.set(e, false);
    r.acquire_pattern = opt.restrict(acq_start, r.acq_reads) | r.po.restrict(acq_start, r.acq_fences);
  }

  // Dat3M proxy-fence-ops = [F]; (same-proxy & scta); [M], and the fence's
  // state space covers the access (PTX ISA 9.7.13.4).
  r.proxy_fence_ops = (r.same_proxy & r.scta).restrict(r.fences, r.mem);
  for (auto [f, x] : r.proxy_fence_ops.pairs())
    if (!fence_covers(s, s.events[f], s.events[x])) r.proxy_fence_ops.remove(f, x);

  build_barriers(s, r);

  // PTX ISA 8.9.3: Fence-SC order relates every morally strong fence.sc pair.
  for (int a : r.sc_fences.elements())
    for (int b : r.sc_fences.elements())
      if (a != b && (r.po.has(a, b) || r.po.has(b, a) || r.sr.has(a, b))) r.sc_fence_pairs.add(a, b);
  return r;
}

}  // namespace ptxcheck::mm
