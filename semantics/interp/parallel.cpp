// CTAs on all cores (docs/interpreter.md, "CTAs on all cores").
//
// A launch whose clusters are single CTAs runs its CTAs on worker threads,
// each CTA exactly as the deterministic schedule runs it (the schedule runs
// one CTA at a time, in linear order, each to its end), and merges what
// they report in CTA order. Every global-memory byte range a CTA touches is
// claimed per 4-byte granule: read by one CTA, read by several, or owned by
// one CTA that wrote it. A write meeting another CTA's claim, or a read
// meeting another CTA's write, abandons the attempt, as do a CTA that stops
// the launch (a fatal error, a deadlock, the step budget) and a read of the
// clocks (they count the instructions of the CTAs before). Abandoning
// restores the bytes the CTAs wrote (each 4 KiB chunk of an allocation is
// saved before the first write to it; an allocation the launch filled from
// the spec or the module is copied back from there, or filled again from
// the spec buffer's description when the run took its bytes) and runs the
// deterministic schedule from the launch's start.
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <numeric>
#include <thread>
#include <tuple>

#include "semantics/interp/exec_util.hpp"
#include "semantics/interp/machine_state.hpp"
#include "semantics/interp/mma.hpp"
#include "semantics/interp/parallel_analysis.hpp"
#include "semantics/interp/texture.hpp"

namespace ptxcheck::interp {

struct ParShared {
  // Each global allocation's bytes (and initialisation flags) as they were
  // before the launch, saved per chunk before the first write to it: the
  // claim of a write saves the granule's chunk unless it is saved already,
  // and no byte of a chunk is written before it is saved (every global
  // write claims first). A chunk's state: 0 not saved, 1 being saved, 2 saved.
  static constexpr size_t kChunk = 4096;
  struct Saved {
    // The allocation's bytes before the launch, kept by the caller: the
    // launch spec's buffer or the module global it was copied from (then
    // nothing is saved, and abandoning copies it all back); or the spec
    // buffer's description, when the run took its bytes (then abandoning
    // makes them again: fill_elements).
    const uint8_t* pristine = nullptr;
    const BufferSpec* fill = nullptr;
    uint32_t* state = nullptr;  // one word per chunk (zeroed())
    uint8_t* bytes = nullptr;   // the allocation's size (unset(): only saved chunks are read)
    uint8_t* init = nullptr;    // the same for Region::init, when the allocation tracks it
  };
  struct CtaOut {  // what one CTA reported
    uint64_t uid;
    std::vector<Diagnostic> diags;
    std::string out;
  };
  struct alignas(64) Worker {  // (no cache line shared with another worker's)
    RunResult res;
    std::unique_ptr<Machine> m;
    std::vector<CtaOut> outs;
    std::exception_ptr error;
  };
  // Claim words, one per 4-byte granule of each global allocation: 0 no
  // claim; (uid + 1) << 2 | kRead / kWrite; kShared: read by several CTAs.
  // A word per block of kBlockGranules granules says whether all of them are
  // in one state, that word's (then their own words are not used: a
  // coalesced access claims a block with one operation), or each is in the
  // state of its own word (kFine). kLocked: being split (the granules' words
  // get the block's state). A block never returns to uniform.
  static constexpr uint32_t kRead = 1, kWrite = 2, kShared = ~0u & ~kWrite;
  static constexpr uint32_t kFine = ~0u & ~1u, kLocked = ~0u, kFail = 3;  // kFail: no state (a conflict)
  static constexpr uint64_t kBlockGranules = 8;                           // 32 bytes
  uintptr_t gbase = 0;                                                    // &Memory::global(0)
  size_t nglobal = 0;
  std::vector<uint32_t*> claims;
  std::vector<uint32_t*> blocks;  // per global allocation, as claims
  std::vector<Saved> saved;       // per global allocation, as claims
  // Per global allocation: 1 when the kernel's code was not seen to write
  // it (written_allocations): reads of it claim nothing, and a write to it
  // abandons the attempt.
  std::vector<uint8_t> ro;
  // Per instruction: 1 for a load that claims its bytes as written, because
  // a store to the same address follows it (loads_then_stored).
  std::vector<uint8_t> ld_write;
  uint64_t nctas = 0;
  std::array<uint32_t, 3> grid{1, 1, 1};
  uint32_t nthreads = 0, nwarps = 0;
  unsigned nworkers = 1;
  // Each on a cache line of its own: a worker reads `abort` after every
  // warp's quantum, and a write to `next` (per part of the grid) or to
  // `steps` (per 4096 instructions) on the same line would make the other
  // worker's next read of it a miss.
  alignas(64) std::atomic<uint64_t> next{0};   // the next CTA to start
  alignas(64) std::atomic<uint64_t> steps{0};  // published thread instructions
  alignas(64) std::atomic<bool> abort{false};
  alignas(64) char after_abort_ = 0;  // (nothing else on abort's line)
  std::mutex mu;
  std::string reason;  // why the attempt was abandoned (the first reason)
  std::vector<std::unique_ptr<Worker>> workers;

