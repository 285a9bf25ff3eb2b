// Data-race detection on the executed schedule (docs/races.md).
//
// PTX ISA 9.2 8.7.1 Conflict and Data-races: two overlapping accesses
// conflict when at least one is a write; they are in a data race when they
// are neither morally strong (8.7) nor related in causality order (8.9.5).
// Causality order of the executed schedule is tracked with vector clocks
// over the synchronizes-with edges of 8.9.4:
//   - release and acquire patterns (8.8), fence-based ones included, whose
//     write precedes the read in observation order (8.9.2: through a chain
//     of morally strong atomics), with the first operation of the release
//     pattern and the last of the acquire pattern morally strong (scopes
//     that include each other's thread);
//   - bar{.cta}.sync/.red/.arrive among the threads that arrive at one
//     barrier instance (8.9.4 item 2), bar.warp.sync among its lanes,
//     barrier.cluster arrive/wait (item 3);
//   - mbarrier phases: arrivals (release) and the waits that observe the
//     phase completion (acquire) (8.8 release/acquire pattern examples);
//   - fence.sc pairs whose Fence-SC order the values read force (8.9.3,
//     8.10.6 item 1: gather_sc, carry_sc, sc_forced).
// Base causality order is transitive; the clocks carry it.
//
// Representation: a thread's knowledge is a shared immutable `Know` (for
// each CTA the number of CTA-wide barriers of it that are known complete,
// for each thread a clock) plus its own clock. A CTA-wide barrier (every
// live thread waits at it) advances the CTA's generation instead of adding
// one clock per thread: an access made in generation g is known to anyone
// who knows generation g+1 of its CTA, unless its thread exited before.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "memmodel/events.hpp"
#include "semantics/interp/memory.hpp"

