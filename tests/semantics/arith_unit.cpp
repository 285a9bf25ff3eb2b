// Unit tests for the arithmetic layer: resolver contract, tricky cases, and a
// randomized cross-check of the software .rn path against the host FPU (whose
// default round-to-nearest-even is IEEE exact for + * / sqrt and std::fma).
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstring>
#include <random>

#include "semantics/arith/resolve.hpp"

using ptxcheck::arith::resolve;

namespace {

bool g_host = true;  // resolve with the host-FPU fast path

uint64_t run(const char* m, uint64_t a, uint64_t b = 0, uint64_t c = 0, uint64_t d = 0,
             uint64_t* aux = nullptr) {
  auto r = resolve(m, ptxcheck::arith::ResolveOptions{g_host});
  INFO(m << ": " << r.error);
  REQUIRE(r);
  uint64_t s[4] = {a, b, c, d};
  uint64_t x = 0;
  return (*r.desc)(s, aux != nullptr ? aux : &x);
}

uint32_t fb(float f) { return std::bit_cast<uint32_t>(f); }
uint64_t db(double f) { return std::bit_cast<uint64_t>(f); }
bool is_nan32(uint64_t v) { return std::isnan(std::bit_cast<float>(static_cast<uint32_t>(v))); }

}  // namespace

TEST_CASE("resolver rejects malformed and unsupported mnemonics", "[unit]") {
  CHECK_FALSE(resolve("add..f32"));
  CHECK_FALSE(resolve("frobnicate.f32"));
  CHECK_FALSE(resolve("fma.f32"));                 // rounding required
  CHECK_FALSE(resolve("add.sat.u32"));             // .sat only for .s32
  CHECK_FALSE(resolve("add.rn.rz.f32"));           // two roundings
  CHECK_FALSE(resolve("mul.u32"));                 // needs .lo/.hi/.wide
  CHECK_FALSE(resolve("cvt.rn.s32.f32"));          // float rounding to int
  CHECK_FALSE(resolve("setp.equ.s32"));            // unordered needs float
  CHECK(resolve("setp.ltu.and.ftz.f32").desc->aux_out);
  CHECK(resolve("add.cc.u32").desc->aux_out);
  CHECK(resolve("addc.u32").desc->nsrc == 3);
  auto ex = resolve("ex2.approx.ftz.f32");
  REQUIRE(ex);
  CHECK(ex.desc->bound.kind == ptxcheck::arith::ErrBound::ulp);
  CHECK(resolve("add.rn.f32").desc->bound.kind == ptxcheck::arith::ErrBound::exact);
  std::string err = resolve("add.sat.u32").error;
  CHECK(err.find("add.sat.u32") != std::string::npos);
}

TEST_CASE("tricky integer cases", "[unit]") {
  CHECK(run("div.s32", 0x80000000, 0xffffffff) == 0x80000000);  // INT_MIN / -1 wraps
  CHECK(run("rem.s32", 0x80000000, 0xffffffff) == 0);
  CHECK(run("div.u32", 7, 0) == 0xffffffff);                     // documented choice
  CHECK(run("shl.b32", 1, 32) == 0);
  CHECK(run("shr.s32", 0x80000000, 100) == 0xffffffff);
  uint64_t carry = 9;
  CHECK(run("add.cc.u32", 0xffffffff, 1, 0, 0, &carry) == 0);
  CHECK(carry == 1);
  CHECK(run("addc.cc.u32", 0, 0, 1, 0, &carry) == 1);
  CHECK(carry == 0);
  CHECK(run("sub.cc.u32", 0, 1, 0, 0, &carry) == 0xffffffff);
  CHECK(carry == 1);  // borrow out
  CHECK(run("mul.hi.s64", 0x8000000000000000ull, 0x8000000000000000ull) == 0x4000000000000000ull);
  CHECK(run("bfind.shiftamt.u32", 1) == 31);
  CHECK(run("bfind.s32", 0xffffffff) == 0xffffffff);
}

