// Hand-built and random Skeletons for the Z3 engine tests; see z3_shapes.hpp.
#include "tests/z3/z3_shapes.hpp"

#include <algorithm>
#include <random>

#include "tests/memmodel/skel_builder.hpp"

namespace ptxcheck::mm::z3test {

using test::SkelBuilder;

// PTX ISA 8.10.4: LB reading 1 twice; with deps each store copies its load.
Skeleton lb(bool deps) {
  SkelBuilder b;
  int x = b.loc("x"), y = b.loc("y");
  int p0 = b.thread(), p1 = b.thread();
  int r0 = b.ld(p0, x, 1);
  int w0 = b.st(p0, y, 1);
  int r1 = b.ld(p1, y, 1);
  int w1 = b.st(p1, x, 1);
  if (deps) b.data(p0, r0, w0), b.data(p1, r1, w1);
  return b.build();
}

// IRIW: two writers, two readers seeing the writes in opposite orders.
Skeleton iriw(Order fence) {
  SkelBuilder b;
  int x = b.loc("x"), y = b.loc("y");
  int p0 = b.thread(), p1 = b.thread(), p2 = b.thread(), p3 = b.thread();
  b.st(p0, x, 1, Order::Relaxed, Scope::GPU);
  b.st(p1, y, 1, Order::Relaxed, Scope::GPU);
  for (auto [t, a, c] : {std::tuple{p2, x, y}, std::tuple{p3, y, x}}) {
    b.ld(t, a, 1, Order::Relaxed, Scope::GPU);
    if (fence != Order::Weak) b.fence(t, fence, Scope::GPU);
    b.ld(t, c, 0, Order::Relaxed, Scope::GPU);
  }
  return b.build();
}

// PTX ISA 8.10.5 CoRR: after reading the new value, a later read of the
// same location cannot return the initial one.
Skeleton corr(Order o) {
  SkelBuilder b;
  int x = b.loc("x");
  int p0 = b.thread(), p1 = b.thread();
  b.st(p0, x, 1, o == Order::Weak ? Order::Weak : Order::Relaxed, Scope::Sys);
  b.ld(p1, x, 1, o, Scope::Sys);
  b.ld(p1, x, 0, o, Scope::Sys);
  return b.build();
}

Skeleton two_two_w(Order o) {
  SkelBuilder b;
  int x = b.loc("x"), y = b.loc("y");
  int p0 = b.thread(), p1 = b.thread();
  b.st(p0, x, 1, o, Scope::GPU);
  b.st(p0, y, 2, o, Scope::GPU);
  b.st(p1, y, 1, o, Scope::GPU);
  b.st(p1, x, 2, o, Scope::GPU);
  return b.build();
}

// PTX ISA 8.10.3 Litmus Tests 1 and 2: two increments both reading 0.
Skeleton atomic_inc(Scope s0, Scope s1, int cta1) {
  SkelBuilder b;
  int x = b.loc("x");
  int p0 = b.thread(0), p1 = b.thread(cta1);
  b.rmw(p0, x, 0, 1, Order::Relaxed, s0);
  b.rmw(p1, x, 0, 1, Order::Relaxed, s1);
  return b.build();
}

// PTX ISA 8.9.4 item 2: bar.sync orders a store before a load of another
// thread of the same CTA.
Skeleton mp_barrier(int cta1, BarrierOp op0) {
  SkelBuilder b;
  int x = b.loc("x");
  int p0 = b.thread(0), p1 = b.thread(cta1);
  b.st(p0, x, 1);
  b.bar(p0, 0, op0);
  b.bar(p1, 0, BarrierOp::Sync);
  b.ld(p1, x, 0);
  return b.build();
}

// PTX ISA 8.10.6 Litmus Test CoWR: virtual aliases need an alias proxy
// fence between the write through one and the read through the other.
Skeleton cowr_alias(bool alias_fence) {
  SkelBuilder b;
  int x = b.loc("x");
  int y = b.loc("y", 0, x);  // generic alias of x
  int p0 = b.thread();
  b.st(p0, x, 1);
  if (alias_fence) b.pfence(p0, ProxyFenceKind::Alias);
  b.ld(p0, y, 0);
  return b.build();
}

// MP through an atomic in a third thread: release write -> RMW -> acquire.
Skeleton mp_rmw_chain(Order rmw_order, bool red) {
  SkelBuilder b;
  int x = b.loc("x"), f = b.loc("flag");
  int p0 = b.thread(), p1 = b.thread(), p2 = b.thread();
  b.st(p0, x, 1);
  b.st(p0, f, 1, Order::Release, Scope::GPU);
  b.rmw(p1, f, 1, 2, rmw_order, Scope::GPU, red);
  b.ld(p2, f, 2, Order::Acquire, Scope::GPU);
  b.ld(p2, x, 0);
  return b.build();
}

// Three threads at a barrier that completes with two (Dat3M's quorum tests):
// which two arrive first is a runtime choice.
Skeleton quorum(int count) {
  SkelBuilder b;
  int x = b.loc("x");
  int p0 = b.thread(), p1 = b.thread(), p2 = b.thread();
  b.st(p0, x, 1);
  b.bar(p0, 0, BarrierOp::Sync, count);
  b.bar(p1, 0, BarrierOp::Sync, count);
  b.ld(p1, x, 0);
  b.bar(p2, 0, BarrierOp::Sync, count);
  b.ld(p2, x, 1);
  return b.build();
}

std::vector<Shape> catalogue() {
  std::vector<Shape> out;
  for (Order so : {Order::Relaxed, Order::Release})
    for (Order lo : {Order::Relaxed, Order::Acquire})
      for (int cta : {0, 1}) out.push_back({"mp", mp(so, lo, Scope::CTA, cta)});
  for (Order fo : {Order::SC, Order::AcqRel, Order::Release})
    for (Order flag : {Order::Weak, Order::Relaxed}) out.push_back({"mp-fences", mp_fences(fo, flag)});
  for (Order fo : {Order::Weak, Order::SC, Order::AcqRel}) out.push_back({"sb", sb(fo)});
  out.push_back({"sb-cta-fences", sb(Order::SC, Scope::CTA, 1)});
  for (bool d : {false, true}) out.push_back({"lb", lb(d)});
  for (Order fo : {Order::Weak, Order::SC, Order::AcqRel}) out.push_back({"iriw", iriw(fo)});
  for (Order o : {Order::Weak, Order::Relaxed}) out.push_back({"corr", corr(o)});
  for (Order o : {Order::Weak, Order::Relaxed, Order::Release}) out.push_back({"2+2w", two_two_w(o)});
  out.push_back({"atomic-sys", atomic_inc(Scope::Sys, Scope::Sys, 0)});
  out.push_back({"atomic-cta-gpu", atomic_inc(Scope::CTA, Scope::GPU, 1)});
  for (int cta : {0, 1}) out.push_back({"mp-bar", mp_barrier(cta)});
  out.push_back({"mp-bar-arrive", mp_barrier(0, BarrierOp::Arrive)});
  for (bool af : {false, true}) out.push_back({"cowr-alias", cowr_alias(af)});
  for (bool red : {false, true}) out.push_back({"mp-rmw", mp_rmw_chain(Order::Relaxed, red)});
  for (int q : {1, 2, 3, 4}) out.push_back({"quorum", quorum(q)});
  for (bool f : {false, true})
    for (uint64_t v : {0, 1}) out.push_back({"bulk-store", test::bulk_store(f, StateSpace::Any, v, v)});
  out.push_back({"bulk-store-global-fence", test::bulk_store(true, StateSpace::Global, 0, 0)});
  for (bool rd : {false, true}) out.push_back({"bulk-store-wait", test::bulk_store(true, StateSpace::Any, 1, 0, rd)});
  for (bool rel : {false, true})
    for (uint64_t v : {0, 7}) out.push_back({"bulk-load-mbarrier", test::bulk_load_mbarrier(rel, v, 0)});
  return out;
}

Skeleton random_skeleton(uint32_t seed) {
  std::mt19937 rng(seed);
  auto pick = [&](int n) { return int(rng() % uint32_t(n)); };
  SkelBuilder b;
  const int nloc = 1 + pick(2);
  std::vector<int> locs;
  for (int l = 0; l < nloc; ++l) locs.push_back(b.loc(l == 0 ? "x" : "y"));
  if (pick(6) == 0) locs.push_back(b.loc("xa", 0, locs[0]));  // a generic alias of x
  const int nthreads = 2 + pick(2);
  std::vector<int> next_value(locs.size(), 1);
  const Scope scopes[] = {Scope::CTA, Scope::GPU, Scope::Sys};
  for (int t = 0; t < nthreads; ++t) {
    const int p = b.thread(pick(2));
    const int nops = 1 + pick(4);
    int last_read = -1;
    for (int i = 0; i < nops; ++i) {
      const int li = pick(int(locs.size()));
      const int l = locs[li];
      const Scope sc = scopes[pick(3)];
      const int k = pick(10);
      if (k < 3) {
        const Order o = std::array{Order::Weak, Order::Relaxed, Order::Release}[pick(3)];
        const int w = b.st(p, l, next_value[li]++ , o, sc);
        if (last_read >= 0 && pick(3) == 0) b.data(p, last_read, w);
      } else if (k < 6) {
        const Order o = std::array{Order::Weak, Order::Relaxed, Order::Acquire}[pick(3)];
        last_read = b.ld(p, l, uint64_t(pick(3)), o, sc);
      } else if (k < 8) {
        const Order o = std::array{Order::Relaxed, Order::Acquire, Order::Release, Order::AcqRel}[pick(4)];
        b.rmw(p, l, uint64_t(pick(3)), next_value[li]++, o, sc, pick(5) == 0);
      } else if (k < 9) {
        b.fence(p, std::array{Order::SC, Order::AcqRel, Order::Acquire, Order::Release}[pick(4)], sc);
      } else if (pick(2) == 0) {
        b.bar(p, pick(2), pick(4) == 0 ? BarrierOp::Arrive : BarrierOp::Sync, pick(3) == 0 ? 1 + pick(3) : -1);
      } else {
        b.pfence(p, ProxyFenceKind::Alias);
      }
    }
  }
  return b.build();
}

Key key_of(const Execution& ex) {
  auto co = ex.co;
  std::sort(co.begin(), co.end());
  co.erase(std::unique(co.begin(), co.end()), co.end());
  return {ex.rf, co, ex.final_write};
}

Run run_engine(const std::string& engine, const Skeleton& s, const Model& m) {
  auto eng = engine == "z3" ? make_z3_engine() : engine == "enum-perm" ? make_enum_perm_engine() : make_enum_engine();
  Run r;
  eng->enumerate(s, m, {}, [&](const Execution& ex) {
    r.keys.insert(key_of(ex));
    ++r.count;
    return true;
  });
  return r;
}

bool allowed(const Skeleton& s, const Model& m) { return run_engine("z3", s, m).count > 0; }

Model model(ModelKind k) {
  Model m;
  m.kind = k;
  return m;
}

}  // namespace ptxcheck::mm::z3test
