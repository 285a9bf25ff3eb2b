// CTAs on all cores: the claims of global memory (parallel.cpp has the
// workers). Every global-memory byte range a CTA touches is claimed per
// 4-byte granule before it is accessed: read by one CTA, read by several,
// or owned by one CTA that wrote it. A write meeting another CTA's claim,
// or a read meeting another CTA's write, abandons the attempt.
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <thread>

#include "semantics/interp/exec_util.hpp"
#include "semantics/interp/machine_state.hpp"
#include "semantics/interp/parallel_shared.hpp"

namespace ptxcheck::interp {

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
        std::atomic_ref<uint8_t>(ps.split[i]).store(1, std::memory_order_relaxed);
      } else {
        if (!blk.compare_exchange_weak(v, ParShared::kLocked, std::memory_order_acq_rel, std::memory_order_acquire))
          continue;
        for (uint64_t g = b * B; g < b * B + B; ++g)
          std::atomic_ref<uint32_t>(cl[g]).store(v, std::memory_order_relaxed);
        std::atomic_ref<uint8_t>(ps.split[i]).store(1, std::memory_order_relaxed);
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
  // (lane 31's frame is read only when the warp has every lane: a warp of
  // fewer lanes has none, Warp::rp)
  if (m != ~0u) return true;
  const uint64_t a0 = (off + w.rp[0][in.addr.slot]) & amask, a31 = (off + w.rp[31][in.addr.slot]) & amask;
  if (a31 - a0 != 31 * es || (a0 & (es - 1)) || a0 < hot->base || a0 - hot->base > hot->bytes.size() ||
      hot->bytes.size() - (a0 - hot->base) < 32 * es)
    return true;
  // A load that a store to the same address follows claims a write (loads_then_stored).
  const size_t pc =
      static_cast<size_t>(reinterpret_cast<uintptr_t>(&in) - reinterpret_cast<uintptr_t>(mc.prog.code.data())) /
      sizeof(Inst);
  const bool wr = st || (pc < ps.ld_write.size() && ps.ld_write[pc]);
  // A window inside the one this CTA claimed last, as strongly, needs no
  // claim: no claim is taken back while the attempt lasts (a granule a CTA
  // wrote stays its own; one it read stays readable by it, read by one CTA
  // or by several), and the first write saved the chunks. The usual case:
  // the store after a load that claimed its bytes for writing
  // (loads_then_stored), as saxpy's y[i] = a * x[i] + y[i].
  ParShared::Held& held = ps.workers[mc.par_index_]->held;
  const uint64_t at = a0 - hot->base, n = 32 * es;
  if (hot != held.r || at < held.lo || at + n > held.hi || held.cta != mc.par_cta_ || (wr && !held.write)) {
    if (!mc.claim(hot, at, static_cast<unsigned>(n), wr)) return false;
    held = {hot, at, at + n, mc.par_cta_, wr};
  }
  lo = a0;
  hi = a0 + 32 * es;
  return true;
}

}  // namespace ptxcheck::interp