namespace ptxcheck::interp {

struct Know {
  std::vector<std::pair<uint32_t, uint32_t>> ctas;  // (CTA uid, completed CTA-wide barriers), sorted
  std::vector<std::pair<uint32_t, uint32_t>> thr;   // (thread gid, clock), sorted
  uint32_t cta_gen(uint32_t cta) const;
  uint32_t clock_of(uint32_t gid) const;
};
using KnowP = std::shared_ptr<const Know>;

// A thread's place in the scope tree (PTX ISA 8.5) and its CTA-wide barrier
// generation now.
struct Who {
  uint32_t gid = 0, cta = 0, cluster = 0, gen = 0;
};

// PTX ISA 8.5: whether scope `s` of an operation by thread `a` includes thread `b`.
inline bool scope_includes(mm::Scope s, const Who& a, const Who& b) {
  switch (s) {
    case mm::Scope::CTA: return a.cta == b.cta;
    case mm::Scope::Cluster: return a.cluster == b.cluster;
    default: return true;  // .gpu and .sys: one device runs the whole grid
  }
}

// The clock of a thread at the first operation of a release pattern, with
// that operation's scope.
struct Rel {
  KnowP k;
  Who who;
  uint32_t clock = 0;
  mm::Scope scope = mm::Scope::Sys;
  bool valid = false;
  bool sc = false;  // the operation is a fence.sc (Fence-SC order, 8.9.3: Races::carry_sc)
};

// Per-thread synchronisation state.
struct ThreadSync {
  KnowP k;                    // what the thread knows of others (null: nothing)
  uint32_t clock = 1;         // advances at each release
  std::array<Rel, 4> fence;   // [s]: the latest release fence of scope >= s (mm::Scope order)
  struct Pend {
    Rel rel;
    const Region* r;
    uint64_t off;
    // Observed by a strong read of another thread that precedes this
    // thread's next operations in base causality order (Races::carry_sc):
    // only a fence.sc completes it.
    bool carried = false;
  };
  std::vector<Pend> pend;     // releases observed by strong reads, until an acquire completes the pattern
  void reset() {
    k.reset();
    clock = 1;
    for (Rel& f : fence) {  // = Rel{} without building a temporary (a CTA's set-up resets every thread)
      f.k.reset();
      f.who = {};
      f.clock = 0;
      f.scope = mm::Scope::Sys;
      f.valid = false;
      f.sc = false;
    }
    pend.clear();
  }
};

// Warp-collective .sync instructions a warp executed: event n took part
// with the lanes mask[n % 64].
struct WarpColl {
  uint32_t seq = 0;
  std::array<uint32_t, 64> mask{};
  void add(uint32_t lanes) { mask[++seq % 64] = lanes; }
  // Some collective after event `since` (mod 2^16, up to now) had both lanes.
  bool joined(uint16_t since, uint32_t la, uint32_t lb) const;
};

struct AccessInfo {  // 24 bytes: three per 4-byte granule of shadow
  uint32_t gid = 0;             // the thread (its CTA: Races::cta_of)
  uint32_t gen = 0, clock = 0;  // the thread's CTA-wide barrier generation and clock
  uint32_t pc = 0;              // code index of the instruction
  uint16_t wcoll = 0;           // its warp's WarpColl::seq at the access (mod 2^16)
  uint8_t size = 0;             // bytes of the whole access (up to 255)
  int8_t start = 0;             // its first byte relative to this granule
  uint8_t mask = 0;             // bytes of the 4-byte granule accessed (set by Races)
  mm::Order order : 3 = mm::Order::Weak;
  mm::Scope scope : 2 = mm::Scope::Sys;
  bool write : 1 = false;
  bool async : 1 = false;  // a cp.reduce.async.bulk{.tensor} reduction: an access of the async proxy
  bool obs : 1 = false;    // a strong write of the generic proxy that reads may observe (8.9.2): `wser` is set
  uint16_t wser = 0;       // its serial in its location's strong writes (Races::LocSync), mod 2^16
  bool strong() const { return order != mm::Order::Weak; }
  bool valid() const { return mask != 0; }
};
static_assert(sizeof(AccessInfo) == 24);

// PTX ISA 8.5: an access at .gpu or .sys scope includes every thread of the grid.
inline bool wide(const AccessInfo& a) { return a.strong() && a.scope >= mm::Scope::GPU; }

struct RaceHit {
  AccessInfo prev;
  uint64_t prev_off = 0;  // region offset of the earlier access's first byte
  bool warp_sync = false;  // ordered only through a warp-collective .sync instruction
};

class Races {
 public:
  bool enabled = true;
  std::vector<uint32_t> exit_gen;  // per gid: CTA generation when the thread exited (~0u: running)
  std::vector<uint32_t> cluster_of;  // per CTA uid: its cluster (uid of the cluster's first CTA)
  // Threads are numbered CTA after CTA in the order the CTAs run:
  // gid = run * nthreads + thread index in the CTA; run_cta[run] is the CTA uid.
  uint32_t nthreads = 1;
  std::vector<uint32_t> run_cta;
  uint32_t cta_of(uint32_t gid) const { return run_cta[gid / nthreads]; }
  uint32_t lin_of(uint32_t gid) const { return gid % nthreads; }

  // Checks an access (thread sync `ts`, its warp's collectives `wc`)
  // against the shadow of the bytes and records it; true when it races
  // with an earlier access (then `hit` says which). A cp.async's access at
  // its completion (PTX ISA 8.9.1.1) passes `issued`/`issued_ts`, the
  // thread's generation and knowledge at its issue: it is recorded as `a`,
  // but ordered only after what the issue was ordered after.
  bool access(const Region* r, uint64_t off, unsigned size, const AccessInfo& a, const ThreadSync& ts,
              const WarpColl& wc, RaceHit& hit, const AccessInfo* issued = nullptr,
              const ThreadSync* issued_ts = nullptr);
  // Drops the shadow of a region that is being freed (a finished CTA's shared memory).
  void forget(const Region* r);
  // Drops the shadow of bytes [off, off + size) of `r` (4-byte granules
  // that overlap it): a device malloc block, fresh memory for its new owner.
  void forget_range(const Region* r, uint64_t off, uint64_t size);