TEST_CASE("tricky float cases", "[unit]") {
  // canonical NaN out of arithmetic (PTX ISA 9.7.3)
  CHECK(run("add.rn.f32", 0x7fc00001, fb(1.0f)) == 0x7fffffff);
  // exact zero sum: +0 except under .rm
  CHECK(run("add.rn.f32", fb(1.0f), fb(-1.0f)) == 0);
  CHECK(run("add.rm.f32", fb(1.0f), fb(-1.0f)) == 0x80000000);
  // .ftz flushes a subnormal input to a signed zero
  CHECK(run("add.rn.ftz.f32", 0x80000001, 0x80000000) == 0x80000000);
  CHECK(run("add.rn.f32", 0x00000001, 0x00000001) == 0x00000002);
  // .sat: NaN -> +0, clamp to [0,1]
  CHECK(run("add.rn.sat.f32", 0x7fc00000, 0) == 0);
  CHECK(run("mul.rn.sat.f32", fb(3.0f), fb(1.0f)) == fb(1.0f));
  // overflow by rounding mode
  CHECK(run("mul.rz.f32", fb(3e38f), fb(10.0f)) == 0x7f7fffff);
  CHECK(run("mul.rn.f32", fb(3e38f), fb(10.0f)) == 0x7f800000);
  CHECK(run("mul.rm.f32", fb(-3e38f), fb(10.0f)) == 0xff800000);
  // min: NaN ignored unless .NaN; -0 < +0
  CHECK(run("min.f32", 0x7fc00000, fb(2.0f)) == fb(2.0f));
  CHECK(is_nan32(run("min.NaN.f32", 0x7fc00000, fb(2.0f))));
  CHECK(run("min.f32", 0x80000000, 0) == 0x80000000);
  CHECK(run("max.xorsign.abs.f32", fb(-2.0f), fb(3.0f)) == fb(-3.0f));
  // float-to-int saturation and NaN (PTX ISA 9.0 rule)
  CHECK(run("cvt.rzi.s32.f32", 0x7fc00000) == 0);
  CHECK(run("cvt.rzi.s32.f64", 0x7ff8000000000000ull) == 0x80000000);
  CHECK(run("cvt.rzi.u64.f32", 0x7fc00000) == 0x8000000000000000ull);
  CHECK(run("cvt.rni.s32.f32", fb(2.5f)) == 2);
  CHECK(run("cvt.rni.s32.f32", fb(-1e20f)) == 0x80000000);
  CHECK(run("cvt.rzi.u32.f32", fb(-3.5f)) == 0);
  CHECK(run("cvt.rn.satfinite.e4m3x2.f32", fb(1000.0f), 0x7fc00000) == 0x7e7f);
  CHECK(run("setp.neu.f32", 0x7fc00000, 0) == 1);
  CHECK(run("setp.ne.f32", 0x7fc00000, 0) == 0);
}

TEST_CASE("software .rn agrees with the host FPU on random operands", "[unit]") {
  g_host = false;  // the software kernels against the host FPU
  std::mt19937_64 rng(12345);
  auto rand32 = [&] {
    uint32_t v = static_cast<uint32_t>(rng());
    return (rng() & 3) == 0 ? v & 0x807fffffu : v;  // some subnormals
  };
  for (int i = 0; i < 20000; ++i) {
    uint32_t a = rand32(), b = rand32(), c = rand32();
    float fa = std::bit_cast<float>(a), fb2 = std::bit_cast<float>(b), fc = std::bit_cast<float>(c);
    auto same = [&](uint64_t got, float want) {
      if (std::isnan(want)) return got == 0x7fffffff;
      return got == fb(want);
    };
    CHECK(same(run("add.rn.f32", a, b), fa + fb2));
    CHECK(same(run("mul.rn.f32", a, b), fa * fb2));
    CHECK(same(run("div.rn.f32", a, b), fa / fb2));
    CHECK(same(run("fma.rn.f32", a, b, c), std::fma(fa, fb2, fc)));
    CHECK(same(run("sqrt.rn.f32", a), std::sqrt(fa)));
    uint64_t x = rng(), y = rng(), z = rng();
    double dx = std::bit_cast<double>(x), dy = std::bit_cast<double>(y), dz = std::bit_cast<double>(z);
    auto same64 = [&](uint64_t got, double want) {
      if (std::isnan(want)) return got == 0x7fffffffffffffffull;
      return got == db(want);
    };
    CHECK(same64(run("add.rn.f64", x, y), dx + dy));
    CHECK(same64(run("fma.rn.f64", x, y, z), std::fma(dx, dy, dz)));
    CHECK(same64(run("div.rn.f64", x, y), dx / dy));
  }
  g_host = true;
}

TEST_CASE("approx check mode accepts values within the spec bound only", "[unit]") {
  using ptxcheck::arith::within_bound;
  auto ex2 = *resolve("ex2.approx.f32").desc;  // 2 ulp
  uint64_t ref = fb(8.0f);
  CHECK(within_bound(ex2, ref, ref));
  CHECK(within_bound(ex2, ref + 2, ref));
  CHECK(within_bound(ex2, ref - 2, ref));
  CHECK_FALSE(within_bound(ex2, ref + 3, ref));
  CHECK_FALSE(within_bound(ex2, 0x7f800000, ref));
  CHECK(within_bound(ex2, 0x7fc00000, 0x7fffffff));  // any NaN for NaN
  auto sn = *resolve("sin.approx.f32").desc;  // absolute error
  CHECK(within_bound(sn, fb(0.5f + 0x1.0p-21f), fb(0.5f)));
  CHECK_FALSE(within_bound(sn, fb(0.5f + 0x1.0p-19f), fb(0.5f)));
  auto add = *resolve("add.rn.f32").desc;  // exact: no slack
  CHECK_FALSE(within_bound(add, ref + 1, ref));
  auto h = *resolve("ex2.approx.f16x2").desc;  // lane-wise relative bound
  CHECK(within_bound(h, 0x3c004000, 0x3c004000));
  CHECK_FALSE(within_bound(h, 0x3c004400, 0x3c004000));
}

