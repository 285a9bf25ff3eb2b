// Hand-built Skeletons of the classic litmus shapes (MP, SB, LB, IRIW, CoRR,
// 2+2W, atomicity, Fence-SC, barriers, proxies/aliases) and random small
// Skeletons, shared by the Z3 engine's verdict tests and cross-checks.
#pragma once
#include <cstdint>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "memmodel/engine.hpp"
#include "tests/memmodel/shapes.hpp"

namespace ptxcheck::mm::z3test {

struct Shape {
  std::string name;
  Skeleton s;
};

// Every named shape of this file (for the cross-checks).
std::vector<Shape> catalogue();

using test::mp;
using test::mp_fences;
using test::sb;  // Order::Weak = no fences
Skeleton lb(bool deps);
Skeleton iriw(Order fence);  // Weak = no fences between the reads
Skeleton corr(Order o);
Skeleton two_two_w(Order o);
Skeleton atomic_inc(Scope s0, Scope s1, int cta1);
Skeleton mp_barrier(int cta1, BarrierOp op0 = BarrierOp::Sync);
Skeleton cowr_alias(bool alias_fence);
Skeleton mp_rmw_chain(Order rmw_order, bool red);
Skeleton quorum(int count);

// A random Skeleton (2-3 threads, 1-2 locations, a few operations each).
Skeleton random_skeleton(uint32_t seed);

// An execution as a comparable value: rf, co pairs (sorted), final writes.
using Key = std::tuple<std::vector<int>, std::vector<std::pair<int, int>>, std::vector<int>>;
Key key_of(const Execution& ex);

struct Run {
  std::set<Key> keys;
  uint64_t count = 0;  // visitor calls
};
Run run_engine(const std::string& engine, const Skeleton& s, const Model& m);
bool allowed(const Skeleton& s, const Model& m = {});  // by the Z3 engine
Model model(ModelKind k);

}  // namespace ptxcheck::mm::z3test