  // --- synchronisation (races_sync.cpp) ---
  // A strong read / write of [off, off+size) (atomics: the read, then the
  // write with rmw = true; red: no acquire, PTX ISA 8.11.1; async: a
  // reduction of the async proxy, which observes nothing for the generic
  // accesses that follow it).
  void strong_read(ThreadSync& ts, const Who& w, const Region* r, uint64_t off, unsigned size, mm::Order o,
                   mm::Scope s, bool red, bool async = false);
  void strong_write(ThreadSync& ts, const Who& w, const Region* r, uint64_t off, unsigned size, mm::Order o,
                    mm::Scope s, bool rmw);
  void weak_write(const Region* r, uint64_t off);
  // A weak ld / st of thread `w` (the generic proxy, program order). A
  // store records the fence.sc releases before it in program order on its
  // location; a load that reads it (as any read that does not observe the
  // last write, 8.9.2) carries them until a fence.sc (sc_forced).
  void weak_store(const ThreadSync& ts, const Who& w, const Region* r, uint64_t off, unsigned size);
  void weak_load(ThreadSync& ts, const Who& w, const Region* r, uint64_t off) {
    if (any_sc_ && prev_wgid_ != ~0u && prev_wgid_ != w.gid) weak_load_other(ts, w, r, off);
  }
  // Before access() of a strong write of the generic proxy (atom, red,
  // st.relaxed/.release/.volatile; `rmw` for the atomics): numbers it in
  // the strong writes of its location (a.obs, a.wser), for observation
  // order (8.9.2). strong_write must follow.
  void begin_write(const Region* r, uint64_t off, unsigned size, AccessInfo& a, const Who& w, bool rmw);
  void fence(ThreadSync& ts, const Who& w, mm::Order o, mm::Scope s);
  // The thread's clock as a release of scope s; advances its clock.
  static Rel release(ThreadSync& ts, const Who& w, mm::Scope s);
  // Joins a release into the thread's knowledge.
  static void join(ThreadSync& ts, const Rel& r);
  static void join(ThreadSync& ts, const KnowP& k);
  // A barrier orders the strong reads of its arriving threads before the
  // later operations of its waiting threads: the releases started by a
  // fence.sc that those reads observed (gather_sc: at most kCarried, not yet
  // known to the reader) wait in the waiters' pend for a fence.sc (carry_sc). PTX ISA 8.9.3, 8.10.1: a
  // fence.sc F1 before a write W that a read Z observes (8.9.2), and a
  // fence.sc F2 after Z in base causality order, morally strong with F1:
  // F2 before F1 in Fence-SC order would put W before W in causality order
  // (8.9.5 item 2), so F1 precedes F2 and synchronizes with it (8.9.4 item 1).
  static constexpr size_t kCarried = 64;
  static void gather_sc(std::vector<ThreadSync::Pend>& out, const ThreadSync& src);
  static void carry_sc(ThreadSync& dst, const std::vector<ThreadSync::Pend>& in);
  // Knowledge of every release in `rels` (their clocks included unless
  // `cta_wide`: then the threads of CTA `cta` that are still running are
  // covered by the generation that completes now and are left out).
  KnowP merge(const std::vector<Rel>& rels, bool cta_wide, uint32_t cta, uint32_t first_gid, uint32_t nthreads) const;
  // mbarrier objects (PTX ISA 9.7.13.15): arrivals of the current phase,
  // phase completion, and a wait that observed the completion of the phase
  // of parity `parity`.
  void mbar_arrive(const Region* r, uint64_t off, const Rel& rel, bool remote);
  void mbar_complete(const Region* r, uint64_t off, unsigned parity);
  void mbar_wait(ThreadSync& ts, const Region* r, uint64_t off, unsigned parity, bool cluster_scope);
  void mbar_init(const Region* r, uint64_t off);

