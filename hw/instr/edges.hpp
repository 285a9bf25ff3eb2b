// Input values for generated tests: the edge cases of each type (PTX ISA 5.2
// fundamental types, IEEE 754 classes) mixed with random bit patterns.
// Contract: draw() returns the raw bits of one value of arithmetic-layer type
// `ty` in the low bits (x2 types: two independently drawn lanes); it depends
// only on the Rng state, so tests are reproducible on every host.
#pragma once
#include <cstdint>
#include <string>

namespace ptxcheck::instrgen {

// splitmix64: fixed algorithm, unlike std:: distributions.
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed) {}
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint64_t below(uint64_t n) { return n ? next() % n : 0; }
  bool chance(unsigned pct) { return below(100) < pct; }
};

uint64_t draw(Rng& rng, const std::string& ty);

}  // namespace ptxcheck::instrgen
