// The one seeded generator of the harness (host side): splitmix64. Every
// random choice of a campaign (CTA shuffle, stress decisions, stress lines)
// comes from it, so (test, parameters, seed) replays a run exactly.
#pragma once
#include <cstdint>

namespace ptxcheck::hw {

class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n); n > 0.
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(next() % n); }
  // True with probability pct/100.
  bool percent(uint32_t pct) { return below(100) < pct; }

 private:
  uint64_t s_;
};

}  // namespace ptxcheck::hw
