// libFuzzer target `litmus_native` (tests/fuzz/fuzz_litmus.hpp).
#include "tests/fuzz/fuzz_litmus.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return ptxcheck::fuzz::fuzz_litmus(ptxcheck::fuzz::Dialect::Native, data, size);
}
