#include "semantics/interp/races.hpp"

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

std::optional<AccessInfo> Races::access(const Region* r, uint64_t off, unsigned size, const AccessInfo& a) {
  if (!enabled || !r) return std::nullopt;
  auto& sh = shadow_[r];
  if (sh.size() < r->bytes.size()) sh.resize(r->bytes.size());
  std::optional<AccessInfo> hit;
  for (unsigned k = 0; k < size && off + k < sh.size(); ++k) {
    Shadow& s = sh[off + k];
    auto conflicts = [&](const AccessInfo& prev) {
      return prev.valid && prev.gid != a.gid && (prev.write || a.write) && !(prev.strong && a.strong) &&
             !ordered(prev, a);
    };
    if (!hit && conflicts(s.w)) hit = s.w;
    if (!hit && a.write && conflicts(s.r)) hit = s.r;
    if (a.write) {
      s.w = a;
      s.w.valid = true;
      s.r.valid = false;  // later accesses are compared with this write
    } else {
      s.r = a;
      s.r.valid = true;
    }
  }
  return hit;
}

}  // namespace ptxcheck::interp
