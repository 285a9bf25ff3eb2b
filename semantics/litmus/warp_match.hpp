// Matching the warp collectives of one combination of litmus traces
// (interp::TraceColl): which collectives of the lanes meet, whether their
// operands give the results the lanes assumed, and the events a result
// depends on. Used by check.cpp (feasibility, skeleton dependencies).
#pragma once
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "semantics/litmus/program.hpp"
#include "semantics/litmus/traces.hpp"

namespace ptxcheck::litmus {

// Warp collectives of one combination (interp::TraceColl). A collective
// waits "until all non-exited threads corresponding to membermask have
// executed [it] with the same qualifiers and same membermask value" (PTX
// ISA 9.7.9.6 shfl.sync; likewise 9.7.13.9 vote.sync, 9.7.13.10 match.sync,
// 9.7.13.12 redux.sync, 9.7.13.13 elect.sync, 9.7.13.3 bar.warp.sync): a
// lane's k-th collective whose mask includes lane w meets lane w's k-th
// collective whose mask includes it. A combination is feasible when every
// collective's lanes meet and their operands give the result each lane
// assumed (warp_collective_values, the interpreter's function). A lane of
// the mask that ends without the matching collective (it would take part
// only "if not exited"), lanes meeting with other qualifiers or another
// mask, and collectives waiting for each other in a cycle are not
// modelled: such a combination, if otherwise consistent, is an error.
struct CollMatch {
  enum Status { Ok, Infeasible, Anomaly } status = Ok;
  std::string message;
  SourcePos pos;
  // [thread][k]: the (thread, k) of each lane of the collective's mask
  std::vector<std::vector<std::vector<std::pair<int, int>>>> group;
};

bool has_colls(const std::vector<const Trace*>& pick);

CollMatch match_colls(const Program& p, const std::vector<const Trace*>& pick);

// The events (skeleton indices, `base` per thread) that the result of
// collective k of thread t depends on: what the operands of the lanes it
// reads depend on (for shfl the source lane's, else every lane's), through
// earlier collectives.
void coll_deps(const Program& p, const std::vector<const Trace*>& pick, const CollMatch& m,
               const std::vector<int>& base, int t, int k, std::set<int>& out, std::set<std::pair<int, int>>& done);

}  // namespace ptxcheck::litmus
