// libFuzzer target `litmus_dat3m` (tests/fuzz/fuzz_litmus.hpp).
#include "tests/fuzz/fuzz_litmus.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return ptxcheck::fuzz::fuzz_litmus(ptxcheck::fuzz::Dialect::Dat3m, data, size);
}
