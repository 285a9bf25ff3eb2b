// Synchronizes-with edges of the executed schedule as vector-clock joins
// (races.hpp; PTX ISA 9.2 8.8 Release and Acquire Patterns, 8.9.2
// Observation Order, 8.9.4 Memory synchronization).
#include <algorithm>

#include "semantics/interp/races.hpp"

namespace ptxcheck::interp {

namespace {

using Pairs = std::vector<std::pair<uint32_t, uint32_t>>;

// dst := pointwise max of dst and src (both sorted by key).
void max_into(Pairs& dst, const Pairs& src) {
  if (src.empty()) return;
  Pairs out;
  out.reserve(dst.size() + src.size());
  size_t i = 0, j = 0;
  while (i < dst.size() || j < src.size()) {
    if (j == src.size() || (i < dst.size() && dst[i].first < src[j].first)) {
      out.push_back(dst[i++]);
    } else if (i == dst.size() || src[j].first < dst[i].first) {
      out.push_back(src[j++]);
    } else {
      out.emplace_back(dst[i].first, std::max(dst[i].second, src[j].second));
      ++i;
      ++j;
    }
  }
  dst.swap(out);
}

bool covers(const Pairs& big, const Pairs& small) {
  size_t i = 0;
  for (const auto& [key, v] : small) {
    while (i < big.size() && big[i].first < key) ++i;
    if (i == big.size() || big[i].first != key || big[i].second < v) return false;
  }
  return true;
}

bool acquires(mm::Order o) { return o == mm::Order::Acquire || o == mm::Order::AcqRel || o == mm::Order::SC; }
bool releases(mm::Order o) { return o == mm::Order::Release || o == mm::Order::AcqRel || o == mm::Order::SC; }

// 8.9.4 item 4: the first operation of the release pattern (scope rel.scope,
// thread rel.who) and the last of the acquire pattern (scope s, thread w)
// are morally strong (8.7).
bool morally_strong_pair(const Rel& rel, const Who& w, mm::Scope s) {
  return rel.who.gid == w.gid || (scope_includes(rel.scope, rel.who, w) && scope_includes(s, w, rel.who));
}

}  // namespace

// Z (thread w at clock `clock`) observed the writes of L's chain (8.9.2):
// from its first to the last write. An observation by the same thread at
// the same clock and CTA generation orders the same operations after it,
// so one record holds both when it is among the latest few (a thread that
// polls alone); otherwise the older record is dominated and goes first
// from the ring.
void Races::note_observer(LocSync& L, const Who& w, uint32_t clock) {
  const size_t n = L.obs.size();
  for (size_t k = 0, i = L.obs_next; k < std::min<size_t>(n, 2); ++k) {  // the latest first
    i = i ? i - 1 : n - 1;
    Obs& e = L.obs[i];
    if (e.gid == w.gid && e.clock == clock && e.gen == w.gen && e.lo == L.chain_lo) {
      e.hi = L.serial;
      return;
    }
  }
  const Obs o{w.gid, w.gen, clock, L.chain_lo, L.serial};
  if (n < kObs) {
    L.obs.push_back(o);
    L.obs_next = static_cast<uint32_t>(L.obs.size() % kObs);
  } else {
    L.obs[L.obs_next] = o;  // the oldest goes
    L.obs_next = static_cast<uint32_t>((L.obs_next + 1) % kObs);
  }
}

Rel Races::release(ThreadSync& ts, const Who& w, mm::Scope s) {
  Rel r{ts.k, w, ts.clock, s, true};
  ++ts.clock;
  return r;
}

void Races::join(ThreadSync& ts, const KnowP& k) {
  if (!k || k == ts.k) return;
  if (ts.k && covers(ts.k->ctas, k->ctas) && covers(ts.k->thr, k->thr)) return;
  auto n = std::make_shared<Know>(ts.k ? *ts.k : Know{});
  max_into(n->ctas, k->ctas);
  max_into(n->thr, k->thr);
  ts.k = std::move(n);
}

void Races::join(ThreadSync& ts, const Rel& r) {
  if (!r.valid) return;
  join(ts, r.k);
  if (ts.k && ts.k->clock_of(r.who.gid) >= r.clock && ts.k->cta_gen(r.who.cta) >= r.who.gen) return;
  auto n = std::make_shared<Know>(ts.k ? *ts.k : Know{});
  max_into(n->ctas, Pairs{{r.who.cta, r.who.gen}});
  max_into(n->thr, Pairs{{r.who.gid, r.clock}});
  ts.k = std::move(n);
}

KnowP Races::merge(const std::vector<Rel>& rels, bool cta_wide, uint32_t cta, uint32_t first_gid,
                   uint32_t nthreads) const {
  auto n = std::make_shared<Know>();
  std::vector<const Know*> seen;
  Pairs ctas, thr;
  for (const Rel& r : rels) {
    if (!r.valid) continue;
    if (r.k && std::find(seen.begin(), seen.end(), r.k.get()) == seen.end()) {
      seen.push_back(r.k.get());
      max_into(n->ctas, r.k->ctas);
      max_into(n->thr, r.k->thr);
    }
    if (cta_wide && r.who.cta == cta) continue;  // covered by the generation that completes
    ctas.emplace_back(r.who.cta, r.who.gen);
    thr.emplace_back(r.who.gid, r.clock);
  }
  std::sort(ctas.begin(), ctas.end());
  std::sort(thr.begin(), thr.end());
  auto dedup = [](Pairs& p) {  // keep the largest value per key
    Pairs o;
    for (const auto& e : p)
      if (!o.empty() && o.back().first == e.first)
        o.back().second = std::max(o.back().second, e.second);
      else
        o.push_back(e);
    p.swap(o);
  };
  dedup(ctas);
  dedup(thr);
  max_into(n->ctas, ctas);
  max_into(n->thr, thr);
  if (cta_wide) {
    // Clocks of the CTA's running threads are covered by the generation.
    std::erase_if(n->thr, [&](const auto& e) {
      return e.first >= first_gid && e.first - first_gid < nthreads &&
             (e.first >= exit_gen.size() || exit_gen[e.first] == ~0u);
    });
  }
  return n;
}

void Races::begin_write(const Region* r, uint64_t off, unsigned size, AccessInfo& a, const Who& w, bool rmw) {
  LocSync& L = shadow(r).sync[off];
  cur_loc_ = &L;
  cur_r_ = r;
  cur_off_ = off;
  a.obs = true;
  a.wser = static_cast<uint16_t>(L.serial + 1);
  // The chain this write ends (as strong_write will number it): accesses
  // it drops from the shadow that are in it need not stay (races.cpp).
  cur_hi_ = L.serial + 1;
  cur_lo_ = rmw && observes(L, w, size, a.scope) ? L.chain_lo : cur_hi_;
}

void Races::strong_read(ThreadSync& ts, const Who& w, const Region* r, uint64_t off, unsigned size, mm::Order o,
                        mm::Scope s, bool red, bool async) {
  if (red) {
    // 8.8, 8.11.1: "atomic reductions conceptually perform a strong read",
    // which forms no acquire pattern; it still observes (8.9.2).
    if (async) return;
    LocSync* L = cur_loc_ && r == cur_r_ && off == cur_off_ ? cur_loc_ : nullptr;
    if (!L) {
      RegionShadow& rs = shadow(r);
      auto it = rs.sync.find(off);
      if (it == rs.sync.end()) return;
      L = &it->second;
    }
    if (observes(*L, w, size, s))
      note_observer(*L, w, ts.clock);
    else
      sc_forced(ts, w, *L, r, off);
    return;
  }
  RegionShadow& rs = shadow(r);
  const bool acq = acquires(o);
  // Acquire pattern 2 (8.8): strong reads of this location earlier in
  // program order, completed by this acquire operation.
  if (acq && !ts.pend.empty()) {
    std::erase_if(ts.pend, [&](const ThreadSync::Pend& p) {
      if (p.carried || p.r != r || p.off != off || !morally_strong_pair(p.rel, w, s)) return false;
      join(ts, p.rel);
      return true;
    });
  }
  LocSync* Lp = cur_loc_ && r == cur_r_ && off == cur_off_ ? cur_loc_ : nullptr;
  if (!Lp) {
    auto it = rs.sync.find(off);
    if (it == rs.sync.end()) return;
    Lp = &it->second;
  }
  LocSync& L = *Lp;
  // 8.9.2: the read observes the last write when the two are morally strong.
  if (!observes(L, w, size, s)) {
    sc_forced(ts, w, L, r, off);
    return;
  }
  if (!async) note_observer(L, w, ts.clock);
  for (const Rel& rel : L.rels) {
    if (acq && morally_strong_pair(rel, w, s)) {  // acquire pattern 1: this operation
      join(ts, rel);
      continue;
    }
    // Pattern 3 (or 2): waits for a later acquire fence (or operation on this location).
    bool dup = false;
    for (auto& p : ts.pend)
      if (!p.carried && p.rel.who.gid == rel.who.gid && p.rel.scope == rel.scope && p.r == r && p.off == off) {
        if (rel.clock > p.rel.clock) p.rel = rel;
        dup = true;
        break;
      }
    if (!dup) {
      if (ts.pend.size() >= 4096) ts.pend.erase(ts.pend.begin());
      ts.pend.push_back({rel, r, off});
    }
  }
}

void Races::strong_write(ThreadSync& ts, const Who& w, const Region* r, uint64_t off, unsigned size, mm::Order o,
                         mm::Scope s, bool rmw) {
  LocSync& L = loc(r, off);
  cur_loc_ = nullptr;
  // 8.9.2: an atomic that reads the last write, morally strong with it,
  // continues the observation order from the writes before it.
  const bool chain = rmw && observes(L, w, size, s);
  ++L.serial;
  if (!chain) L.chain_lo = L.serial;
  if (!chain) {
    // Release patterns 2 and 3 of this thread on this location (a release
    // operation or fence before it, then this strong write) stay.
    if (L.strong && L.writer.gid == w.gid)
      std::erase_if(L.rels, [&](const Rel& e) { return e.who.gid != w.gid; });
    else
      L.rels.clear();
  }
  auto add = [&](const Rel& rel) {
    if (!rel.valid) return;
    for (Rel& e : L.rels)
      if (e.who.gid == rel.who.gid && e.scope == rel.scope) {
        if (rel.clock > e.clock) e = rel;
        return;
      }
    L.rels.push_back(rel);
  };
  if (releases(o)) add(release(ts, w, s));  // release pattern 1
  for (const Rel& f : ts.fence) add(f);     // pattern 3: a release fence earlier in program order
  L.writer = w;
  L.scope = s;
  L.size = static_cast<uint16_t>(size);
  L.strong = true;
  for (const Rel& f : ts.fence)
    if (f.valid && f.sc) shadow(r).sc = any_sc_ = true;  // sc_forced may find it
}

void Races::weak_write(const Region* r, uint64_t off) {
  RegionShadow& rs = shadow(r);
  if (rs.sync.empty()) return;
  auto it = rs.sync.find(off);
  if (it == rs.sync.end()) return;
  it->second.strong = false;  // nothing observes a weak write (8.9.2): the chain ends
  it->second.rels.clear();
}

// The location of a weak store W: nothing observes W (8.9.2), so the
// chain ends; a read that reads W still orders the fence.sc operations
// before W in program order before a fence.sc after the read (sc_forced).
// Only locations that strong writes made a LocSync for are followed
// (docs/races.md).
void Races::weak_store(const ThreadSync& ts, const Who& w, const Region* r, uint64_t off, unsigned size) {
  RegionShadow& rs = shadow(r);
  if (rs.sync.empty()) return;
  auto it = rs.sync.find(off);
  if (it == rs.sync.end()) return;
  LocSync& L = it->second;
  L.strong = false;
  L.rels.clear();
  L.writer = w;
  L.size = static_cast<uint16_t>(size);
  for (const Rel& f : ts.fence) {
    if (!f.valid || !f.sc) continue;
    rs.sc = any_sc_ = true;
    bool dup = false;
    for (const Rel& e : L.rels) dup = dup || (e.clock == f.clock && e.scope == f.scope);
    if (!dup) L.rels.push_back(f);
  }
}

void Races::weak_load_other(ThreadSync& ts, const Who& w, const Region* r, uint64_t off) {
  RegionShadow& rs = shadow(r);
  if (!rs.sc) return;
  auto it = rs.sync.find(off);
  if (it != rs.sync.end()) sc_forced(ts, w, it->second, r, off);
}

void Races::fence(ThreadSync& ts, const Who& w, mm::Order o, mm::Scope s) {
  if (acquires(o) && !ts.pend.empty()) {  // acquire pattern 3: strong reads before this fence
    std::erase_if(ts.pend, [&](const ThreadSync::Pend& p) {
      // A carried read is another thread's: only Fence-SC order (8.9.3) helps.
      if ((p.carried && o != mm::Order::SC) || !morally_strong_pair(p.rel, w, s)) return false;
      join(ts, p.rel);
      return true;
    });
  }
  if (releases(o)) {  // the first operation of release pattern 3
    Rel rel = release(ts, w, s);
    rel.sc = o == mm::Order::SC;
    for (size_t i = 0; i <= static_cast<size_t>(s); ++i) ts.fence[i] = rel;
  }
}

namespace {

// Adds p to v as a carried entry unless v holds it (the later clock kept).
bool add_carried(std::vector<ThreadSync::Pend>& v, const ThreadSync::Pend& p) {
  for (auto& q : v)
    if (q.carried && q.rel.who.gid == p.rel.who.gid && q.rel.scope == p.rel.scope && q.r == p.r && q.off == p.off) {
      if (p.rel.clock > q.rel.clock) q.rel = p.rel;
      return true;
    }
  return false;
}

}  // namespace

// PTX ISA 8.10.6 item 1 (Causality: "If a read R precedes an overlapping
// write W in causality order, then R cannot read from W"), 8.9.3, 8.9.4
// item 1. The read Z of thread w reads a byte of the last write of its
// first granule (prev_wgid_: that write's thread); when that write is by
// L's writer, it follows (or is) the write that recorded L.rels, so the
// fence.sc releases F1 there precede it in program order. A fence.sc F2 after Z, morally strong with F1:
// F2 before F1 in Fence-SC order would make Z precede W in base causality
// order (Z, F2, F1, W; same address, generic proxy), so F1 precedes F2 and
// synchronizes with it. F2 must be a fence.sc (pend entries `carried`; a
// barrier passes them on, gather_sc).
void Races::sc_forced(ThreadSync& ts, const Who& w, const LocSync& L, const Region* r, uint64_t off) const {
  if (prev_wgid_ != L.writer.gid || prev_wgid_ == w.gid) return;
  for (const Rel& rel : L.rels) {
    if (!rel.valid || !rel.sc || rel.who.gid != L.writer.gid) continue;
    if (ts.k && ts.k->clock_of(rel.who.gid) >= rel.clock && ts.k->cta_gen(rel.who.cta) >= rel.who.gen) continue;
    const ThreadSync::Pend p{rel, r, off, true};
    if (add_carried(ts.pend, p)) continue;
    if (ts.pend.size() >= 4096) ts.pend.erase(ts.pend.begin());
    ts.pend.push_back(p);
  }
}

void Races::gather_sc(std::vector<ThreadSync::Pend>& out, const ThreadSync& src) {
  for (const ThreadSync::Pend& p : src.pend) {
    if (!p.rel.sc) continue;
    // Already known: the barrier passes it on.
    if (src.k && src.k->clock_of(p.rel.who.gid) >= p.rel.clock && src.k->cta_gen(p.rel.who.cta) >= p.rel.who.gen)
      continue;
    // Beyond kCarried the rest are lost: a race may be reported, none is missed.
    if (add_carried(out, p) || out.size() >= kCarried) continue;
    out.push_back({p.rel, p.r, p.off, true});
  }
}

void Races::carry_sc(ThreadSync& dst, const std::vector<ThreadSync::Pend>& in) {
  for (const ThreadSync::Pend& p : in) {
    if (add_carried(dst.pend, p)) continue;
    if (dst.pend.size() >= 4096) dst.pend.erase(dst.pend.begin());
    dst.pend.push_back(p);
  }
}

void Races::mbar_arrive(const Region* r, uint64_t off, const Rel& rel, bool remote) {
  MbarSync& m = shadow(r).mbar[off];
  (remote ? m.cur_remote : m.cur_local).push_back(rel);
}

void Races::mbar_complete(const Region* r, uint64_t off, unsigned parity) {
  MbarSync& m = shadow(r).mbar[off];
  m.done[parity & 1][0] = merge(m.cur_local, false, 0, 0, 0);
  m.cur_local.insert(m.cur_local.end(), m.cur_remote.begin(), m.cur_remote.end());
  m.done[parity & 1][1] = merge(m.cur_local, false, 0, 0, 0);
  m.cur_local.clear();
  m.cur_remote.clear();
}

void Races::mbar_wait(ThreadSync& ts, const Region* r, uint64_t off, unsigned parity, bool cluster_scope) {
  RegionShadow& rs = shadow(r);
  auto it = rs.mbar.find(off);
  if (it != rs.mbar.end()) join(ts, it->second.done[parity & 1][cluster_scope ? 1 : 0]);
}

void Races::mbar_init(const Region* r, uint64_t off) { shadow(r).mbar.erase(off); }

}  // namespace ptxcheck::interp