 private:
  struct Multi {  // concurrent accesses beyond the inline ones
    std::vector<AccessInfo> w, r;
    // Every write in `w` is strong at .gpu/.sys scope with this start and
    // size: morally strong with any other such access (no need to look).
    bool all_wide = true;
    int8_t wstart = 0;
    uint8_t wsize = 0;
    // Accesses that left the shadow because a later strong write W that
    // reads may observe follows them in base causality order, and that are
    // not in W's chain of atomics: an access ordered after W only through
    // observation order is not ordered after them (8.9.5). The latest
    // kDropped, a ring from d_next; read only when observation order
    // excuses a pair (docs/races.md).
    std::vector<AccessInfo> d;
    uint32_t d_next = 0;
    void add_r(const AccessInfo& p);  // (add_w: races.cpp)
    void add_d(const AccessInfo& p);
    bool empty() const { return w.empty() && r.empty() && d.empty(); }
    void clear() {
      w.clear();
      r.clear();
      d.clear();
      d_next = 0;
    }
  };
  static constexpr size_t kDropped = 64;  // dropped accesses kept per granule (docs/races.md)
  struct Shadow {
    AccessInfo w, r;  // the last write and the last read
    AccessInfo r2;    // an earlier weak read by another thread that `r` does not cover
    uint32_t more = 0;  // index + 1 into multi_ (concurrent strong accesses, partial writes)
  };
  // A strong read Z of the generic proxy that observed the strong writes
  // [lo, hi] of a location (8.9.2: the write it read and the chain of
  // morally strong atomics that ends there).
  struct Obs {
    uint32_t gid = 0, gen = 0, clock = 0;  // Z's thread, CTA-wide barrier generation and clock
    uint64_t lo = 0, hi = 0;
  };
  struct RegionShadow;
  static constexpr size_t kObs = 256;  // observations kept per location (docs/races.md)
  struct LocSync {  // the last write of a location as observation order sees it (8.9.2)
    Who writer;
    mm::Scope scope = mm::Scope::Sys;
    uint16_t size = 0;
    bool strong = false;
    std::vector<Rel> rels;  // release patterns whose write precedes it in observation order
    // Strong writes are numbered 1, 2, ... (`serial`: the last one's);
    // `chain_lo` is the first of the chain that ends at the last write.
    uint64_t serial = 0, chain_lo = 0;
    std::vector<Obs> obs;  // the latest kObs observations (a ring from obs_next)
    uint32_t obs_next = 0;
  };
  // A morally strong access of `size` bytes by thread `w` at scope `s`
  // reads the last write of L (8.9.2 item 1).
  static bool observes(const LocSync& L, const Who& w, unsigned size, mm::Scope s) {
    return L.strong && L.size == size &&
           (L.writer.gid == w.gid || (scope_includes(L.scope, L.writer, w) && scope_includes(s, w, L.writer)));
  }
  // Causality order, item 2 (8.9.5): the strong write p precedes some read
  // in observation order that precedes the access `a` (same address,
  // generic proxy) in base causality order.
  struct ObsCover {  // serials of the writes that observations ordered before an access cover
    bool built = false;
    bool excused = false;  // some p was ordered before the access this way (races.cpp: the dropped accesses)
    uint64_t serial = 0;
    std::vector<std::pair<uint64_t, uint64_t>> iv;  // sorted, disjoint
  };
  bool observed_before(const AccessInfo& p, const AccessInfo& a, const ThreadSync& ts, const RegionShadow& rs,
                       uint64_t addr, ObsCover& cov) const;
  static void note_observer(LocSync& L, const Who& w, uint32_t clock);
  LocSync& loc(const Region* r, uint64_t off) {
    if (cur_loc_ && r == cur_r_ && off == cur_off_) return *cur_loc_;
    return shadow(r).sync[off];
  }
  struct MbarSync {
    std::vector<Rel> cur_local, cur_remote;
    KnowP done[2][2];  // [parity][cluster scope]
  };
  // The shadow of a region's 4-byte granules, in pages of up to kPage
  // granules: each of a page's arrays (the last writes, the last reads, the
  // earlier reads, the Multi indices) is made when a granule of the page
  // first needs it. A worker of a parallel launch (parallel.cpp) shadows
  // only what its CTAs access, not the whole buffer, and a buffer that is
  // only read (written) has no write (read) records.
  static constexpr uint64_t kPage = 64;
  struct Page {
    std::unique_ptr<AccessInfo[]> w, r, r2;
    std::unique_ptr<uint32_t[]> more;
  };
  struct RegionShadow {
    std::vector<Page> g;  // granule i: the arrays of g[i / kPage], at i % kPage
    bool sc = false;      // some LocSync of the region got a fence.sc release (weak_load looks only then)
    std::unordered_map<uint64_t, LocSync> sync;
    std::unordered_map<uint64_t, MbarSync> mbar;
  };
  // PTX ISA 8.10.6 item 1, 8.9.3: a read Z (by thread w, of L's location)
  // that reads a write W without observing it: the fence.sc releases
  // before W in program order (L.rels, sc, by W's thread) wait in Z's
  // thread as carried pend entries for a morally strong fence.sc F2 after Z
  // (F2 before F1 in Fence-SC order would put Z before W in causality
  // order, and Z could not read W). W is checked against prev_wgid_.
  void sc_forced(ThreadSync& ts, const Who& w, const LocSync& L, const Region* r, uint64_t off) const;
  // p precedes the access `a` (of the thread whose state is `ts`) in causality order.
  bool ordered(const AccessInfo& p, const AccessInfo& a, const ThreadSync& ts) const;
  // p leaves the shadow of a granule (its Multi: m) at the write `a` (races.cpp).
  void dropped(Multi& m, const AccessInfo& p, const AccessInfo& a);
  Multi& multi_of(Shadow& s);  // the Multi of a granule, made when needed
  void record_write(Shadow& s, Multi* m, const AccessInfo& a, const ThreadSync& ts, bool skip_w);
  bool morally_strong(const AccessInfo& p, const AccessInfo& a) const;
  bool same_cta(uint32_t g1, uint32_t g2) const { return g1 / nthreads == g2 / nthreads; }
  Who who_of(const AccessInfo& a) const {
    const uint32_t c = cta_of(a.gid);
    return Who{a.gid, c, c < cluster_of.size() ? cluster_of[c] : 0, a.gen};
  }
  RegionShadow& shadow(const Region* r);
  // The shadow of granule `i` (empty records where the page has none).
  static Shadow load(const RegionShadow& rs, uint64_t i) {
    const Page& p = rs.g[i / kPage];
    const uint64_t j = i % kPage;
    Shadow s;
    if (p.w) s.w = p.w[j];
    if (p.r) s.r = p.r[j];
    if (p.r2) s.r2 = p.r2[j];
    if (p.more) s.more = p.more[j];
    return s;
  }
  std::unordered_map<const Region*, RegionShadow> shadow_;
  std::vector<Multi> multi_;
  std::vector<uint32_t> free_multi_;
  const Region* last_r_ = nullptr;
  RegionShadow* last_sh_ = nullptr;
  ObsCover cov_;  // of the access being checked
  // The thread of the last write of the first granule of the access
  // checked last, before it, when that write overlaps the access (the
  // write a read there reads from); else ~0u.
  uint32_t prev_wgid_ = ~0u;
  // Some RegionShadow::sc is set.
  bool any_sc_ = false;
  void weak_load_other(ThreadSync& ts, const Who& w, const Region* r, uint64_t off);  // another thread's write
  // The location of the strong write between begin_write and strong_write,
  // and the serials of the chain that the write ends: [cur_lo_, cur_hi_].
  LocSync* cur_loc_ = nullptr;
  const Region* cur_r_ = nullptr;
  uint64_t cur_off_ = 0;
  uint64_t cur_lo_ = 0, cur_hi_ = 0;
};

}  // namespace ptxcheck::interp
