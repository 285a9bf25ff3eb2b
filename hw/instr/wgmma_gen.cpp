// wgmma.mma_async tests: configuration, shared-memory image, kernel, spec and
// manifest. PTX ISA 9.x numbering: 9.7.15.5.2 wgmma.mma_async (shapes, types,
// operand lists), 9.7.15.5.1.1 register fragments (four 32-bit A registers
// per thread; N/2 .f32/.s32 or N/4 .f16x2 accumulator registers),
// 9.7.15.5.1.2 shared-memory layouts and 9.7.15.5.1.2.2 the matrix
// descriptor (start address, LBO, SBO in 16-byte units; swizzle mode in bits
// 62-63: 0 none, 1 128B, 2 64B, 3 32B).
//
// The generators' entry points; the configuration is drawn in
// wgmma_pick.cpp and the test written in wgmma_emit.cpp.
#include "hw/instr/wgmma_gen.hpp"

#include "hw/instr/wgmma_detail.hpp"

namespace ptxcheck::instrgen {

using namespace wgmma_detail;

Test generate_mma_sp(uint64_t seed, unsigned index) {
  Rng rng(seed * 0x100000001b3ull ^ (uint64_t{index} << 20) ^ 0x6d5a);
  rng.next();
  const Cfg c = pick_cfg_mma_sp(rng);
  return build_mma_sp(rng, c, seed, index);
}

Test generate_wgmma(uint64_t seed, unsigned index) {
  Rng rng(seed * 0x100000001b3ull ^ (uint64_t{index} << 20) ^ 0x3a9c);
  rng.next();
  const Cfg c = pick_cfg(rng);
  return build_test(rng, c, seed, index);
}

Test generate_wgmma_sp(uint64_t seed, unsigned index) {
  Rng rng(seed * 0x100000001b3ull ^ (uint64_t{index} << 20) ^ 0x5b12);
  rng.next();
  const Cfg c = pick_cfg_sp(rng);
  return build_test(rng, c, seed, index);
}

}  // namespace ptxcheck::instrgen
