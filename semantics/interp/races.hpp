// Data-race detection on the executed schedule (docs/races.md).
// PTX ISA 9.2 8.7.1: two overlapping accesses conflict when at least one is
// a write; a conflict is a data race unless the accesses are morally strong
// (8.7: both strong -- atomics, .relaxed/.acquire/.release/.volatile -- with
// scopes including each other) or ordered by causality (8.9.5).
// What orders accesses here: program order of one thread; a completed CTA
// barrier (bar.sync/barrier.sync/bar.red, 8.9.4 item 2) between them in the
// same CTA, a completed bar.warp.sync between them in the same warp, or a
// completed barrier.cluster phase in the same cluster; and, across CTAs, a fence or release by the writer after the
// first access plus a fence or acquire by the second thread (or its CTA,
// before a later barrier) before the second access -- the fence-atomic-fence
// pattern of 8.8 approximated without tracking which location synchronised.
// Shadow state keeps the last write and the last read of every 4-byte granule
// with the bytes they touched (accesses to disjoint bytes never conflict).
#pragma once
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "semantics/interp/memory.hpp"

namespace ptxcheck::interp {

struct AccessInfo {
  uint32_t gid = 0;         // global thread number
  uint32_t cta = 0;         // global CTA number
  uint32_t epoch = 0;       // CTA barrier generation at the access
  uint32_t fences = 0;      // thread's release-fence count at the access
  uint32_t warp = 0;        // global warp number
  uint32_t wepoch = 0;      // bar.warp.sync generation of the warp at the access
  uint32_t cluster = 0;     // cluster number (uid of its first CTA)
  uint32_t cphase = 0;      // barrier.cluster phase at the access
  uint32_t line = 0;
  uint8_t mask = 0;         // bytes of the 4-byte granule accessed (set by Races)
  bool strong = false;
  bool write = false;
  bool valid = false;
};

class Races {
 public:
  bool enabled = true;
  // Per-thread and per-CTA synchronisation counters, indexed by gid / cta.
  std::vector<uint32_t> thread_fences;   // release-type fences executed so far
  std::vector<uint32_t> thread_acquired; // 1 once the thread executed an acquire-type fence/op
  std::vector<uint32_t> cta_acquire_gen; // barrier generation + 1 after a CTA member acquired (0: never)

  // Records an access; returns the earlier access it races with, if any.
  std::optional<AccessInfo> access(const Region* r, uint64_t off, unsigned size, const AccessInfo& a);
  // Drops the shadow of a region that is being freed (a finished CTA's shared memory).
  void forget(const Region* r) {
    shadow_.erase(r);
    last_r_ = nullptr;
  }

 private:
  struct Shadow {
    AccessInfo w, r;
  };
  bool ordered(const AccessInfo& first, const AccessInfo& second) const;
  std::unordered_map<const Region*, std::vector<Shadow>> shadow_;
  const Region* last_r_ = nullptr;
  std::vector<Shadow>* last_sh_ = nullptr;
};

}  // namespace ptxcheck::interp
