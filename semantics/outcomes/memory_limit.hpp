// The memory limit of `ptxcheck outcomes` (docs/outcomes.md "Limits"): the
// exploration checks the process's resident memory as it grows and ends
// with a LimitError (exit 3) before the machine runs out, so that the
// kernel's OOM killer never ends it first.
#pragma once
#include <cstdint>

namespace ptxcheck::outcomes {

// The limit in bytes that a limit of `mib` MiB (Options::max_memory_mib)
// stands for; 0: the default, 3/4 of the memory this process may still get
// (MemAvailable of /proc/meminfo, and the free part of its cgroup's limit
// where that is lower) on top of what it uses now. 0 if nothing is known.
uint64_t memory_limit_bytes(uint64_t mib);

// The process's resident memory in bytes (/proc/self/statm); 0 if unknown.
uint64_t resident_bytes();

// Throws LimitError once resident memory exceeds the limit. check() reads
// /proc at most once per `kEvery` calls of tick() or per call of check().
class MemoryGuard {
 public:
  explicit MemoryGuard(uint64_t limit_bytes, uint64_t mib) : limit_(limit_bytes), mib_(mib) {}
  void check() const;
  // Cheap: counts `n` units of growth (events, dependency edges) and checks
  // every kEvery of them.
  void tick(uint64_t n = 1) {
    if (limit_ && (count_ += n) >= kEvery) {
      count_ = 0;
      check();
    }
  }
  uint64_t limit() const { return limit_; }

 private:
  static constexpr uint64_t kEvery = 1 << 16;
  uint64_t limit_ = 0, mib_ = 0;
  uint64_t count_ = 0;
};

}  // namespace ptxcheck::outcomes
