// What one consistent execution of a run gives `ptxcheck outcomes`
// (explore.hpp): its witness, the final bytes of the output buffers, and
// its data races (PTX ISA 8.7.1).
#include <algorithm>
#include <cstring>

#include "memmodel/relations.hpp"
#include "memmodel/static_relations.hpp"
#include "semantics/outcomes/explore.hpp"

namespace ptxcheck::outcomes {

// The witness of execution `ex`: the run's skeleton with each read of any
// value given the value of the write it reads from (its event value is a
// placeholder until an execution chooses its source).
Witness witness_of(const Result::Run& r, const mm::Execution& ex) {
  Witness w{r.skeleton, ex, r.sources};
  for (size_t e = 0; e < w.skeleton.events.size(); ++e) {
    mm::Event& ev = w.skeleton.events[e];
    if (ev.kind == mm::EventKind::Read && ev.any_value && ex.rf[e] >= 0)
      ev.value = w.skeleton.events[static_cast<size_t>(ex.rf[e])].value;
  }
  return w;
}

std::vector<std::vector<uint8_t>> final_buffers(const Result::Run& r, const mm::Execution& ex) {
  std::vector<std::vector<uint8_t>> out = r.buffers;
  for (const auto& [loc, at] : r.placement) {
    int w = loc < static_cast<int>(ex.final_write.size()) ? ex.final_write[static_cast<size_t>(loc)] : -1;
    uint64_t v =
        w >= 0 ? r.skeleton.events[static_cast<size_t>(w)].value : r.skeleton.locations[static_cast<size_t>(loc)].init;
    std::memcpy(&out[at.first][at.second], &v, r.skeleton.locations[static_cast<size_t>(loc)].size);
  }
  return out;
}

namespace {

// What lies between two accesses by lanes of one warp: a bar.warp.sync of
// both lanes (it orders memory among them, PTX ISA 9.7.13.3: no race), or
// only other warp-collective .sync instructions of both lanes (races.hpp:
// the warp-sync-race class; they order no memory), or neither.
enum class Between { Nothing, Collective, WarpBarrier };
Between between(const Result::Run& run, const EventSource& a, const EventSource& b) {
  if (a.cta_uid != b.cta_uid || a.warp != b.warp || a.coll_seq == b.coll_seq) return Between::Nothing;
  auto it = run.colls.find({a.cta_uid, a.warp});
  if (it == run.colls.end()) return Between::Nothing;
  const uint64_t both = (1ull << a.lane) | (1ull << b.lane);
  const uint32_t lo = std::min(a.coll_seq, b.coll_seq), hi = std::max(a.coll_seq, b.coll_seq);
  Between r = Between::Nothing;
  for (uint32_t k = lo; k < hi && k < it->second.size(); ++k)  // the collectives after `lo` accesses, up to `hi`
    if ((it->second[k] & both) == both) {
      if (it->second[k] & kCollOrders) return Between::WarpBarrier;
      r = Between::Collective;
    }
  return r;
}

}  // namespace

// 8.7.1: conflicting accesses (overlapping, one a write) of different
// threads, or of a thread and an asynchronous operation, that are neither
// morally strong nor ordered by causality.
void find_races(const Result::Run& run, const mm::StaticRelations& st, const mm::Model& m, const mm::Execution& ex,
                std::vector<Race>& races) {
  const mm::Skeleton& s = run.skeleton;
  mm::CauseInfo ci = mm::compute_cause(st, m, ex.rf, ex.fsc, 0);
  const int n = static_cast<int>(s.events.size());
  // An atom/red is one memory operation (8.7.1 races are between
  // operations) with a read and a write half here: it is related to
  // another operation in causality order when either half is. The write
  // half can be where only the observation-order step of 8.9.5 (item 2)
  // reaches: threadFenceReduction's last block resets the ticket counter
  // with a plain store after its own atomicInc, which every other block's
  // atomicInc precedes in observation order (8.9.2), so the store follows
  // each of them in causality order, but not their read halves.
  auto related = [&](int a, int b) {
    const int pa = s.events[static_cast<size_t>(a)].rmw_pair, pb = s.events[static_cast<size_t>(b)].rmw_pair;
    for (int x : {a, pa})
      for (int y : {b, pb})
        if (x >= 0 && y >= 0 && (ci.cause.has(x, y) || ci.cause.has(y, x))) return true;
    return false;
  };
  auto complete_tx = [&](int e) {
    const mm::Event& ev = s.events[static_cast<size_t>(e)];
    if (ev.async_op < 0 || static_cast<size_t>(ev.async_op) >= s.async_ops.size()) return false;
    const int w = s.async_ops[static_cast<size_t>(ev.async_op)].complete_tx;
    return w >= 0 && (w == e || w == ev.rmw_pair);
  };
  for (int a = 0; a < n; ++a) {
    const mm::Event& ea = s.events[static_cast<size_t>(a)];
    if (ea.kind != mm::EventKind::Read && ea.kind != mm::EventKind::Write) continue;
    for (int b = a + 1; b < n; ++b) {
      const mm::Event& eb = s.events[static_cast<size_t>(b)];
      if (eb.kind != mm::EventKind::Read && eb.kind != mm::EventKind::Write) continue;
      // Two events of one thread race only when one is a read or write of
      // an asynchronous copy the other is not part of (8.9.1.1: its
      // operations are not part of the program order). Not its complete_tx:
      // the model orders that after the copy's operations only (8.9.1.1,
      // memmodel/relations.cpp), not after the thread's mbarrier.init.
      if ((ea.thread == eb.thread && (ea.async_op == eb.async_op || complete_tx(a) || complete_tx(b))) ||
          s.physical(a) != s.physical(b))
        continue;
      if (ea.kind != mm::EventKind::Write && eb.kind != mm::EventKind::Write) continue;
      if (st.ms.has(a, b) || related(a, b)) continue;
      Race r;
      bool swap = run.sources[static_cast<size_t>(b)].line < run.sources[static_cast<size_t>(a)].line;
      int x = swap ? b : a, y = swap ? a : b;
      r.first = run.sources[static_cast<size_t>(x)];
      r.second = run.sources[static_cast<size_t>(y)];
      r.first_write = s.events[static_cast<size_t>(x)].kind == mm::EventKind::Write;
      r.second_write = s.events[static_cast<size_t>(y)].kind == mm::EventKind::Write;
      r.location = s.locations[static_cast<size_t>(ea.loc)].name;
      const Between bw = between(run, r.first, r.second);
      if (bw == Between::WarpBarrier) continue;  // ordered by bar.warp.sync (its barrier events order them too)
      r.warp_sync = bw == Between::Collective;
      bool dup = false;
      for (Race& o : races)
        if (o.first.line == r.first.line && o.first.col == r.first.col && o.second.line == r.second.line &&
            o.second.col == r.second.col && o.location == r.location) {
          dup = true;
          o.warp_sync = o.warp_sync && r.warp_sync;  // a data race in some run is a data race
        }
      if (!dup) races.push_back(std::move(r));
    }
  }
}

}  // namespace ptxcheck::outcomes
