// The shadow memory of the race detector: per 4-byte granule the last
// write and the last read, and the accesses before them that no later one
// covers (races.hpp).
#include "semantics/interp/races.hpp"

#include <algorithm>

namespace ptxcheck::interp {

namespace {

template <class V>
uint32_t lookup(const V& v, uint32_t key) {
  auto it = std::lower_bound(v.begin(), v.end(), std::make_pair(key, 0u));
  return it != v.end() && it->first == key ? it->second : 0;
}

}  // namespace

namespace {

// Appends `p`, replacing the same thread's earlier access when it covers
// it; compacts to one access per thread and bytes when the list doubles.
// Each access replaced goes to `gone`.
template <class Gone>
void add_access(std::vector<AccessInfo>& v, const AccessInfo& p, Gone&& gone) {
  if (!v.empty() && v.back().gid == p.gid && !(v.back().mask & ~p.mask)) {
    gone(v.back());
    v.back() = p;
    return;
  }
  if (v.size() >= 64 && !(v.size() & (v.size() - 1))) {  // a power of two: compact
    std::stable_sort(v.begin(), v.end(), [](const AccessInfo& a, const AccessInfo& b) { return a.gid < b.gid; });
    size_t o = 0;
    for (size_t i = 0; i < v.size(); ++i) {
      if (o && v[o - 1].gid == v[i].gid && !(v[o - 1].mask & ~v[i].mask)) {
        gone(v[o - 1]);
        v[o - 1] = v[i];
      } else {
        v[o++] = v[i];
      }
    }
    v.resize(o);
  }
  v.push_back(p);
}

// Adds the write p to the list of a Multi (Races::Multi): the earlier
// writes of p's thread that it replaces go to `gone`.
template <class M, class Gone>
void add_w(M& m, const AccessInfo& p, Gone&& gone) {
  if (m.w.empty()) {
    m.all_wide = wide(p);
    m.wstart = p.start;
    m.wsize = p.size;
  } else if (!wide(p) || p.start != m.wstart || p.size != m.wsize) {
    m.all_wide = false;
  }
  add_access(m.w, p, gone);
}

}  // namespace

void Races::Multi::add_r(const AccessInfo& p) {
  add_access(r, p, [](const AccessInfo&) {});
}

void Races::Multi::add_d(const AccessInfo& p) {
  if (d.size() < kDropped) {
    d.push_back(p);
  } else {
    d[d_next] = p;  // the oldest goes
    d_next = static_cast<uint32_t>((d_next + 1) % kDropped);
  }
}

uint32_t Know::cta_gen(uint32_t cta) const { return lookup(ctas, cta); }
uint32_t Know::clock_of(uint32_t gid) const { return lookup(thr, gid); }

bool WarpColl::joined(uint16_t since, uint32_t la, uint32_t lb) const {
  const uint32_t both = (1u << la) | (1u << lb);
  const uint16_t back = static_cast<uint16_t>(static_cast<uint16_t>(seq) - since);  // events after `since`
  for (uint32_t k = 0; k < back && k < 64; ++k)
    if ((mask[(seq - k) % 64] & both) == both) return true;
  return false;
}

// PTX ISA 8.9.5: `p` precedes the access `a` of the thread whose state is
// `ts` in causality order (program order, or knowledge that reached it).
bool Races::ordered(const AccessInfo& p, const AccessInfo& a, const ThreadSync& ts) const {
  if (p.gid == a.gid) return true;
  // A CTA-wide barrier that p's thread took part in completed after p.
  const uint32_t known = same_cta(p.gid, a.gid) ? a.gen : ts.k ? ts.k->cta_gen(cta_of(p.gid)) : 0;
  if (p.gen < known && (p.gid >= exit_gen.size() || p.gen < exit_gen[p.gid])) return true;
  return ts.k && ts.k->clock_of(p.gid) >= p.clock;
}

// PTX ISA 8.7 Morally strong operations: both strong, each with a scope
// that includes the other's thread, "Both operations are performed via the
// same proxy" (the strong accesses of the async proxy are the reductions of
// cp.reduce.async.bulk{.tensor}; every other strong access here is
// generic), and complete overlap.
bool Races::morally_strong(const AccessInfo& p, const AccessInfo& a) const {
  return p.strong() && a.strong() && p.async == a.async && p.start == a.start && p.size == a.size &&
         scope_includes(p.scope, who_of(p), who_of(a)) && scope_includes(a.scope, who_of(a), who_of(p));
}

// PTX ISA 8.9.5 Causality order, item 2: "For some operation Z, X precedes
// Z in observation order, and Z precedes Y in proxy-preserved base
// causality order". X is the strong write p; Z a strong read of the generic
// proxy that observed it (8.9.2: read p, or the last of a chain of morally
// strong atomics that starts by reading p; every such read is recorded in
// the location's LocSync::obs with the writes it observed). Z precedes the
// access `a` in proxy-preserved base causality order when Z precedes it in
// base causality order (program order or the clocks, as in ordered()) and
// both are generic-proxy accesses of the same address. The order is that
// of p alone, not of what precedes p in its thread (which needs a release
// pattern, 8.8). Runs only for a pair that is otherwise a race; the first
// call of an access gathers the writes that the observations ordered
// before it cover (`cov`, merged intervals of serials).
bool Races::observed_before(const AccessInfo& p, const AccessInfo& a, const ThreadSync& ts, const RegionShadow& rs,
                            uint64_t addr, ObsCover& cov) const {
  // Same address: complete overlap of p with Z (morally strong) and of Z with a.
  if (!p.write || a.async || a.start != p.start) return false;
  if (!cov.built) {
    cov.built = true;
    cov.iv.clear();
    auto it = rs.sync.find(addr);
    if (it == rs.sync.end()) return false;
    cov.serial = it->second.serial;
    for (const Obs& o : it->second.obs) {
      AccessInfo z;
      z.gid = o.gid;
      z.gen = o.gen;
      z.clock = o.clock;
      if (ordered(z, a, ts)) cov.iv.emplace_back(o.lo, o.hi);
    }
    std::sort(cov.iv.begin(), cov.iv.end());
    size_t n = 0;
    for (const auto& [lo, hi] : cov.iv) {
      if (n && lo <= cov.iv[n - 1].second + 1)
        cov.iv[n - 1].second = std::max(cov.iv[n - 1].second, hi);
      else
        cov.iv[n++] = {lo, hi};
    }
    cov.iv.resize(n);
  }
  if (cov.iv.empty()) return false;
  // p's serial is known mod 2^16: one of s_min, s_min + 2^16, ... up to
  // the location's last serial. It counts as observed when every one of
  // them is covered (exact while the location has had at most 2^16 strong
  // writes).
  const uint64_t s_min = p.wser ? p.wser : uint64_t{1} << 16;
  if (s_min > cov.serial) return false;
  for (uint64_t s = s_min; s <= cov.serial; s += uint64_t{1} << 16) {
    auto it = std::upper_bound(cov.iv.begin(), cov.iv.end(), std::make_pair(s, ~uint64_t{0}));
    if (it == cov.iv.begin() || std::prev(it)->second < s) return false;
  }
  cov.excused = true;
  return true;
}

Races::RegionShadow& Races::shadow(const Region* r) {
  if (r != last_r_) {
    last_sh_ = &shadow_[r];
    last_r_ = r;
  }
  return *last_sh_;
}

namespace {

const AccessInfo kNone{};

// a[j] = v, the array (of n entries) made first unless v is empty.
template <class T>
[[gnu::always_inline]] inline void put(std::unique_ptr<T[]>& a, uint64_t j, const T& v, bool nonempty, uint64_t n) {
  if (!a) {
    if (!nonempty) return;
    a = std::make_unique<T[]>(n);
  }
  a[j] = v;
}

}  // namespace

void Races::forget(const Region* r) {
  auto it = shadow_.find(r);
  if (it == shadow_.end()) return;
  for (const Page& p : it->second.g)
    if (p.more)
      for (uint64_t j = 0; j < kPage; ++j)
        if (const uint32_t m = p.more[j]) {
          multi_[m - 1].clear();
          free_multi_.push_back(m - 1);
        }
  shadow_.erase(it);
  last_r_ = nullptr;
  last_sh_ = nullptr;
  cur_loc_ = nullptr;
}

void Races::forget_range(const Region* r, uint64_t off, uint64_t size) {
  auto it = shadow_.find(r);
  if (it == shadow_.end() || size == 0) return;
  RegionShadow& rs = it->second;
  const uint64_t lo = off & ~uint64_t{3}, hi = off + size;
  const uint64_t granules = std::min<uint64_t>(rs.g.size() * kPage, (r->bytes.size() + 3) / 4);
  for (uint64_t g = lo / 4; g < granules && g * 4 < hi; ++g) {
    Page& p = rs.g[g / kPage];
    const uint64_t j = g % kPage;
    if (p.more && p.more[j]) {
      multi_[p.more[j] - 1].clear();
      free_multi_.push_back(p.more[j] - 1);
      p.more[j] = 0;
    }
    if (p.w) p.w[j] = AccessInfo{};
    if (p.r) p.r[j] = AccessInfo{};
    if (p.r2) p.r2[j] = AccessInfo{};
  }
  std::erase_if(rs.sync, [&](const auto& kv) { return kv.first >= lo && kv.first < hi; });
  cur_loc_ = nullptr;
  std::erase_if(rs.mbar, [&](const auto& kv) { return kv.first >= lo && kv.first < hi; });
}

// The access p leaves the shadow at the write `a` (PTX ISA 8.9.5: an
// access that follows `a` only through observation order is not ordered
// after p). It stays in the dropped list of its granule's Multi `m` when
// `a` may be observed (a.obs) and p is not in a's chain of atomics,
// [cur_lo_, cur_hi_] (begin_write; 8.9.2: a read that observes `a` then
// observes p too). p's serial is known mod 2^16 (serials count the strong
// writes of one address): it is in the chain when its smallest candidate
// serial is.
void Races::dropped(Multi& m, const AccessInfo& p, const AccessInfo& a) {
  if (!p.valid() || !a.obs) return;
  const uint64_t s_min = p.wser ? p.wser : uint64_t{1} << 16;
  if (p.obs && p.start == a.start && s_min >= cur_lo_ && s_min < cur_hi_) return;
  m.add_d(p);
}

Races::Multi& Races::multi_of(Shadow& s) {
  if (!s.more) {
    if (free_multi_.empty()) {
      multi_.emplace_back();
      s.more = static_cast<uint32_t>(multi_.size());
    } else {
      s.more = free_multi_.back() + 1;
      free_multi_.pop_back();
    }
  }
  return multi_[s.more - 1];
}

// The write `a` (one granule's part of it) replaces the shadow's records
// of the granule `s` (its Multi: m, or null) that it covers.
void Races::record_write(Shadow& s, Multi* m, const AccessInfo& a, const ThreadSync& ts, bool skip_w) {
  auto multi = [&]() -> Multi& { return multi_of(s); };
  // An earlier access stays in the shadow while a later access may race
  // with it but not with `a`: bytes `a` does not cover, or an access
  // morally strong with `a` and not ordered before it.
  auto keep = [&](const AccessInfo& p) {
    return p.valid() && ((p.mask & ~a.mask) || (p.gid != a.gid && morally_strong(p, a) && !ordered(p, a, ts)));
  };
  const AccessInfo ow = s.w, o1 = s.r, o2 = s.r2;
  s.w = a;
  if (m) {
    auto drop = [&](const AccessInfo& p) {
      if (keep(p)) return false;
      if (a.obs) dropped(*m, p, a);
      return true;
    };
    if (!skip_w && !m->w.empty()) std::erase_if(m->w, drop);
    if (!m->r.empty()) std::erase_if(m->r, drop);
  }
  if (keep(ow)) {
    // Writes of ow's thread that ow replaces in the list leave it
    // too: ow, and not they, may be observed.
    Multi& mm = multi();
    add_w(mm, ow, [&](const AccessInfo& p) { dropped(mm, p, a); });
  } else if (a.obs && ow.valid()) {
    dropped(multi(), ow, a);
  }
  // Weak reads of bytes this write leaves stay inline; strong reads
  // concurrent with it (morally strong) go to the list.
  const bool k1 = keep(o1), k2 = keep(o2);
  s.r = k1 && !o1.strong() ? o1 : AccessInfo{};
  s.r2 = k2 && !o2.strong() ? o2 : AccessInfo{};
  if (k1 && o1.strong()) multi().add_r(o1);
  if (k2 && o2.strong()) multi().add_r(o2);
  if (a.obs && !k1 && o1.valid()) dropped(multi(), o1, a);
  if (a.obs && !k2 && o2.valid()) dropped(multi(), o2, a);
  // A weak write that a dropped access precedes in base causality
  // order, covering its bytes, stands for it: it conflicts with
  // whatever the access conflicts with, whatever is ordered after it is
  // ordered after the access, and no observation excuses it (8.9.2: a
  // weak write is observed by nothing).
  if (!a.strong() && s.more) {
    Multi& mm = multi_[s.more - 1];
    if (!mm.d.empty()) {
      std::rotate(mm.d.begin(), mm.d.begin() + mm.d_next, mm.d.end());  // oldest first
      mm.d_next = 0;
      std::erase_if(mm.d,
                    [&](const AccessInfo& p) { return !(p.mask & ~a.mask) && (p.gid == a.gid || ordered(p, a, ts)); });
    }
  }
}

bool Races::access(const Region* r, uint64_t off, unsigned size, const AccessInfo& a0, const ThreadSync& ts,
                   const WarpColl& wc, RaceHit& hit, const AccessInfo* issued, const ThreadSync* issued_ts) {
  // An asynchronous copy's access (PTX ISA 8.9.1.1) is recorded as a0 (its
  // completion) but ordered after only what its issue was ordered after.
  const ThreadSync& cts = issued_ts ? *issued_ts : ts;
  prev_wgid_ = ~0u;
  if (!enabled || !r) return false;
  bool found = false;
  cov_.built = false;
  cov_.excused = false;
  RegionShadow& rs = shadow(r);
  const size_t granules = (r->bytes.size() + 3) / 4;
  if (rs.g.size() * kPage < granules) rs.g.resize((granules + kPage - 1) / kPage);
  for (uint64_t g = off / 4; g * 4 < off + size && g < granules; ++g) {
    // Bytes of this granule covered by [off, off + size).
    uint64_t lo = std::max<uint64_t>(off, g * 4), hi = std::min<uint64_t>(off + size, g * 4 + 4);
    AccessInfo a = a0;
    a.mask = static_cast<uint8_t>(((1u << (hi - lo)) - 1) << (lo - g * 4));
    a.start = static_cast<int8_t>(static_cast<int64_t>(off) - static_cast<int64_t>(g * 4));
    AccessInfo ca = a;
    if (issued) ca.gen = issued->gen, ca.clock = issued->clock;
    Page& pg = rs.g[g / kPage];
    const uint64_t j = g % kPage;
    auto pn = [&] { return std::min(kPage, granules - g / kPage * kPage); };  // entries of a new array
    const AccessInfo& sw = pg.w ? pg.w[j] : kNone;
    uint32_t more = pg.more ? pg.more[j] : 0;
    auto races = [&](const AccessInfo& p) {
      return p.valid() && (p.mask & a.mask) && p.gid != a.gid && (p.write || a.write) && !morally_strong(p, a) &&
             !ordered(p, ca, cts) && !(p.obs && observed_before(p, ca, cts, rs, off, cov_));
    };
    auto note = [&](const AccessInfo& p) {
      if (found) return;
      const uint32_t pl = lin_of(p.gid), al = lin_of(a.gid);
      bool ws = same_cta(p.gid, a.gid) && pl / 32 == al / 32 && wc.joined(p.wcoll, pl % 32, al % 32);
      hit = RaceHit{p, static_cast<uint64_t>(static_cast<int64_t>(g * 4) + p.start), ws};
      found = true;
    };
    Multi* m = more ? &multi_[more - 1] : nullptr;
    if (g == off / 4) prev_wgid_ = sw.valid() && (sw.mask & a.mask) ? sw.gid : ~0u;
    if (races(sw)) note(sw);
    // Concurrent strong writes by many threads (a counter): one that is
    // morally strong with every one of them need not look at each.
    const bool skip_w = m && wide(a) && m->all_wide && m->wstart == a.start && m->wsize == a.size;
    if (m && !skip_w)
      for (const auto& e : m->w)
        if (races(e)) note(e);
    if (a.write) {
      if (pg.r && races(pg.r[j])) note(pg.r[j]);
      if (pg.r2 && races(pg.r2[j])) note(pg.r2[j]);
      if (m)
        for (const auto& e : m->r)
          if (races(e)) note(e);
    }
    // 8.9.5: observation order ordered a write W before `a`, which is
    // then not ordered after the accesses that W dropped from the shadow
    // (they precede W in base causality order only): check them.
    if (cov_.excused && m)
      for (const auto& e : m->d)
        if (races(e)) note(e);
    if (a.write) {
      Shadow s = load(rs, g);
      record_write(s, m, a, ts, skip_w);
      if (!pg.w) pg.w = std::make_unique<AccessInfo[]>(pn());
      pg.w[j] = s.w;
      // A write keeps only reads the granule had: no array is needed for them.
      if (pg.r) pg.r[j] = s.r;
      if (pg.r2) pg.r2[j] = s.r2;
      more = s.more;
    } else {
      if (!pg.r) pg.r = std::make_unique<AccessInfo[]>(pn());
      AccessInfo& sr = pg.r[j];
      const AccessInfo o = sr;
      sr = a;
      const bool covered =
          !o.valid() || (!(o.mask & ~a.mask) && (o.gid == a.gid || (!a.strong() && ordered(o, a, ts))));
      if (!covered) {
        if (o.strong()) {  // strong reads: every one is kept
          Shadow t;
          t.more = more;
          multi_of(t).add_r(o);
          more = t.more;
        } else {
          put(pg.r2, j, o, true, pn());  // weak reads: the latest two of different threads (docs/races.md)
        }
      }
    }
    if (more && multi_[more - 1].empty()) {
      free_multi_.push_back(more - 1);
      more = 0;
    }
    put(pg.more, j, more, more != 0, kPage);  // whole: forget() reads it without the region
  }
  return found;
}

}  // namespace ptxcheck::interp
