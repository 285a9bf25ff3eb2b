#include "semantics/interp/races.hpp"

#include <algorithm>

namespace ptxcheck::interp {

bool Races::ordered(const AccessInfo& a, const AccessInfo& b) const {
  if (a.gid == b.gid) return true;  // program order
  if (a.cta == b.cta && b.epoch > a.epoch) return true;  // a CTA barrier completed in between (8.9.4)
  if (a.warp == b.warp && b.wepoch > a.wepoch) return true;  // bar.warp.sync (9.7.12.3)
  if (a.cluster == b.cluster && b.cphase > a.cphase) return true;  // barrier.cluster (9.7.12.2)
  if (a.cta == b.cta) return false;
  // Across CTAs: a release fence after `a` by its thread, and an acquire on
  // b's side before `b` (the thread itself, or its CTA before a barrier).
  bool released = a.gid < thread_fences.size() && thread_fences[a.gid] > a.fences;
  bool acquired = (b.gid < thread_acquired.size() && thread_acquired[b.gid]) ||
                  (b.cta < cta_acquire_gen.size() && cta_acquire_gen[b.cta] && b.epoch >= cta_acquire_gen[b.cta]);
  return released && acquired;
}

std::optional<AccessInfo> Races::access(const Region* r, uint64_t off, unsigned size, const AccessInfo& a0) {
  if (!enabled || !r) return std::nullopt;
  std::vector<Shadow>* sh = last_sh_;
  if (r != last_r_) {
    sh = &shadow_[r];
    last_r_ = r;
    last_sh_ = sh;
  }
  size_t granules = (r->bytes.size() + 3) / 4;
  if (sh->size() < granules) sh->resize(granules);
  std::optional<AccessInfo> hit;
  for (uint64_t g = off / 4; g * 4 < off + size && g < granules; ++g) {
    // Bytes of this granule covered by [off, off + size).
    uint64_t lo = std::max<uint64_t>(off, g * 4), hi = std::min<uint64_t>(off + size, g * 4 + 4);
    AccessInfo a = a0;
    a.mask = static_cast<uint8_t>(((1u << (hi - lo)) - 1) << (lo - g * 4));
    Shadow& s = (*sh)[g];
    auto conflicts = [&](const AccessInfo& prev) {
      return prev.valid && (prev.mask & a.mask) && prev.gid != a.gid && (prev.write || a.write) &&
             !(prev.strong && a.strong) && !ordered(prev, a);
    };
    if (!hit && conflicts(s.w)) hit = s.w;
    if (!hit && a.write && conflicts(s.r)) hit = s.r;
    if (a.write) {
      s.w = a;
      s.w.valid = true;
      if (s.r.valid && !(s.r.mask & ~a.mask)) s.r.valid = false;  // fully overwritten reads
    } else {
      s.r = a;
      s.r.valid = true;
    }
  }
  return hit;
}

}  // namespace ptxcheck::interp