  void fail(const std::string& why) {
    {
      std::lock_guard<std::mutex> g(mu);
      if (reason.empty()) reason = why;
    }
    abort.store(true, std::memory_order_release);
  }
  // Saves the chunk of allocation i (region r) that holds granule g, or
  // waits until the thread saving it is done.
  void save(size_t i, const Region* r, uint64_t g) {
    const Saved& sv = saved[i];
    if (sv.pristine || sv.fill) return;
    const uint64_t c = g * 4 / kChunk;
    std::atomic_ref<uint32_t> st(sv.state[c]);
    uint32_t v = st.load(std::memory_order_acquire);
    if (v == 2) return;
    if (v == 0 && st.compare_exchange_strong(v, 1, std::memory_order_acq_rel, std::memory_order_acquire)) {
      const size_t b = c * kChunk, n = std::min(kChunk, r->bytes.size() - b);
      std::memcpy(sv.bytes + b, r->bytes.data() + b, n);
      if (sv.init) std::memcpy(sv.init + b, r->init.data() + b, n);
      st.store(2, std::memory_order_release);
      return;
    }
    while (st.load(std::memory_order_acquire) != 2) std::this_thread::yield();
  }
  // Puts back every saved chunk (after the workers have stopped).
  void restore(Memory& mem) {
    for (size_t i = 0; i < saved.size(); ++i) {
      if (ro[i]) continue;  // never written
      Region& r = mem.global(i);
      if (saved[i].pristine) {
        if (!r.bytes.empty()) std::memcpy(r.bytes.data(), saved[i].pristine, r.bytes.size());
        continue;
      }
      if (const BufferSpec* b = saved[i].fill) {
        fill_elements(b->fill, b->type, r.bytes.data(), 0, b->count);
        continue;
      }
      for (size_t c = 0, nc = (r.bytes.size() + kChunk - 1) / kChunk; c < nc; ++c) {
        if (saved[i].state[c] != 2) continue;
        const size_t b = c * kChunk, n = std::min(kChunk, r.bytes.size() - b);
        std::memcpy(r.bytes.data() + b, saved[i].bytes + b, n);
        if (saved[i].init) std::memcpy(r.init.data() + b, saved[i].init + b, n);
      }
    }
  }
  // n zero bytes (calloc), freed with the ParShared; nullptr when there is
  // no memory. (Anonymous mappings, whose pages cost nothing until
  // touched, were slower: every claim page the workers touch faults, and
  // unmapping pages two threads touched interrupts the other core; bench
  // stencil2d 2 jobs 0.025-0.027 s -> 0.032-0.035 s.)
  std::vector<void*> zeroed_;
  template <class T>
  T* zeroed(size_t count) {
    void* p = std::calloc(std::max<size_t>(count, 1), sizeof(T));
    if (p) zeroed_.push_back(p);
    return static_cast<T*>(p);
  }
  // n bytes of any value (malloc), freed with the ParShared: the saved
  // bytes, of which only the saved chunks are ever read.
  uint8_t* unset(size_t n) {
    void* p = std::malloc(std::max<size_t>(n, 1));
    if (p) zeroed_.push_back(p);
    return static_cast<uint8_t*>(p);
  }
  // The claim words of each claimed allocation: its block words, then its
  // granule words (`blocks`, `claims`), zero, from the process's ClaimPool.
  struct Words {
    uint32_t* p = nullptr;
    size_t cap = 0;  // words
    size_t nblocks = 0;
  };
  std::vector<Words> words_;
  ~ParShared();
};

namespace {

// Claim words kept between the launches of a process, all zero while
// kept: a launch takes them instead of calloc'ing its claims (glibc's
// calloc clears a block it reuses from the heap, and a fresh mapping
// faults once per page the workers touch: the bench's saxpy claims 4.5
// MiB per run). A launch gives them back clean: only the block words and
// the granule words of split blocks are ever written (claim()), so those
// are cleared, not the whole array. At most kKeep bytes are kept.
class ClaimPool {
 public:
  static ClaimPool& get() {
    static ClaimPool pool;
    return pool;
  }
  // Zero words, at least n; cap = how many; nullptr when there is no memory.
  uint32_t* take(size_t n, size_t& cap) {
    {
      std::lock_guard<std::mutex> g(mu_);
      size_t best = free_.size();
      for (size_t k = 0; k < free_.size(); ++k)
        if (free_[k].second >= n && (best == free_.size() || free_[k].second < free_[best].second)) best = k;
      if (best < free_.size()) {
        uint32_t* p = free_[best].first;
        cap = free_[best].second;
        kept_ -= cap * sizeof(uint32_t);
        free_.erase(free_.begin() + static_cast<std::ptrdiff_t>(best));
        return p;
      }
    }
    cap = std::max<size_t>(n, 1);
    return static_cast<uint32_t*>(std::calloc(cap, sizeof(uint32_t)));
  }
  // Takes back p (cap words, all zero again).
  void give(uint32_t* p, size_t cap) {
    std::lock_guard<std::mutex> g(mu_);
    if (cap * sizeof(uint32_t) > kKeep) {
      std::free(p);
      return;
    }
    while (!free_.empty() && kept_ + cap * sizeof(uint32_t) > kKeep) {  // the oldest go first
      kept_ -= free_.front().second * sizeof(uint32_t);
      std::free(free_.front().first);
      free_.erase(free_.begin());
    }
    free_.emplace_back(p, cap);
    kept_ += cap * sizeof(uint32_t);
  }
  ~ClaimPool() {
    for (auto& f : free_) std::free(f.first);
  }

