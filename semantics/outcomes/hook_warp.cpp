// Warp-level redundancy of spin iterations (hook_impl.hpp; docs/outcomes.md
// "Spin loops"). back_jump drops a thread's failed iteration when the path
// without it reaches the same state: the search explores that path too, as
// each thread's reads choose their values independently of the other
// threads'. Lanes that exchange values or wait for each other in warp
// collectives are not independent: in a loop where lane 0 polls and
// __shfl_sync passes the verdict on, lane 1 comes back to the head with
// the same state after each failed try while lane 0 counts its tries, and
// no path has lane 1 iterate once less than lane 0. So:
//
// (W) A thread's failed iteration is dropped on its own only if its lane
// took part in no warp collective since the arrival it is compared with:
// no .sync collective of Hook::colls (shfl, vote, match, redux, elect,
// bar.warp.sync, mma) and no activemask or deprecated vote/shfl
// (ThreadRec::ucoll), which work on the lanes running with it. Otherwise
// the lanes of a warp that take a backward jump together are dropped
// together (warp_drop), when
//   1. each is back at the head in the state of its entry or latest
//      arrival there, as back_jump compares (registers written first
//      allowed, hook_loop.cpp (R)), with no deterministic read and no
//      activemask since, and with no side effect since but the
//      bar.warp.sync instances it took part in;
//   2. those arrivals were recorded at the same position of the warp's
//      collectives (Arrival::wcoll): the iterations span the same
//      collectives; and
//   3. every lane of every collective since then is one of them.
// The path in which these lanes run from their earlier states instead,
// with the same read values, is explored: their joint state is the same
// (each lane's by back_jump's argument; the values a collective passes
// come from the registers of lanes in the same states), and the other
// threads, which took part in none of those collectives, are independent
// of them. The execution without the iterations is consistent whenever
// the one with them is: their reads and fences only add edges (back_jump),
// and their bar.warp.sync instances (PTX ISA 9.7.13.3: "guarantees memory
// ordering among threads participating in barrier", events as for
// bar.sync, 8.9.4 item 2) are removed whole, with every participant's
// arrive and wait, which removes synchronizes-with edges and so causality
// order (8.9.5) but adds none; every axiom of 8.10 (Coherence 8.10.1,
// Fence-SC 8.10.2, Atomicity 8.10.3, No Thin Air 8.10.4, SC per location
// 8.10.5, Causality 8.10.6) forbids a cycle or asks for an inclusion that
// holds in a restriction. The final state is that of the path without
// them. It lets probe9h's h51, a warp-cooperative seqlock (lane 0 reads
// the sequence, lanes 0..3 the data, bar.warp.sync between, __shfl_sync
// of the verdict), drop its failed tries.
#include <bit>

#include "semantics/outcomes/explore.hpp"
#include "semantics/outcomes/hook_impl.hpp"

namespace ptxcheck::outcomes {

uint32_t Hook::coupling(const ThreadRec& r, size_t since, uint64_t* bars) const {
  auto it = colls.find({r.cta_uid, r.warp});
  if (it == colls.end() || !r.t) return 0;
  const uint64_t bit = 1ull << (r.t->lin % 32);
  uint32_t lanes = 0;
  for (size_t k = since; k < it->second.size(); ++k) {
    const uint64_t e = it->second[k];
    if (!(e & bit)) continue;
    lanes |= static_cast<uint32_t>(e);
    if (e & kCollOrders) ++*bars;
  }
  return lanes;
}

bool Hook::coupled(const ThreadRec& r, size_t wcoll, uint64_t ucoll) const {
  uint64_t bars = 0;
  return coupling(r, wcoll, &bars) != 0 || r.ucoll != ucoll;
}

uint32_t Hook::warp_drop(uint32_t to) {
  const uint32_t m = step_exec_;
  if (!step_lanes_ || !m) return 0;
  const interp::Thread& t0 = step_lanes_[std::countr_zero(m)];
  if (t0.gid >= th.size()) return 0;
  auto log = colls.find({th[t0.gid].cta_uid, th[t0.gid].warp});
  if (log == colls.end()) return 0;  // no collective: back_jump's rules alone
  uint32_t cand = 0;
  size_t snap = ~size_t{0};
  const ThreadRec::Arrival* xs[32] = {};
  for (uint32_t b = m; b; b &= b - 1) {
    const uint32_t l = static_cast<uint32_t>(std::countr_zero(b));
    const interp::Thread& t = step_lanes_[l];
    if (t.gid >= th.size()) continue;
    ThreadRec& r = th[t.gid];
    if (!r.seen || r.killed || r.cut || r.cas_fail_from != ~0u || r.poll.li >= 0 || r.spin_li >= 0) continue;
    const ThreadRec::Arrival* x = nullptr;
    if (auto e = r.entries.find(to); e != r.entries.end())
      x = &e->second;
    else if (auto a = r.arrivals.find(to); a != r.arrivals.end())
      x = &a->second;
    if (!x || r.ucoll != x->ucoll || r.det_reads.size() != x->det_reads) continue;
    uint64_t bars = 0;
    coupling(r, x->wcoll, &bars);
    if (r.side - x->side != bars || !same_state(r, t, to, *x, nullptr, nullptr, true)) continue;
    if (snap == ~size_t{0}) snap = x->wcoll;
    if (x->wcoll != snap) return 0;
    cand |= 1u << l;
    xs[l] = x;
  }
  if (!cand) return 0;
  uint32_t need = 0;
  for (size_t k = snap; k < log->second.size(); ++k) need |= static_cast<uint32_t>(log->second[k]);
  if (!need || (need & ~cand)) return 0;  // no collective (each lane on its own), or one with another lane
  for (uint32_t b = cand; b; b &= b - 1) {
    const uint32_t l = static_cast<uint32_t>(std::countr_zero(b));
    ThreadRec& r = th[step_lanes_[l].gid];
    if (r.comm_reads > xs[l]->comm_reads) ++subsumed, ++r.subsumed;
  }
  return cand;
}

}  // namespace ptxcheck::outcomes