TEST_CASE("mov pack/unpack and mov.type", "[unit]") {
  using ptxcheck::arith::pack2;
  using ptxcheck::arith::unpack_elem;
  // mov.b64 d, {lo, hi}: element 0 is the least significant half
  uint64_t d = pack2(0x11112222, 0x33334444, 32);
  CHECK(d == 0x3333444411112222ull);
  CHECK(unpack_elem(d, 32, 0) == 0x11112222);
  CHECK(unpack_elem(d, 32, 1) == 0x33334444);
  CHECK(pack2(0x1ffff, 0xabcd, 16) == 0xabcdffff);  // elements are truncated
  CHECK(unpack_elem(0xaabbccdd, 8, 2) == 0xbb);
  CHECK(run("mov.b16", 0x123456789) == 0x6789);
  CHECK(run("fns.b32", 0xaaaaaaaa, 2, 0xffffffff) == 1);  // ISA example
  CHECK(run("bmsk.wrap.b32", 1, 2) == 6);                // ISA example
  CHECK(run("szext.wrap.u32", 0xffffffff, 0) == 0);       // ISA example
}

TEST_CASE("predicate logic, defaults and packed-lane plumbing", "[unit]") {
  CHECK(run("and.pred", 1, 1) == 1);
  CHECK(run("or.pred", 0, 0) == 0);
  CHECK(run("xor.pred", 1, 1) == 0);
  CHECK(run("not.pred", 0) == 1);
  CHECK(run("not.pred", 1) == 0);
  // mad.f32 is fused and needs a rounding modifier (sm_20+)
  CHECK_FALSE(resolve("mad.f32"));
  CHECK(run("mad.rn.f32", fb(1.0f + 0x1.0p-23f), fb(1.0f - 0x1.0p-23f), fb(-1.0f)) == fb(-0x1.0p-46f));
  // add.f32 without rounding is .rn
  CHECK(run("add.f32", fb(1.0f), fb(0x1.0p-24f)) == fb(1.0f));
  // setp on f16x2: p is the low lane, q the high lane
  uint64_t q = 9;
  CHECK(run("setp.lt.f16x2", 0x3c000000, 0x00003c00, 0, 0, &q) == 1);
  CHECK(q == 0);
  // cvt to f16x2 puts the first source in the upper half
  CHECK(run("cvt.rn.f16x2.f32", fb(1.0f), fb(2.0f)) == 0x3c004000);
  // video selectors arrive as tokens
  CHECK(run("vadd.u32.u32.u32.asel_b1.bsel_h1", 0x0000ff00, 0x00020000) == 0x101);
  CHECK(run("vadd2.u32.u32.u32", 0x00010002, 0x00030004, 0) == 0x00040006);
  // 64-bit integer extremes
  CHECK(run("mul.wide.s32", 0x80000000, 0x80000000) == 0x4000000000000000ull);
  CHECK(run("mad.lo.cc.u64", ~0ull, 1, 1, 0, &q) == 0);
  CHECK(q == 1);
}

TEST_CASE("half-precision fast path equals the software path", "[unit]") {
  using ptxcheck::arith::ResolveOptions;
  std::mt19937_64 rng(4242);
  for (const char* m : {"add.rn.f16", "sub.rn.ftz.f16", "mul.rn.sat.f16", "fma.rn.f16", "fma.rn.relu.f16",
                        "add.rn.bf16", "mul.rn.bf16", "fma.rn.bf16", "fma.rn.ftz.sat.f16x2", "add.rn.bf16x2"}) {
    auto fast = resolve(m, ResolveOptions{true}), soft = resolve(m, ResolveOptions{false});
    REQUIRE(fast);
    REQUIRE(soft);
    uint64_t aux = 0;
    int bad = 0;
    for (int i = 0; i < 40000; ++i) {
      uint64_t s[4] = {rng() & 0xffffffff, rng() & 0xffffffff, rng() & 0xffffffff, 0};
      if (i % 4 == 0) s[1] = (s[0] ^ 0x80008000u) + (rng() % 3);  // cancellation
      if (i % 4 == 1) s[2] = s[0];
      if ((*fast.desc)(s, &aux) != (*soft.desc)(s, &aux)) ++bad;
    }
    INFO(m);
    CHECK(bad == 0);
  }
}

TEST_CASE("cvt enforces mandatory rounding modifiers", "[unit]") {
  CHECK_FALSE(resolve("cvt.f32.s32"));    // int to float
  CHECK_FALSE(resolve("cvt.s32.f32"));    // float to int
  CHECK_FALSE(resolve("cvt.f32.f64"));    // narrowing
  CHECK_FALSE(resolve("cvt.bf16.f16"));   // lossy between 16-bit formats
  CHECK_FALSE(resolve("cvt.f16x2.f32"));  // packed
  CHECK(resolve("cvt.f64.f32"));          // widening is exact
  CHECK(resolve("cvt.u16.u32"));          // integer truncation
  CHECK(resolve("cvt.rzi.f32.f32"));      // integral rounding in place
  CHECK_FALSE(resolve("cvt.rzi.f32.f64"));
}
