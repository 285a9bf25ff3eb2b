// Mixed-size accesses in litmus executions (see mixed.hpp).
#include "semantics/litmus/mixed.hpp"

#include <map>

#include "memmodel/relations.hpp"

namespace ptxcheck::litmus {

MixedSize::MixedSize(const std::vector<const Trace*>& pick, const mm::Skeleton& sk, const mm::Model& m)
    : sk_(sk), m_(m), st_(mm::build_static(sk, m)) {
  // make_skeleton: the initial writes first, then each trace's events in order.
  size_t total = 0;
  for (const Trace* tr : pick) total += tr->events.size();
  int base = static_cast<int>(sk.events.size() - total);
  for (size_t t = 0; t < pick.size(); ++t) {
    const Trace& tr = *pick[t];
    std::map<int, int> of;  // first event of an access -> index in acc_
    for (size_t e = 0; e < tr.events.size(); ++e) {
      const mm::Event& ev = tr.events[e];
      if (ev.span == 0 || ev.loc < 0) continue;
      auto [it, fresh] = of.try_emplace(tr.access[e], static_cast<int>(acc_.size()));
      if (fresh) {
        Access a;
        a.thread = static_cast<int>(t);
        a.instr = tr.instr[e];
        a.write = ev.kind == mm::EventKind::Write;
        a.rmw = ev.kind == mm::EventKind::Read && ev.rmw_pair >= 0;
        a.span = ev.span;
        acc_.push_back(std::move(a));
      }
      acc_[it->second].ev.push_back(base + static_cast<int>(e));
    }
    base += static_cast<int>(tr.events.size());
  }
  for (size_t i = 0; i < acc_.size(); ++i)
    for (size_t j = i + 1; j < acc_.size(); ++j) {
      Shared s{static_cast<int>(i), static_cast<int>(j), {}};
      for (int a : acc_[i].ev)
        for (int b : acc_[j].ev)
          if (sk.physical(a) == sk.physical(b)) s.ev.emplace_back(a, b);
      if (!s.ev.empty()) shared_.push_back(std::move(s));
    }
}

bool MixedSize::whole(const mm::Execution& ex) const {
  const int n = static_cast<int>(sk_.events.size());
  mm::Relation co(n);
  for (auto [a, b] : ex.co) co.add(a, b);
  co = co.plus();
  // Y read what X wrote, or a write coherence-after it, on every granule
  // they share (the read halves' events, s.ev).
  auto reads_after = [&](const Shared& s, bool x_first) {
    for (auto [a, b] : s.ev) {
      const int rx = x_first ? a : b, ry = x_first ? b : a;
      const int wx = sk_.events[rx].rmw_pair, ry_from = ex.rf[ry];
      const int wy = sk_.events[ry].rmw_pair;
      if (ry_from < 0 || (ry_from != wx && !co.has(wx, ry_from)) || co.has(wy, wx)) return false;
      // Y's write then follows X's in coherence: X's is not the final one.
      const int fin = ex.final_write[sk_.physical(wx)];
      if (fin == wx || (fin >= 0 && co.has(fin, wx))) return false;
    }
    return true;
  };
  for (const Shared& s : shared_) {
    const Access& x = acc_[s.i];
    const Access& y = acc_[s.j];
    // PTX ISA 8.7.2 Atomicity of mixed-size RMW operations: of two
    // overlapping atomics whose scopes include each other, one is performed
    // completely before the other (whole or partial overlap).
    if (x.rmw && y.rmw && x.thread != y.thread && st_.sr.has(s.ev.front().first, s.ev.front().second) &&
        sk_.events[s.ev.front().first].proxy == sk_.events[s.ev.front().second].proxy && !reads_after(s, true) &&
        !reads_after(s, false))
      return false;
    // PTX ISA 8.9.6: coherence orders the two writes, not their bytes.
    if (x.write && y.write) {
      bool xy = false, yx = false;
      for (auto [a, b] : s.ev) {
        xy |= co.has(a, b);
        yx |= co.has(b, a);
      }
      if (xy && yx) return false;
    }
    // PTX ISA 8.10.3 Single-Copy Atomicity, over the bytes R and W share.
    if (x.write == y.write) continue;
    bool strong = false, from_w = false, from_before = false;
    for (auto [a, b] : s.ev) {
      const int re = x.write ? b : a, we = x.write ? a : b;
      strong |= st_.ms.has(re, we);
      from_w |= ex.rf[re] == we;
      from_before |= ex.rf[re] >= 0 && ex.rf[re] != we && co.has(ex.rf[re], we);
    }
    if (strong && from_w && from_before) return false;
  }
  return true;
}

std::optional<MixedRace> MixedSize::race(const mm::Execution& ex) const {
  if (m_.kind == mm::ModelKind::SC) return std::nullopt;
  std::vector<mm::Relation> causes;
  if (st_.sync_barrier_choices.size() <= 1) {
    causes.push_back(mm::compute_cause(st_, m_, ex.rf, ex.fsc).cause);
  } else {
    // A barrier with fewer expected than arriving threads: which arrive
    // first is a choice; a race counts when no choice orders the pair.
    for (size_t b = 0; b < st_.sync_barrier_choices.size(); ++b)
      causes.push_back(mm::compute_cause(st_, m_, ex.rf, ex.fsc, b).cause);
  }
  for (const Shared& s : shared_) {
    const Access& x = acc_[s.i];
    const Access& y = acc_[s.j];
    // 8.7.1: conflicting (one writes) accesses of two threads that overlap
    // partially (8.2.1: other byte ranges), not related in causality order.
    if (x.thread == y.thread || x.span == y.span || !(x.write || y.write)) continue;
    bool ordered = false;
    for (const mm::Relation& c : causes)
      for (int a : x.ev)
        for (int b : y.ev) ordered |= c.has(a, b) || c.has(b, a);
    if (!ordered) return MixedRace{{x.thread, x.instr}, {y.thread, y.instr}};
  }
  return std::nullopt;
}

}  // namespace ptxcheck::litmus
