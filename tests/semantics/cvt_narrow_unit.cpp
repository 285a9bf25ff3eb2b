// Hand-derived cases for cvt with the narrow float formats and .rs (PTX ISA
// 9.7.9.21; rules in semantics/arith/cvt_narrow.cpp), and the forms the
// resolver must reject because ptxas (CUDA 13) or the ISA text rejects them.
#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>

#include "semantics/arith/resolve.hpp"

namespace {

using ptxcheck::arith::resolve;

uint32_t fb(float f) { return std::bit_cast<uint32_t>(f); }
uint64_t run(const char* m, uint64_t a, uint64_t b = 0, uint64_t c = 0) {
  auto r = resolve(m);
  INFO(m << ": " << r.error);
  REQUIRE(r);
  uint64_t s[3] = {a, b, c};
  return (*r.desc)(s, nullptr);
}

}  // namespace

TEST_CASE("cvt narrow formats: hand-computed values", "[unit]") {
  // e2m1: 2.5 ties between 2 (0x4) and 3 (0x5) -> even 0x4; -0.75 ties
  // between 0.5 (0x1) and 1 (0x2) -> even, negative: 0xa. a is the upper lane.
  CHECK(run("cvt.rn.satfinite.e2m1x2.f32", fb(2.5f), fb(-0.75f)) == 0x4a);
  // NaN -> +MAX_NORM (0x7), -Inf -> -MAX_NORM (0xf); .relu: negative -> 0.
  CHECK(run("cvt.rn.satfinite.e2m1x2.f32", 0x7fc00000, 0xff800000) == 0x7f);
  CHECK(run("cvt.rn.satfinite.relu.e2m1x2.f32", 0xffc00000, fb(-6.0f)) == 0x70);
  // e3m2 max is 28 (0x1f); e2m3 max 7.5 (0x1f); lanes are bytes with 2 zero MSBs.
  CHECK(run("cvt.rn.satfinite.e3m2x2.f32", fb(1000.0f), fb(-1000.0f)) == 0x1f3f);
  CHECK(run("cvt.rn.satfinite.e2m3x2.f32", fb(7.5f), fb(0.125f)) == 0x1f01);
  CHECK(run("cvt.rn.f16x2.e2m1x2", 0x4a) == 0x4000bc00);
  CHECK(run("cvt.rn.relu.f16x2.e2m1x2", 0x4a) == 0x40000000);
  CHECK(run("cvt.rn.bf16x2.e2m3x2", 0x011f) == 0x3e0040f0);  // 0.125, 7.5
  // ue8m0: rz 2.5 -> 2^1 (0x80), |-0.75| -> 2^-1 (0x7e); rp 2.5 -> 2^2.
  CHECK(run("cvt.rz.satfinite.ue8m0x2.f32", fb(2.5f), fb(-0.75f)) == 0x807e);
  CHECK(run("cvt.rp.ue8m0x2.f32", fb(2.5f), 0) == 0x8100);
  CHECK(run("cvt.rp.ue8m0x2.f32", fb(0x1.0002p127f), 0x7fc00000) == 0xffff);
  CHECK(run("cvt.rp.satfinite.ue8m0x2.f32", fb(0x1.0002p127f), 0x7fc00000) == 0xfeff);
  CHECK(run("cvt.rn.bf16x2.ue8m0x2", 0x00ff) == 0x00407fff);
}

TEST_CASE("cvt.rs: the carry of random bits plus discarded bits", "[unit]") {
  // 1 + 2^-12 to f16: 13 discarded bits 0x0800; 0x0800 + r carries iff r >= 0x1800.
  uint32_t a = fb(1.0f + 0x1p-12f);
  CHECK(run("cvt.rs.f16x2.f32", a, 0, 0x17ff0000) == 0x3c000000);
  CHECK(run("cvt.rs.f16x2.f32", a, 0, 0x18000000) == 0x3c010000);
  CHECK(run("cvt.rs.f16x2.f32", a, 0, 0xf7ff0000) == 0x3c000000);  // the 3 MSBs are not random bits
  // bf16: 16 discarded bits, all 16 random bits used.
  uint32_t b = 0x3f808000;  // 1 + 2^-8: discarded 0x8000
  CHECK(run("cvt.rs.bf16x2.f32", b, b, 0x7fff8000) == 0x3f803f81);
  // Beyond MAX_NORM: infinity, or MAX_NORM with .satfinite; .relu clamps.
  CHECK(run("cvt.rs.f16x2.f32", fb(70000.0f), fb(-70000.0f), 0) == 0x7c00fc00);
  CHECK(run("cvt.rs.satfinite.f16x2.f32", fb(70000.0f), fb(-70000.0f), 0) == 0x7bfffbff);
  CHECK(run("cvt.rs.relu.f16x2.f32", 0x7fc00000, fb(-1.0f), 0) == 0x7fff0000);
}

TEST_CASE("cvt narrow formats: rejected forms", "[unit]") {
  for (const char* m : {"cvt.rz.satfinite.e2m1x2.f32", "cvt.rn.e2m1x2.f32", "cvt.rn.ue8m0x2.f32",
                        "cvt.rm.ue8m0x2.f32", "cvt.rz.relu.ue8m0x2.f32", "cvt.rn.relu.bf16x2.ue8m0x2",
                        "cvt.rn.f32.e2m1x2", "cvt.rs.satfinite.e4m3x2.f32", "cvt.rs.f16x2.f16x2",
                        "cvt.rn.rs.f16x2.f32", "cvt.rn.satfinite.ue8m0x2.e2m1x2"}) {
    INFO(m);
    CHECK_FALSE(resolve(m));
  }
}
