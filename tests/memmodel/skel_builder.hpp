// Builds memory-model Skeletons by hand for the litmus shapes of the tests:
// declare locations and threads, append operations per thread, then
// build(): init writes first, then each thread's events in program order.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "memmodel/engine.hpp"
#include "memmodel/events.hpp"
#include "memmodel/names.hpp"

namespace ptxcheck::mm::test {

class SkelBuilder {
 public:
  // A new physical location (alias_of < 0) or an alias of location alias_of.
  // A generic alias gets its own virtual address; a proxy alias shares it.
  int loc(const std::string& name, uint64_t init = 0, int alias_of = -1, Proxy proxy = Proxy::Generic) {
    Location l;
    l.name = name;
    l.init = init;
    l.proxy = proxy;
    if (alias_of < 0) {
      l.physical = num_physical_++;
    } else {
      l.physical = s_.locations[alias_of].physical;
      if (proxy != Proxy::Generic) l.vaddr = vaddr(alias_of);
    }
    s_.locations.push_back(l);
    return static_cast<int>(s_.locations.size()) - 1;
  }
  int thread(int cta = 0, int gpu = 0) {
    ThreadPlace t;
    t.name = "P" + std::to_string(ops_.size());
    t.cta = t.cluster = cta;
    t.gpu = gpu;
    s_.threads.push_back(t);
    ops_.emplace_back();
    return static_cast<int>(ops_.size()) - 1;
  }
  // Each returns the index of the op within its thread (use id() after build()).
  int st(int t, int l, uint64_t v, Order o = Order::Weak, Scope sc = Scope::Sys) {
    return push(t, mem(EventKind::Write, l, v, o, sc));
  }
  int ld(int t, int l, uint64_t v, Order o = Order::Weak, Scope sc = Scope::Sys) {
    return push(t, mem(EventKind::Read, l, v, o, sc));
  }
  // An atom/red: reads `rv`, writes `wv`. The order splits as Dat3M does:
  // acquire part to the read, release part to the write.
  int rmw(int t, int l, uint64_t rv, uint64_t wv, Order o, Scope sc, bool red = false) {
    const Order ro = (o == Order::Acquire || o == Order::AcqRel) ? Order::Acquire : Order::Relaxed;
    const Order wo = (o == Order::Release || o == Order::AcqRel) ? Order::Release : Order::Relaxed;
    Event r = mem(EventKind::Read, l, rv, ro, sc);
    r.reduction = red;
    int i = push(t, r);
    push(t, mem(EventKind::Write, l, wv, wo, sc));
    pairs_.push_back({t, i});
    return i;
  }
  int fence(int t, Order o, Scope sc) {
    Event e;
    e.kind = EventKind::Fence;
    e.order = o;
    e.scope = sc;
    return push(t, e);
  }
  int pfence(int t, ProxyFenceKind k, StateSpace fspace = StateSpace::Any) {
    Event e;
    e.kind = EventKind::ProxyFence;
    e.pfence = k;
    e.fspace = fspace;
    return push(t, e);
  }
  void space(int l, StateSpace sp) { s_.locations[l].space = sp; }

  // Asynchronous operations (PTX ISA 8.9.1.1), issued by thread t after its
  // operations so far. Returns the operation's index; add its events with
  // async_read/async_write (memory operations, in the operation's proxy),
  // async_fence (the implicit generic-async proxy fence) and complete_tx (a
  // release.cluster write of `v` to the mbarrier location `bar`).
  int async(int t, AsyncOpKind k) {
    AsyncOp op;
    op.kind = k;
    op.thread = t;
    op.issued_after = static_cast<int>(ops_[t].size());
    aops_.push_back(op);
    aevents_.emplace_back();
    return static_cast<int>(aops_.size()) - 1;
  }
  void async_read(int op, int l, uint64_t v) { apush(op, mem(EventKind::Read, l, v, Order::Weak, Scope::Sys), 'm'); }
  void async_write(int op, int l, uint64_t v) { apush(op, mem(EventKind::Write, l, v, Order::Weak, Scope::Sys), 'm'); }
  void async_fence(int op) {
    Event e;
    e.kind = EventKind::ProxyFence;
    e.pfence = ProxyFenceKind::Async;
    apush(op, e, 'f');
  }
  void complete_tx(int op, int bar, uint64_t v) { apush(op, mem(EventKind::Write, bar, v, Order::Release, Scope::Cluster), 'c'); }
  // cp.async.bulk.wait_group by thread t at its current position.
  void wait(int t, int op, bool reads_only = false) {
    AsyncWait w;
    w.op = op;
    w.thread = t;
    w.before = static_cast<int>(ops_[t].size());
    w.reads_only = reads_only;
    waits_.push_back(w);
  }
  int bar(int t, int id, BarrierOp op = BarrierOp::Sync, int count = -1) {
    Event e;
    e.kind = EventKind::Barrier;
    e.bar = op;
    e.bar_id = id;
    e.bar_count = count;
    return push(t, e);
  }
  void data(int t, int from, int to) { deps_.push_back({t, from, to}); }

