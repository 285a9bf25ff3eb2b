// Unit tests of the .approx check mode (arith::within_approx_bound): a value
// at the PTX ISA bound passes, one beyond fails, per instruction and input
// domain; NaN, infinity, signed zero and .ftz rules. Bounds quoted in
// semantics/arith/approx.cpp and docs/approx.md.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "semantics/arith/resolve.hpp"

namespace {

using ptxcheck::arith::OpDesc;
using ptxcheck::arith::resolve;
using ptxcheck::arith::within_approx_bound;

uint32_t fb(float f) { return std::bit_cast<uint32_t>(f); }
float bf(uint32_t b) { return std::bit_cast<float>(b); }
OpDesc desc(const char* m) {
  auto r = resolve(m);
  INFO(m << ": " << r.error);
  REQUIRE(r);
  return *r.desc;
}
bool ok(const OpDesc& d, uint64_t a, uint64_t got) {
  uint64_t s[2] = {a, 0};
  return within_approx_bound(d, s, got);
}
bool ok2(const OpDesc& d, uint64_t a, uint64_t b, uint64_t got) {
  uint64_t s[2] = {a, b};
  return within_approx_bound(d, s, got);
}
// The float nearest to x + k * bound (rounded toward x so the error stays below).
uint32_t offset(long double x, long double delta) { return fb(static_cast<float>(x + delta)); }

}  // namespace

TEST_CASE("approx check: ulp bounds count from the correctly rounded value", "[unit]") {
  auto ex2 = desc("ex2.approx.f32");  // 9.7.3.21: 2 ulp
  uint32_t r = fb(8.0f);
  CHECK(ok(ex2, fb(3.0f), r));
  CHECK(ok(ex2, fb(3.0f), r + 2));
  CHECK(ok(ex2, fb(3.0f), r - 2));
  CHECK_FALSE(ok(ex2, fb(3.0f), r + 3));
  CHECK_FALSE(ok(ex2, fb(3.0f), r - 3));
  auto rcp = desc("rcp.approx.f32");  // 9.7.3.13: 1 ulp
  uint32_t third = fb(1.0f / 3.0f);
  CHECK(ok(rcp, fb(3.0f), third + 1));
  CHECK_FALSE(ok(rcp, fb(3.0f), third + 2));
  auto full = desc("div.full.f32");  // 9.7.3.8: 2 ulp everywhere
  CHECK(ok2(full, fb(1.0f), fb(3.0f), third - 2));
  CHECK_FALSE(ok2(full, fb(1.0f), fb(3.0f), third - 3));
}

TEST_CASE("approx check: sin/cos bounds depend on the input range", "[unit]") {
  auto sn = desc("sin.approx.f32");
  long double e = std::sin(0.5L);  // |a| <= 2pi: absolute 2^-20.5
  CHECK(ok(sn, fb(0.5f), offset(e, 0.9L * std::exp2(-20.5L))));
  CHECK_FALSE(ok(sn, fb(0.5f), offset(e, 1.2L * std::exp2(-20.5L))));
  e = std::sin(100.0L);  // 2pi < |a| <= 100pi: absolute 2^-14.7
  CHECK(ok(sn, fb(100.0f), offset(e, -0.9L * std::exp2(-14.7L))));
  CHECK_FALSE(ok(sn, fb(100.0f), offset(e, -1.2L * std::exp2(-14.7L))));
  auto cs = desc("cos.approx.f32");  // beyond 100pi: best effort, no bound
  CHECK(ok(cs, fb(1000.0f), fb(0.25f)));
  CHECK_FALSE(ok(cs, fb(1000.0f), 0x7fc00000));  // but not NaN for a finite input
  CHECK(ok(cs, 0x7f800000, 0x7fffffff));         // cos(+Inf) = NaN (any NaN)
  CHECK_FALSE(ok(cs, 0x7f800000, fb(1.0f)));
  CHECK(ok(sn, 0x80000000, 0x80000000));  // sin(-0) = -0 exactly
  CHECK_FALSE(ok(sn, 0x80000000, 0));
}

TEST_CASE("approx check: lg2 absolute on (0.5, 2), relative elsewhere", "[unit]") {
  auto lg = desc("lg2.approx.f32");
  long double e = std::log2(1.5L);
  CHECK(ok(lg, fb(1.5f), offset(e, 0.9L * std::ldexp(1.0L, -22))));
  CHECK_FALSE(ok(lg, fb(1.5f), offset(e, 1.2L * std::ldexp(1.0L, -22))));
  // log2(1024) = 10: relative 2^-22 is 10 * 2^-22 = 2.5 * 2^-20, i.e. 2.5 ulp of 10.
  CHECK(ok(lg, fb(1024.0f), fb(10.0f) + 2));
  CHECK_FALSE(ok(lg, fb(1024.0f), fb(10.0f) + 3));
  CHECK(ok(lg, fb(0.0f), 0xff800000));  // lg2(+0) = -Inf
  CHECK_FALSE(ok(lg, fb(0.0f), 0xff7fffff));
  CHECK(ok(lg, fb(-2.0f), 0x7fc00000));  // negative input: NaN
}