 private:
  static constexpr size_t kKeep = size_t{64} << 20;
  std::mutex mu_;
  std::vector<std::pair<uint32_t*, size_t>> free_;
  size_t kept_ = 0;
};

}  // namespace

ParShared::~ParShared() {
  for (void* p : zeroed_) std::free(p);
  // Clear what claim() wrote (the workers have stopped): every block word,
  // and the granule words of the blocks that were split (kFine).
  for (const Words& w : words_) {
    uint32_t* const bl = w.p;
    uint32_t* const cl = w.p + w.nblocks;
    for (uint32_t* f = bl; (f = std::find(f, bl + w.nblocks, kFine)) != bl + w.nblocks; ++f)
      std::memset(cl + (f - bl) * kBlockGranules, 0, kBlockGranules * sizeof(uint32_t));
    std::memset(bl, 0, w.nblocks * sizeof(uint32_t));
    ClaimPool::get().give(w.p, w.cap);
  }
}

bool parse_jobs(const char* s, unsigned& n) {
  if (!s || *s < '0' || *s > '9') return false;
  char* end = nullptr;
  const unsigned long v = std::strtoul(s, &end, 10);
  if (*end || v == 0 || v > 4096) return false;
  n = static_cast<unsigned>(v);
  return true;
}

unsigned default_jobs() {
  unsigned n = 0;
  if (parse_jobs(std::getenv("PTXCHECK_JOBS"), n)) return n;
  n = std::thread::hardware_concurrency();
  return n ? n : 1;
}

Machine::Machine(const Machine& parent, RunResult& r, ParShared& ps, size_t index)
    : prog(parent.prog), spec(parent.spec), opt(parent.opt), res(r), image_(nullptr), mem(parent.mem) {
  races.enabled = parent.races.enabled;
  // With budget_since_exit each worker counts from its own last exit: it
  // runs one CTA at a time, as the deterministic schedule does, and a CTA's
  // last event is a thread exit, so each count equals that schedule's.
  step_limit_ = opt.max_steps;
  races.nthreads = parent.races.nthreads;
  if (races.enabled) {
    // A single-CTA cluster is its own; thread numbers follow the CTA's
    // linear number, as in the deterministic schedule (run_cluster).
    races.cluster_of.assign(ps.nctas, 0);
    races.run_cta.resize(ps.nctas);
    std::iota(races.run_cta.begin(), races.run_cta.end(), 0u);
  }
  textures_ = parent.textures_;
  proxy_on_ = parent.proxy_on_;
  cl_ = parent.cl_;
  explicit_cl_ = parent.explicit_cl_;
  pc_hot_.assign(prog.code.size(), nullptr);
  par_ = &ps;
  par_index_ = index;
}

// The claim transition of one granule (or of a block whose granules are
// all in state v): the new state, v when nothing changes, kFail on a conflict.
static uint32_t transition(uint32_t v, uint32_t mine, bool write) {
  if ((v & ~3u) == mine) return !write || (v & ParShared::kWrite) ? v : v | ParShared::kWrite;
  if (!v) return mine | (write ? ParShared::kWrite : ParShared::kRead);
  if (!write && !(v & ParShared::kWrite)) return ParShared::kShared;  // kShared stays kShared
  return ParShared::kFail;
}

bool Machine::claim(const Region* r, uint64_t off, unsigned size, bool write) {
  ParShared& ps = *par_;
  const uintptr_t d = reinterpret_cast<uintptr_t>(r) - ps.gbase;
  const size_t i = d / sizeof(Region);
  if (d % sizeof(Region) || i >= ps.nglobal || !size) return true;  // not a global allocation
  if (ps.ro[i]) {  // an allocation the kernel's code was not seen to write
    if (!write) return true;
    ps.fail("a CTA wrote global memory that the kernel's code was not seen to write");
    stop_ = true;
    return false;
  }
  uint32_t* const cl = ps.claims[i];
  uint32_t* const bl = ps.blocks[i];
  const uint32_t mine = par_cta_ << 2;
  constexpr uint64_t B = ParShared::kBlockGranules;
  uint64_t saved_chunk = ~0ull;  // the chunk this call saved last
  auto save = [&](uint64_t g) {
    if (g * 4 / ParShared::kChunk == saved_chunk) return;
    saved_chunk = g * 4 / ParShared::kChunk;
    ps.save(i, r, g);
  };
  auto conflict = [&] {
    ps.fail(write ? "a CTA wrote global memory that another CTA accessed"
                  : "a CTA read global memory that another CTA wrote");
    stop_ = true;
    return false;
  };
  const uint64_t g0 = off >> 2, g1 = (off + size - 1) >> 2;  // granules [g0, g1]
  uint64_t b = g0 / B;
  if (!(off % (4 * B)) && !(size % (4 * B))) {
    // Whole blocks (a warp's coalesced access): while each is uniform, its
    // word takes the claim, as in the loop below, without its per-block
    // bounds and split cases. Anything else: the loop below from there.
    for (; b <= g1 / B; ++b) {
      std::atomic_ref<uint32_t> blk(bl[b]);
      uint32_t v = blk.load(std::memory_order_acquire);
      if (v == ParShared::kFine || v == ParShared::kLocked) break;
      const uint32_t nv = transition(v, mine, write);
      if (nv == ParShared::kFail) return conflict();
      if (nv == v) continue;
      if (!blk.compare_exchange_strong(v, nv, std::memory_order_acq_rel, std::memory_order_acquire)) break;
      if (write) save(b * B);  // the first write of this CTA to the block
    }
  }
  for (; b <= g1 / B; ++b) {
    const uint64_t gs = std::max(g0, b * B), ge = std::min(g1, b * B + B - 1);
    std::atomic_ref<uint32_t> blk(bl[b]);
    uint32_t v = blk.load(std::memory_order_acquire);
    for (;;) {
      if (v == ParShared::kFine) break;
      if (v == ParShared::kLocked) {
        std::this_thread::yield();
        v = blk.load(std::memory_order_acquire);
        continue;
      }
      // The block is uniform: each of its granules is in state v.
      const uint32_t nv = transition(v, mine, write);
      if (nv == ParShared::kFail) return conflict();
      if (nv == v) break;                        // nothing changes for these granules
      if (gs == b * B && ge == b * B + B - 1) {  // the access covers the block: it stays uniform
        if (blk.compare_exchange_weak(v, nv, std::memory_order_acq_rel, std::memory_order_acquire)) {
          if (write) save(gs);  // the first write of this CTA to the block
          break;
        }
        continue;
      }
      // Part of the block changes: its granules get their own words (all
      // zero while the block was never split), then the block is kFine.
      if (!v) {
        if (!blk.compare_exchange_weak(v, ParShared::kFine, std::memory_order_acq_rel, std::memory_order_acquire))
          continue;
      } else {
        if (!blk.compare_exchange_weak(v, ParShared::kLocked, std::memory_order_acq_rel, std::memory_order_acquire))
          continue;
        for (uint64_t g = b * B; g < b * B + B; ++g)
          std::atomic_ref<uint32_t>(cl[g]).store(v, std::memory_order_relaxed);
        blk.store(ParShared::kFine, std::memory_order_release);
      }
      v = ParShared::kFine;
      break;
    }
    if (v != ParShared::kFine) continue;  // the block's word holds the claim
    for (uint64_t g = gs; g <= ge; ++g) {
      std::atomic_ref<uint32_t> a(cl[g]);
      uint32_t gv = a.load(std::memory_order_acquire);
      for (;;) {
        const uint32_t nv = transition(gv, mine, write);
        if (nv == ParShared::kFail) return conflict();
        if (nv == gv) break;
        if (a.compare_exchange_weak(gv, nv, std::memory_order_acq_rel, std::memory_order_acquire)) {
          if (write) save(g);  // the first write of this CTA to the granule
          break;
        }
      }
    }
  }
  return true;
}

bool Machine::par_claim_lanes(Warp& w, const Inst& in, uint32_t m, Region* hot, unsigned total, bool st,
                              bool& claimed) {
  par_claimed_ = nullptr;
  if (!m || hook_ || (in.addr.space != Space::Global && in.addr.space != Space::Generic) || in.addr.base != Addr::Reg)
    return true;
  const uint64_t off = static_cast<uint64_t>(in.addr.off);
  const uint32_t slot = in.addr.slot;
  if (!hot) {  // the instruction's first access in this worker: the allocation the first lane's address is in
    const uint64_t a = in.addr.wrap(off + w.rp[std::countr_zero(m)][slot]);
    for (size_t i = 0; i < par_->nglobal && !hot; ++i)
      if (Region& g = mem.global(i); a >= g.base && a - g.base < g.bytes.size()) hot = &g;
    if (!hot) return true;
  }
  // Loads from an allocation nobody writes claim nothing: the lanes in
  // `hot` need no claim (par_claimed_ = &in: access() skips them too, with
  // race detection on), the others claim in access(), which clears
  // par_claimed_ when it moves `hot` to another allocation.
  if (const uintptr_t d = reinterpret_cast<uintptr_t>(hot) - par_->gbase;
      !st && d % sizeof(Region) == 0 && d / sizeof(Region) < par_->nglobal && par_->ro[d / sizeof(Region)]) {
    claimed = true;
    par_claimed_ = &in;
    return true;
  }
  // Each run [lo, hi) of consecutive accesses is checked and claimed when
  // it ends (a run of aligned accesses is aligned when its start is).
  const uint64_t base = hot->base, size = hot->bytes.size();
  const uint64_t wmask = in.addr.addr32 ? 0xffff'ffffull : ~0ull;  // Addr::wrap
  uint64_t lo = (off + w.rp[std::countr_zero(m)][slot]) & wmask, hi = lo;
  uint32_t b = m;
  if (m == ~0u && lo + uint64_t{32} * total - 1 <= wmask &&
      w.rp[31][slot] - w.rp[0][slot] == uint64_t{31} * total) {  // (the last lane first: 2D blocks are not a run)
    // A full warp whose lanes access consecutive elements in lane order
    // (the usual case), checked without walking the mask's bits: lane l's
    // register is lane 0's plus l elements, so its address (no wrap: the
    // run ends below wmask) is lo plus l elements.
    const uint64_t r0 = w.rp[0][slot];
    uint64_t diff = 0;
    for (unsigned l = 1; l < 32; l += 4)
      diff |= (w.rp[l][slot] - r0 - l * total) | (w.rp[l + 1][slot] - r0 - (l + 1) * total) |
              (w.rp[l + 2][slot] - r0 - (l + 2) * total) | (l + 3 < 32 ? w.rp[l + 3][slot] - r0 - (l + 3) * total : 0);
    if (!diff) hi = lo + uint64_t{32} * total, b = 0;
  }
  // The first run, in a tight loop (the usual case: it has every lane).
  for (; b && ((off + w.rp[std::countr_zero(b)][slot]) & wmask) == hi; b &= b - 1) hi += total;
  // A load that a store to the same address follows claims a write (loads_then_stored).
  const size_t pc =
      static_cast<size_t>(reinterpret_cast<uintptr_t>(&in) - reinterpret_cast<uintptr_t>(prog.code.data())) /
      sizeof(Inst);
  const bool wr = st || (pc < par_->ld_write.size() && par_->ld_write[pc]);
  // 1: [lo, hi) is claimed; 0: it leaves `hot` (each lane then claims for
  // itself); -1: a conflict (stop_ is set).
  auto flush = [&]() -> int {
    if (!(lo >= base && hi > lo && hi - base <= size && !(lo & (total - 1)))) return 0;
    return claim(hot, lo - base, static_cast<unsigned>(hi - lo), wr) ? 1 : -1;
  };
  for (; b; b &= b - 1) {
    const uint64_t a = (off + w.rp[std::countr_zero(b)][slot]) & wmask;
    if (a == hi && hi != lo) {
      hi += total;
      continue;
    }
    if (hi != lo)
      if (const int f = flush(); f < 1) return f == 0;
    lo = a;
    hi = a + total;
  }
  if (const int f = flush(); f < 1) return f == 0;
  claimed = true;
  par_claimed_ = &in;
  return true;
}

bool par_window(Machine& mc, const Warp& w, const Inst& in, uint32_t m, const Region* hot, bool st, uint64_t& lo,
                uint64_t& hi) {
  lo = hi = 0;
  const ParShared& ps = *mc.par_;
  const uintptr_t d = reinterpret_cast<uintptr_t>(hot) - ps.gbase;
  const size_t i = d / sizeof(Region);
  if (d % sizeof(Region) || i >= ps.nglobal) return true;  // not a global allocation
  if (!st && ps.ro[i]) {                                   // reads of an allocation nobody writes claim nothing
    lo = hot->base;
    hi = lo + hot->bytes.size();
    return true;
  }
  // Lanes 0 and 31 only: a lane between them at another address in the
  // window finds its bytes claimed (more than it needs, which can only
  // make a conflict that runs the launch again on one core); one outside
  // it leaves the tight loop for the general one.
  const uint64_t es = in.size;
  const uint64_t amask = in.addr.addr32 ? 0xffff'ffffull : ~0ull;  // Addr::wrap
  const uint64_t off = static_cast<uint64_t>(in.addr.off);
  const uint64_t a0 = (off + w.rp[0][in.addr.slot]) & amask, a31 = (off + w.rp[31][in.addr.slot]) & amask;
  if (m != ~0u || a31 - a0 != 31 * es || (a0 & (es - 1)) || a0 < hot->base || a0 - hot->base > hot->bytes.size() ||
      hot->bytes.size() - (a0 - hot->base) < 32 * es)
    return true;
  // A load that a store to the same address follows claims a write (loads_then_stored).
  const size_t pc =
      static_cast<size_t>(reinterpret_cast<uintptr_t>(&in) - reinterpret_cast<uintptr_t>(mc.prog.code.data())) /
      sizeof(Inst);
  const bool wr = st || (pc < ps.ld_write.size() && ps.ld_write[pc]);
  if (!mc.claim(hot, a0 - hot->base, static_cast<unsigned>(32 * es), wr)) return false;
  lo = a0;
  hi = a0 + 32 * es;
  return true;
}

void Machine::par_order_dependent(const char* why) const { par_->fail(why); }

bool Machine::par_poll() {
  ParShared& ps = *par_;
  if (steps - par_published_ >= 4096) {
    const uint64_t total =
        ps.steps.fetch_add(steps - par_published_, std::memory_order_relaxed) + (steps - par_published_);
    par_published_ = steps;
    if (total > opt.max_steps && !opt.budget_since_exit) ps.fail("the step budget ran out");
  }
  if (!ps.abort.load(std::memory_order_relaxed)) return false;
  stop_ = true;
  return true;
}

void Machine::par_work() {
  ParShared& ps = *par_;
  ParShared::Worker& me = *ps.workers[par_index_];
  try {
    uint64_t k = 0, end = 0;  // the worker's CTAs [k, end)
    for (;; ++k) {
      if (ps.abort.load(std::memory_order_relaxed)) return;
      if (k == end) {
        // Consecutive CTAs, a quarter of the CTAs left per worker, from 1
        // to 64 (guided self-scheduling): neighbouring CTAs mostly touch
        // neighbouring memory, so the workers share fewer cache lines of
        // claim words and pages of race shadow the fewer boundaries their
        // parts of the grid have (a 512x512 stencil of 8x8 CTAs: a row of
        // 64 CTAs holds 16 claim words per line, which 8 CTAs at a time
        // split between the workers); the parts shrink towards the end,
        // so that the workers finish together, and one that gets no core
        // for a while holds back at most 64 CTAs.
        const uint64_t left = ps.nctas - std::min(ps.nctas, ps.next.load(std::memory_order_relaxed));
        const uint64_t n = std::clamp<uint64_t>(left / (4 * uint64_t{ps.nworkers}), 1, 64);
        k = ps.next.fetch_add(n, std::memory_order_relaxed);
        if (k >= ps.nctas) break;
        end = std::min(k + n, ps.nctas);
      }
      const std::array<uint32_t, 3> id{static_cast<uint32_t>(k % ps.grid[0]),
                                       static_cast<uint32_t>(k / ps.grid[0] % ps.grid[1]),
                                       static_cast<uint32_t>(k / (uint64_t{ps.grid[0]} * ps.grid[1]))};
      par_cta_ = static_cast<uint32_t>(k + 1);
      // The numbers the deterministic schedule gives this CTA's threads and warps.
      next_gid_ = static_cast<uint32_t>(k * ps.nthreads);
      next_gwarp_ = static_cast<uint32_t>(k * ps.nwarps);
      run_cluster({id}, id);
      if (stop_) {
        ps.fail("CTA " + std::to_string(k) +
                " stopped the launch (an error that ends it, a deadlock or the step budget)");
        return;
      }
      if (!res.diagnostics.empty() || !res.printf_output.empty()) {
        me.outs.push_back(ParShared::CtaOut{k, std::move(res.diagnostics), std::move(res.printf_output)});
        res.diagnostics.clear();
        res.printf_output.clear();
        seen_.clear();
      }
    }
  } catch (...) {
    me.error = std::current_exception();
    ps.fail("an exception");
  }
}

// True when the launch ran in parallel (res then holds its result); false
// when it must run on the deterministic schedule (memory is as it was).
bool Machine::run_parallel() {
  const uint64_t nctas = uint64_t{spec.grid[0]} * spec.grid[1] * spec.grid[2];
  if (opt.jobs < 2 || hook_ || coop_ || nctas < 2 || uint64_t{cl_[0]} * cl_[1] * cl_[2] != 1 || nctas >= (1u << 30) - 2)
    return false;
  ParShared ps;
  ps.nctas = nctas;
  ps.grid = spec.grid;
  ps.nthreads = spec.block[0] * spec.block[1] * spec.block[2];
  ps.nwarps = (ps.nthreads + 31) / 32;
  ps.nglobal = mem.global_count();
  ps.gbase = ps.nglobal ? reinterpret_cast<uintptr_t>(&mem.global(0)) : 0;
  // The machine's own memory holds the module's globals, then the spec's
  // buffers (setup_memory_spec), each a copy of bytes the caller keeps
  // (nothing writes them before the launch runs; no initialisation flags),
  // or the bytes of a spec buffer the run took (run_program_taking).
  auto spec_buffer = [&](size_t i) -> const BufferSpec* {
    const size_t b = i - prog.globals.size();
    return !image_ && i >= prog.globals.size() && b < spec.buffers.size() && b < buffer_addr.size() &&
                   mem.global(i).base == buffer_addr[b] && mem.global(i).init.empty()
               ? &spec.buffers[b]
               : nullptr;
  };
  auto pristine = [&](size_t i) -> const uint8_t* {
    if (image_) return nullptr;
    const Region& r = mem.global(i);
    const std::vector<uint8_t>* src = nullptr;
    if (i < prog.globals.size() && r.base == prog.globals[i].addr) src = &prog.globals[i].bytes;
    if (const BufferSpec* b = spec_buffer(i); b && !taken_) src = &b->init;
    return src && r.init.empty() && src->size() == r.bytes.size() ? src->data() : nullptr;
  };
  // A taken spec buffer's bytes are made again from its description
  // (not for a "file": those are saved chunk by chunk as others).
  auto refill = [&](size_t i) -> const BufferSpec* {
    const BufferSpec* b = taken_ ? spec_buffer(i) : nullptr;
    return b && b->fill.kind != BufferFill::Kind::Bytes && b->count * elem_size(b->type) == mem.global(i).bytes.size()
               ? b
               : nullptr;
  };
  const uint64_t written = written_allocations(prog, mem);
  ps.ld_write = loads_then_stored(prog);
  ps.ro.assign(ps.nglobal, 0);
  for (size_t i = 0; i < ps.nglobal; ++i) {
    if (!(written & kAnyAlloc) && i < 62 && !(written >> i & 1)) {
      ps.ro[i] = 1;  // no claims, nothing saved
      ps.claims.push_back(nullptr);
      ps.blocks.push_back(nullptr);
      ps.saved.emplace_back();
      continue;
    }
    // The claim words come zero from the pool (ClaimPool); the saved
    // bytes are only read where a chunk was saved.
    const Region& r = mem.global(i);
    const size_t n = r.bytes.size();
    // (whole blocks: splitting one writes all its granules' words)
    const size_t nblocks = (n + 3) / 4 / ParShared::kBlockGranules + 1;
    ParShared::Words wd;
    wd.nblocks = nblocks;
    wd.p = ClaimPool::get().take(nblocks * (1 + ParShared::kBlockGranules), wd.cap);
    if (wd.p) ps.words_.push_back(wd);
    uint32_t* const bk = wd.p;
    uint32_t* const c = wd.p ? wd.p + nblocks : nullptr;
    ps.claims.push_back(c);
    ps.blocks.push_back(bk);
    ParShared::Saved& sv = ps.saved.emplace_back();
    sv.pristine = pristine(i);
    sv.fill = sv.pristine ? nullptr : refill(i);
    if (!c || !bk) {
      res.schedule = "sequential after a parallel attempt: no memory for the claims";
      return false;
    }
    if (sv.pristine || sv.fill) continue;
    sv.state = ps.zeroed<uint32_t>(n / ParShared::kChunk + 1);
    sv.bytes = ps.unset(n);  // only saved chunks are read (restore())
    if (!r.init.empty()) sv.init = ps.unset(n);
    if (!c || !bk || !sv.state || !sv.bytes || (!r.init.empty() && !sv.init)) {
      res.schedule = "sequential after a parallel attempt: no memory for the claims";
      return false;
    }
  }
  const unsigned nw = static_cast<unsigned>(std::min<uint64_t>(opt.jobs, nctas));
  ps.nworkers = nw;
  // Each worker makes its machine on its own thread, so that what the
  // machine allocates comes from that thread's malloc arena: machines made
  // one after the other on one thread share cache lines at the edges of
  // their objects and vectors, which both workers write (bench saxpy, 2
  // jobs: the two workers' CPU time 63-77 ms in all, 59-64 ms with the
  // machines made on their own threads; one job: 56-60 ms).
  for (unsigned i = 0; i < nw; ++i) ps.workers.push_back(std::make_unique<ParShared::Worker>());
  auto work = [this, &ps](unsigned i) {
    ParShared::Worker& me = *ps.workers[i];
    try {
      me.m = std::make_unique<Machine>(*this, me.res, ps, i);
    } catch (...) {
      me.error = std::current_exception();
      ps.fail("an exception");
      return;
    }
    me.m->par_work();
  };
  std::vector<std::thread> threads;
  try {
    for (unsigned i = 1; i < nw; ++i) threads.emplace_back(work, i);
  } catch (const std::system_error&) {
    ps.fail("no worker thread could be started");
  }
  work(0);
  for (auto& t : threads) t.join();
  uint64_t total = 0;
  for (auto& w : ps.workers) total += w->m ? w->m->steps : 0;
  if (!ps.abort.load() && total > opt.max_steps && !opt.budget_since_exit) ps.fail("the step budget ran out");
  if (ps.abort.load()) {
    ps.restore(mem);
    res.schedule = "sequential after a parallel attempt: " + ps.reason;
    return false;
  }
  // Merge in CTA order, folding as diag() folds: the first report of a
  // (kind, line, column) stays, later ones add to its count.
  std::vector<ParShared::CtaOut*> outs;
  for (auto& w : ps.workers)
    for (auto& o : w->outs) outs.push_back(&o);
  std::sort(outs.begin(), outs.end(),
            [](const ParShared::CtaOut* a, const ParShared::CtaOut* b) { return a->uid < b->uid; });
  std::map<std::tuple<std::string, uint32_t, uint32_t>, size_t> seen;
  for (ParShared::CtaOut* o : outs) {
    for (Diagnostic& d : o->diags) {
      auto [it, fresh] = seen.try_emplace(std::make_tuple(d.kind, d.line, d.col), res.diagnostics.size());
      if (!fresh) {
        res.diagnostics[it->second].count += d.count;
        continue;
      }
      if (d.severity == "error") res.ok = false;
      res.diagnostics.push_back(std::move(d));
    }
    res.printf_output += o->out;
  }
  steps = total;
  res.schedule = "parallel";
  return true;
}

}  // namespace ptxcheck::interp