  Skeleton build() {
    Skeleton s = s_;
    for (int l = 0; l < static_cast<int>(s.locations.size()); ++l) {
      if (s.locations[l].proxy != Proxy::Generic || s.locations[l].vaddr >= 0) continue;
      bool first = true;  // one initial write per physical location
      for (int k = 0; k < l; ++k)
        if (s.locations[k].physical == s.locations[l].physical) first = false;
      if (!first) continue;
      Event e;
      e.kind = EventKind::Init;
      e.loc = l;
      e.value = s.locations[l].init;
      s.events.push_back(e);
    }
    base_.clear();
    s.po.assign(ops_.size(), {});
    for (size_t t = 0; t < ops_.size(); ++t) {
      base_.push_back(static_cast<int>(s.events.size()));
      for (Event e : ops_[t]) {
        e.thread = static_cast<int>(t);
        s.po[t].push_back(static_cast<int>(s.events.size()));
        s.events.push_back(e);
      }
    }
    for (auto [t, i] : pairs_) {
      s.events[id(t, i)].rmw_pair = id(t, i + 1);
      s.events[id(t, i + 1)].rmw_pair = id(t, i);
    }
    for (auto [t, a, b] : deps_) s.data.emplace_back(id(t, a), id(t, b));
    for (size_t k = 0; k < aops_.size(); ++k) {
      AsyncOp op = aops_[k];
      for (auto [e, role] : aevents_[k]) {
        e.thread = op.thread;
        e.async_op = static_cast<int>(k);
        if (role == 'm') e.proxy = async_op_proxy(op.kind);
        const int id = static_cast<int>(s.events.size());
        s.events.push_back(e);
        if (role == 'm') op.mem.push_back(id);
        if (role == 'f') op.fence = id;
        if (role == 'c') op.complete_tx = id;
      }
      s.async_ops.push_back(op);
    }
    s.async_waits = waits_;
    return s;
  }
  int id(int t, int i) const { return base_[t] + i; }

 private:
  int vaddr(int l) const { return s_.locations[l].vaddr < 0 ? l : s_.locations[l].vaddr; }
  Event mem(EventKind k, int l, uint64_t v, Order o, Scope sc) {
    Event e;
    e.kind = k;
    e.loc = l;
    e.value = v;
    e.order = o;
    e.scope = sc;
    e.proxy = s_.locations[l].proxy;
    return e;
  }
  int push(int t, const Event& e) {
    ops_[t].push_back(e);
    return static_cast<int>(ops_[t].size()) - 1;
  }
  void apush(int op, const Event& e, char role) { aevents_[op].emplace_back(e, role); }
  Skeleton s_;
  std::vector<AsyncOp> aops_;
  std::vector<std::vector<std::pair<Event, char>>> aevents_;
  std::vector<AsyncWait> waits_;
  int num_physical_ = 0;
  std::vector<std::vector<Event>> ops_;
  std::vector<std::pair<int, int>> pairs_;
  struct Dep {
    int t, from, to;
  };
  std::vector<Dep> deps_;
  std::vector<int> base_;
};

struct Result {
  uint64_t executions = 0;
  std::vector<Execution> all;
};

inline Result run(const Skeleton& s, const Model& m = {}) {
  Result r;
  auto eng = make_enum_engine();
  eng->enumerate(s, m, {}, [&](const Execution& ex) {
    r.all.push_back(ex);
    ++r.executions;
    return true;
  });
  return r;
}

inline bool allowed(const Skeleton& s, const Model& m = {}) { return run(s, m).executions > 0; }

inline Model model(ModelKind k) {
  Model m;
  m.kind = k;
  return m;
}

}  // namespace ptxcheck::mm::test