TEST_CASE("approx check: relative bounds (sqrt, rsqrt, tanh) and half forms", "[unit]") {
  auto th = desc("tanh.approx.f32");  // 9.7.3.22: relative 2^-11
  long double e = std::tanh(0.75L);
  CHECK(ok(th, fb(0.75f), offset(e, 0.9L * std::ldexp(e, -11))));
  CHECK_FALSE(ok(th, fb(0.75f), offset(e, 1.2L * std::ldexp(e, -11))));
  auto rs = desc("rsqrt.approx.f32");  // 9.7.3.16: relative 2^-22.9
  e = 1 / std::sqrt(3.0L);
  CHECK(ok(rs, fb(3.0f), offset(e, 0.9L * e * std::exp2(-22.9L))));
  CHECK_FALSE(ok(rs, fb(3.0f), offset(e, 1.6L * e * std::exp2(-22.9L))));
  auto h = desc("tanh.approx.f16");  // 9.7.4.9: absolute 2^-10.987 (f16)
  // tanh(0.5) = 0.4621...; f16 spacing there is 2^-12, so 1 step passes, 3 fail.
  uint16_t t = 0x3765;  // 0.46240234375, nearest f16 to tanh(0.5)
  CHECK(ok(h, 0x3800, t + 1));
  CHECK_FALSE(ok(h, 0x3800, t + 3));
  auto hb = desc("tanh.approx.bf16");  // absolute 2^-8
  CHECK(ok(hb, 0x3f00, 0x3eed));        // 0.462890625, error 2^-12-ish
  CHECK_FALSE(ok(hb, 0x3f00, 0x3ef5));  // 0.478515625, error > 2^-8
  auto x2 = desc("ex2.approx.f16x2");   // 9.7.4.10: relative 2^-9.9 per lane
  CHECK(ok(x2, 0x3c003c00, 0x40004000));        // 2^1 = 2 in both lanes
  CHECK_FALSE(ok(x2, 0x3c003c00, 0x40024000));  // upper lane 2 ulp off (2^-9 > 2^-9.9)
}

TEST_CASE("approx check: div.approx ranges, .ftz and the f64 upper-word forms", "[unit]") {
  auto dv = desc("div.approx.f32");
  // 2^126 < |b| < 2^128: a sign-preserving zero, exactly.
  CHECK(ok2(dv, fb(1.0f), fb(-0x1p127f), 0x80000000));
  CHECK_FALSE(ok2(dv, fb(1.0f), fb(-0x1p127f), 0x80000001));
  CHECK(ok2(dv, 0x7f800000, fb(0x1p127f), 0x7fffffff));
  auto rf = desc("rcp.approx.ftz.f32");
  uint32_t x = fb(1.5f * 0x1p126f);  // 1/x is below the smallest normal
  CHECK(ok(rf, x, 0));
  CHECK_FALSE(ok(rf, x, fb(1.0f / (1.5f * 0x1p126f))));  // a subnormal result must flush
  auto rn = desc("rcp.approx.f32");
  CHECK(ok(rn, x, fb(1.0f / (1.5f * 0x1p126f))));
  auto r64 = desc("rcp.approx.ftz.f64");
  uint64_t three = 0x4008000000000000ull, ref = 0x3fd5555500000000ull;
  CHECK(ok(r64, three, ref));
  CHECK(ok(r64, three, ref + (uint64_t(1) << 32)));      // no bound is stated
  CHECK_FALSE(ok(r64, three, ref + 1));                  // low word must be zero
  CHECK_FALSE(ok(r64, three, ref | (uint64_t(1) << 63)));  // sign must be right
  CHECK(ok(r64, 0x7ff8000000000000ull, 0x7fffffff00000000ull));
  auto add = desc("add.rn.f32");  // not approximate: bit-exact
  CHECK(ok2(add, fb(1.0f), fb(2.0f), fb(3.0f)));
  CHECK_FALSE(ok2(add, fb(1.0f), fb(2.0f), fb(3.0f) + 1));
  CHECK(bf(fb(3.0f)) == 3.0f);
}

// Every deterministic value in approx.vec is accepted by the check mode, and
// for ulp bounds the first value beyond the bound (on either side) is not.
TEST_CASE("approx check: golden values pass, ulp bound + 1 fails", "[unit]") {
  const char* srcdir = std::getenv("PTXCHECK_SRC");
  std::ifstream in(std::string(srcdir != nullptr ? srcdir : ".") + "/corpus/instr/approx.vec");
  REQUIRE(in.good());
  size_t n = 0, ulp_checked = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    std::string m, t;
    ls >> m;
    std::vector<uint64_t> v;
    while (ls >> t)
      if (t != "->") v.push_back(std::stoull(t, nullptr, 0));
    REQUIRE(v.size() >= 2);
    OpDesc d = desc(m.c_str());
    uint64_t src[2] = {v[0], v.size() > 2 ? v[1] : 0}, want = v.back();
    INFO(line);
    CHECK(within_approx_bound(d, src, want));
    ++n;
    if (d.bound.kind == ptxcheck::arith::ErrBound::ulp && d.dst == ptxcheck::arith::Ty::f32 &&
        (want & 0x7f800000) != 0x7f800000 && (want & 0x7fffffff) > 0x00800010 &&
        (want & 0x7fffffff) < 0x7f000000 && (v[0] & 0x7f800000) != 0x7f800000 && (v[0] & 0x7fffffff) != 0) {
      uint64_t k = static_cast<uint64_t>(d.bound.value) + 1;
      // div.approx: a fixed result above 2^126, no bound for subnormal b
      bool unbounded_b = m.rfind("div.approx", 0) == 0 &&
                         ((v[1] & 0x7fffffff) > 0x7e800000 || (v[1] & 0x7f800000) == 0);
      if (!unbounded_b) {
        CHECK_FALSE(within_approx_bound(d, src, want + k));
        CHECK_FALSE(within_approx_bound(d, src, want - k));
        ++ulp_checked;
      }
    }
  }
  CHECK(n > 1000);
  CHECK(ulp_checked > 100);
}
