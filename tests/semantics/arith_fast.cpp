// The interpreter's inline forms (semantics/arith/fast.hpp) give the bits of
// the kernels they stand for (the float forms: of the software kernels), and
// only the forms they claim get one.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "semantics/arith/fast.hpp"
#include "semantics/arith/resolve.hpp"

using namespace ptxcheck::arith;

namespace {

// Operands: edges of every width and sign, then random bits.
std::vector<uint64_t> operands() {
  std::vector<uint64_t> v = {0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 255, 256};
  for (unsigned w : {1u, 8u, 16u, 32u, 64u})
    for (uint64_t base : {uint64_t{1} << (w - 1), w == 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1})
      for (int64_t d = -2; d <= 2; ++d) v.push_back(base + static_cast<uint64_t>(d));
  v.push_back(0xffffffff00000000ull);
  v.push_back(0x123456789abcdef0ull);
  std::mt19937_64 rng(20261127);
  for (int i = 0; i < 40; ++i) v.push_back(rng() >> (rng() % 64));
  return v;
}

}  // namespace

TEST_CASE("inline integer forms give the kernels' bits", "[unit]") {
  const std::vector<std::string> forms = {
      "add.u16",     "add.s32",     "add.u32",     "add.s64",      "add.u64",      "sub.u16",      "sub.s32",
      "sub.u64",     "mul.lo.u16",  "mul.lo.s32",  "mul.lo.u32",   "mul.lo.s64",   "mad.lo.s32",   "mad.lo.u32",
      "mad.lo.u64",  "min.u16",     "min.s16",     "min.u32",      "min.s32",      "min.u64",      "min.s64",
      "max.u32",     "max.s32",     "max.s64",     "and.b32",      "and.b64",      "and.b16",      "and.pred",
      "or.b32",      "or.pred",     "xor.b32",     "xor.b64",      "not.b32",      "not.pred",     "not.b16",
      "cnot.b32",    "cnot.b64",    "shl.b16",     "shl.b32",      "shl.b64",      "shr.u16",      "shr.s16",
      "shr.u32",     "shr.s32",     "shr.b32",     "shr.u64",      "shr.s64",      "selp.b32",     "selp.s64",
      "selp.f32",    "selp.u16",    "setp.eq.s32", "setp.ne.u32",  "setp.lt.s32",  "setp.le.s64",  "setp.gt.u16",
      "setp.ge.s16", "setp.lo.u32", "setp.ls.u64", "setp.hi.u32",  "setp.hs.u64",  "setp.eq.b32",  "setp.ne.b64",
      "setp.lt.u64", "setp.gt.s64", "cvt.u32.u16", "cvt.s32.s16",  "cvt.u64.u32",  "cvt.s64.s32",  "cvt.u16.u32",
      "cvt.s8.s32",  "cvt.u8.s64",  "cvt.s16.u8",  "cvt.u32.s8",   "cvt.s64.u32",  "cvt.u64.s16",  "cvt.s32.u64",
      "cvt.u32.s32", "cvt.s16.s64", "cvt.u8.u8",   "mul.wide.u16", "mul.wide.s16", "mul.wide.u32", "mul.wide.s32",
      "mul.hi.u16",  "mul.hi.s16",  "mul.hi.u32",  "mul.hi.s32",   "mul.hi.u64",   "mul.hi.s64"};
  const std::vector<uint64_t> ops = operands();
  for (const std::string& m : forms) {
    INFO(m);
    Resolved r = resolve(m);
    REQUIRE(r);
    const OpDesc& d = *r.desc;
    fast::Form f = fast::form_of(d);
    REQUIRE(f.op != fast::Op::none);
    size_t checked = 0;
    for (size_t i = 0; i < ops.size(); ++i)
      for (size_t j = 0; j < ops.size(); ++j) {
        // selp's predicate and mad's addend: a third operand from the list.
        uint64_t s[4] = {ops[i], ops[j], ops[(i * 7 + j) % ops.size()], 0};
        if (m.rfind("selp", 0) == 0) s[2] &= 1;
        uint64_t aux = 0;
        const uint64_t want = d(s, &aux);
        const uint64_t got = fast::eval(f, s);
        if (got != want) FAIL_CHECK(m << " " << s[0] << " " << s[1] << " " << s[2] << ": " << got << " != " << want);
        if (f.op == fast::Op::setp && (got ^ 1) != aux) FAIL_CHECK(m << " q");
        ++checked;
      }
    CHECK(checked == ops.size() * ops.size());
  }
}

TEST_CASE("forms with carries, saturation, .relu, BoolOps or floats have no inline form", "[unit]") {
  for (const char* m : {"add.sat.s32",     "add.cc.u32",     "addc.u32",           "sub.cc.u32",
                        "mad.lo.cc.u32",   "mad.wide.u32",   "mad.hi.sat.s32",     "mad.hi.s32",
                        "max.relu.s32",    "min.u16x2",      "setp.lt.and.s32",    "setp.eq.or.u32",
                        "setp.lt.f16x2",   "setp.lt.f16",    "setp.lt.or.f32",     "add.rz.f32",
                        "sub.rm.f32",      "mul.rp.f64",     "fma.rz.f32",         "fma.rn.f16",
                        "add.f16x2",       "div.rz.f32",     "min.NaN.f32",        "max.xorsign.abs.f32",
                        "abs.f16",         "lop3.b32",       "shf.l.wrap.b32",     "prmt.b32",
                        "mov.b32",         "popc.b32",       "add.u16x2",          "cvt.sat.u16.u32",
                        "cvt.sat.s32.u32", "cvt.rz.f32.s32", "cvt.rzi.f32.f32",    "cvt.rzi.s16.f32",
                        "cvt.rn.f16.s32",  "cvt.rn.f32.s16", "cvt.rni.sat.s32.f32"}) {
    INFO(m);
    Resolved r = resolve(m);
    REQUIRE(r);
    CHECK(fast::form_of(*r.desc).op == fast::Op::none);
  }
}

TEST_CASE("inline float forms give the software kernels' bits", "[unit]") {
  // f32 and f64 edges: zeros, subnormals, the smallest normals, 1 and
  // around it, 2 (products and sums that round), the largest finite,
  // infinities, quiet and signalling NaNs with payloads, each with both
  // signs; then random bits, and random values near 1 (sums that cancel,
  // .sat boundaries).
  std::vector<uint64_t> e32, e64;
  for (uint32_t base :
       {0x00000000u, 0x00000001u, 0x00000003u, 0x007fffffu, 0x00800000u, 0x00800001u, 0x3f800000u, 0x3f800001u,
        0x3f7fffffu, 0x40000000u, 0x33800000u, 0x7f7fffffu, 0x7f000000u, 0x7f800000u, 0x7fc00000u, 0x7fc12345u,
        0x7f800001u, 0x7fffffffu, 0x0d800000u, 0x7e800000u, 0x7e800001u, 0x7effffffu, 0x00400000u, 0x3f000000u,
        0x3fc00000u, 0x40200000u, 0x4effffffu, 0x4f000000u, 0x4f800000u, 0x5f000000u, 0x5f800000u})
    for (uint32_t sign : {0u, 0x80000000u}) e32.push_back(base | sign);
  for (uint64_t base : {0x0ull,
                        0x1ull,
                        0x000fffffffffffffull,
                        0x0010000000000000ull,
                        0x3ff0000000000000ull,
                        0x3ff0000000000001ull,
                        0x3fefffffffffffffull,
                        0x4000000000000000ull,
                        0x3ca0000000000000ull,
                        0x7fefffffffffffffull,
                        0x7ff0000000000000ull,
                        0x7ff8000000000000ull,
                        0x7ff8000000012345ull,
                        0x7ff0000000000001ull,
                        0x1ff0000000000000ull,
                        0x3fe0000000000000ull,
                        0x3ff8000000000000ull,
                        0x4004000000000000ull,
                        0x41dfffffffc00000ull,
                        0x41e0000000000000ull,
                        0x41efffffffe00000ull,
                        0x41f0000000000000ull,
                        0x43e0000000000000ull,
                        0x43f0000000000000ull})
    for (uint64_t sign : {0ull, 0x8000000000000000ull}) e64.push_back(base | sign);
  std::mt19937_64 rng(20261127);
  for (int i = 0; i < 60; ++i) {
    e32.push_back(rng() & 0xffffffffu);
    e64.push_back(rng());
    e32.push_back(0x3f000000u + (rng() & 0xffffffu) + (rng() & 1 ? 0x80000000u : 0));
    e64.push_back(0x3fe0000000000000ull + (rng() & 0x1fffffffffffffull) + (rng() & 1 ? 0x8000000000000000ull : 0));
  }
  const std::vector<std::string> forms = {"add.f32",
                                          "add.rn.f32",
                                          "add.ftz.f32",
                                          "add.sat.f32",
                                          "add.rn.ftz.sat.f32",
                                          "sub.f32",
                                          "sub.ftz.f32",
                                          "sub.sat.f32",
                                          "mul.f32",
                                          "mul.rn.ftz.f32",
                                          "mul.sat.f32",
                                          "mul.ftz.sat.f32",
                                          "fma.rn.f32",
                                          "fma.rn.ftz.f32",
                                          "fma.rn.sat.f32",
                                          "fma.rn.ftz.sat.f32",
                                          "mad.rn.f32",
                                          "mad.rn.ftz.f32",
                                          "add.f64",
                                          "add.rn.f64",
                                          "sub.f64",
                                          "mul.f64",
                                          "fma.rn.f64",
                                          "mad.rn.f64",
                                          "setp.eq.f32",
                                          "setp.ne.f32",
                                          "setp.lt.f32",
                                          "setp.le.ftz.f32",
                                          "setp.gt.f32",
                                          "setp.ge.f32",
                                          "setp.equ.f32",
                                          "setp.neu.ftz.f32",
                                          "setp.ltu.f32",
                                          "setp.leu.f32",
                                          "setp.gtu.f32",
                                          "setp.geu.f32",
                                          "setp.num.f32",
                                          "setp.nan.f32",
                                          "setp.lt.f64",
                                          "setp.ne.f64",
                                          "setp.geu.f64",
                                          "setp.nan.f64",
                                          "min.f32",
                                          "min.ftz.f32",
                                          "max.f32",
                                          "max.ftz.f32",
                                          "min.f64",
                                          "max.f64",
                                          "abs.f32",
                                          "abs.ftz.f32",
                                          "neg.f32",
                                          "neg.ftz.f32",
                                          "abs.f64",
                                          "neg.f64",
                                          "div.rn.f32",
                                          "div.rn.ftz.f32",
                                          "div.full.f32",
                                          "div.full.ftz.f32",
                                          "div.approx.f32",
                                          "div.approx.ftz.f32",
                                          "rcp.rn.f32",
                                          "rcp.rn.ftz.f32",
                                          "rcp.approx.f32",
                                          "rcp.approx.ftz.f32",
                                          "sqrt.rn.f32",
                                          "sqrt.rn.ftz.f32",
                                          "sqrt.approx.f32",
                                          "sqrt.approx.ftz.f32",
                                          "div.rn.f64",
                                          "rcp.rn.f64",
                                          "sqrt.rn.f64",
                                          "cvt.rni.s32.f32",
                                          "cvt.rzi.s32.f32",
                                          "cvt.rmi.u32.f32",
                                          "cvt.rpi.u32.f32",
                                          "cvt.rzi.ftz.s32.f32",
                                          "cvt.rni.s64.f32",
                                          "cvt.rzi.u64.f32",
                                          "cvt.rn.f32.s32",
                                          "cvt.rn.f32.u32",
                                          "cvt.rn.f32.s64",
                                          "cvt.rn.f32.u64",
                                          "cvt.rni.s32.f64",
                                          "cvt.rzi.u32.f64",
                                          "cvt.rmi.s64.f64",
                                          "cvt.rpi.u64.f64",
                                          "cvt.rn.f64.s32",
                                          "cvt.rn.f64.u64",
                                          "cvt.rn.f64.s64"};
  for (const std::string& m : forms) {
    INFO(m);
    Resolved host = resolve(m), soft = resolve(m, ResolveOptions{false});
    REQUIRE(host);
    REQUIRE(soft);
    fast::Form f = fast::form_of(*host.desc);
    REQUIRE(f.op != fast::Op::none);
    // The operands of the source type (cvt: the last type; the rest end in it).
    const bool f64 = m.compare(m.size() - 2, 2, "64") == 0;
    const std::vector<uint64_t>& v = f64 ? e64 : e32;
    size_t differ = 0, checked = 0;
    for (size_t i = 0; i < v.size(); ++i)
      for (size_t j = 0; j < v.size(); ++j) {
        uint64_t s[4] = {v[i], v[j], v[(i * 7 + j * 3) % v.size()], 0}, aux = 0;
        const uint64_t want = (*soft.desc)(s, &aux);
        const uint64_t got = fast::eval(f, s);
        const bool q_bad = m.rfind("setp", 0) == 0 && (got ^ 1) != aux;
        if (got != want || q_bad) {
          if (++differ <= 5)
            FAIL_CHECK(m << " " << s[0] << " " << s[1] << " " << s[2] << ": " << got << " != " << want);
        }
        ++checked;
      }
    CHECK(differ == 0);
    CHECK(checked == v.size() * v.size());
  }
  // The software kernels (no host FPU) get no inline arithmetic form.
  for (const char* m : {"add.f32", "fma.rn.f32", "mul.f64", "div.rn.f32", "div.approx.f32", "sqrt.rn.f64"}) {
    INFO(m);
    Resolved soft = resolve(m, ResolveOptions{false});
    REQUIRE(soft);
    CHECK(fast::form_of(*soft.desc).op == fast::Op::none);
  }
}

TEST_CASE("f32 rcp/sqrt .approx and div .approx/.full on the host FPU give the software bits", "[unit]") {
  // Edges: zeros, subnormals, the smallest normals, around 1, 2^126 (div.approx's
  // special range 2^126 < |b| < 2^128), the largest finite, infinities and NaNs.
  std::vector<uint64_t> v;
  for (uint32_t base : {0x00000000u, 0x00000001u, 0x007fffffu, 0x00800000u, 0x3f800000u, 0x3fffffffu, 0x7e7fffffu,
                        0x7e800000u, 0x7e800001u, 0x7effffffu, 0x7f000000u, 0x7f7fffffu, 0x7f800000u, 0x7fc00000u,
                        0x7f800001u, 0x40490fdbu, 0x1f800000u, 0x20000000u})
    for (uint32_t sign : {0u, 0x80000000u}) v.push_back(base | sign);
  std::mt19937 rng(1127);
  for (int i = 0; i < 300; ++i) v.push_back(rng());
  for (const char* m : {"rcp.approx.f32", "rcp.approx.ftz.f32", "sqrt.approx.f32", "sqrt.approx.ftz.f32",
                        "div.approx.f32", "div.approx.ftz.f32", "div.full.f32", "div.full.ftz.f32"}) {
    INFO(m);
    Resolved host = resolve(m), soft = resolve(m, ResolveOptions{false});
    REQUIRE(host);
    REQUIRE(soft);
    size_t differ = 0;
    for (uint64_t a : v)
      for (uint64_t b : v) {
        uint64_t s[4] = {a, b, 0, 0}, x = 0, y = 0;
        if ((*host.desc)(s, &x) != (*soft.desc)(s, &y)) ++differ;
      }
    CHECK(differ == 0);
  }
}

TEST_CASE("f32 ex2/lg2/rsqrt .approx through double give the long double path's bits", "[unit]") {
  // Edges (zeros, subnormals, 1 and its neighbours, infinities, NaNs, both
  // signs), every f32 in ranges where results round near a boundary (ex2:
  // results near the largest finite, the smallest normal with and without
  // .ftz, the smallest subnormal; lg2 and rsqrt: around 1, 2, 4, and
  // subnormal inputs), then random bits and random values of [-160, 130].
  std::vector<uint32_t> v;
  for (uint32_t base : {0x00000000u, 0x00000001u, 0x007fffffu, 0x00800000u, 0x3f800000u, 0x3f800001u, 0x3f7fffffu,
                        0x40000000u, 0x42fe0000u, 0x43000000u, 0x43000001u, 0xc2fc0000u, 0xc3150000u, 0xc3160000u,
                        0xc3200000u, 0xc3200001u, 0x7f7fffffu, 0x7f800000u, 0x7fc00000u, 0x7f800001u})
    for (uint32_t sign : {0u, 0x80000000u}) v.push_back(base | sign);
  auto sweep = [&](float from, float to, uint32_t step) {
    uint32_t a, b;
    std::memcpy(&a, &from, 4);
    std::memcpy(&b, &to, 4);
    if (a > b) std::swap(a, b);
    for (uint32_t u = a; u <= b; u += step) v.push_back(u);
  };
  sweep(127.99f, 128.0f, 1);        // ex2 near the largest finite f32
  sweep(-126.001f, -125.999f, 1);   // ex2 near the smallest normal (.ftz flushes below)
  sweep(-150.001f, -148.999f, 7);   // ex2 near half the smallest subnormal
  sweep(0x1p-24f, 0x1p-10f, 8191);  // ex2 near 1
  sweep(-0x1p-24f, -0x1p-10f, 8191);
  sweep(0.999f, 1.001f, 3);  // lg2 near 0, rsqrt near 1
  sweep(3.999f, 4.001f, 3);
  std::mt19937 rng(1127);
  std::uniform_real_distribution<float> range(-160.0f, 130.0f);
  for (int i = 0; i < 40000; ++i) {
    v.push_back(rng());
    float x = range(rng);
    uint32_t u;
    std::memcpy(&u, &x, 4);
    v.push_back(u);
  }
  for (const char* m : {"ex2.approx.f32", "ex2.approx.ftz.f32", "lg2.approx.f32", "lg2.approx.ftz.f32",
                        "rsqrt.approx.f32", "rsqrt.approx.ftz.f32"}) {
    INFO(m);
    Resolved host = resolve(m), soft = resolve(m, ResolveOptions{false});
    REQUIRE(host);
    REQUIRE(soft);
    size_t differ = 0;
    for (uint32_t a : v) {
      uint64_t s[4] = {a, 0, 0, 0}, x = 0, y = 0;
      const uint64_t got = (*host.desc)(s, &x), want = (*soft.desc)(s, &y);
      if (got != want && ++differ <= 5) FAIL_CHECK(m << " " << a << ": " << got << " != " << want);
    }
    CHECK(differ == 0);
  }
}

TEST_CASE("f64 .rz/.rm/.rp add/sub/mul/div on the host FPU give the software bits", "[unit]") {
  // Edges: zeros, subnormals, the smallest normal, around 1 and 2, powers
  // of two near the fallback bounds 2^-960 and 2^1022, the largest finite,
  // infinities and NaNs, both signs; random bits; random values of similar
  // size (sums that cancel, quotients near 1) and of every exponent.
  std::vector<uint64_t> v;
  for (uint64_t base : {0x0ull,
                        0x1ull,
                        0x000fffffffffffffull,
                        0x0010000000000000ull,
                        0x3ff0000000000000ull,
                        0x3ff0000000000001ull,
                        0x3fefffffffffffffull,
                        0x4000000000000000ull,
                        0x4008000000000000ull,
                        0x03f0000000000000ull,
                        0x03efffffffffffffull,
                        0x0400000000000001ull,
                        0x7fd0000000000000ull,
                        0x7fcfffffffffffffull,
                        0x7fefffffffffffffull,
                        0x7ff0000000000000ull,
                        0x7ff8000000000000ull,
                        0x7ff0000000000001ull,
                        0x3cb0000000000000ull,
                        0x1ff0000000000001ull})
    for (uint64_t sign : {0ull, 0x8000000000000000ull}) v.push_back(base | sign);
  std::mt19937_64 rng(20261127);
  for (int i = 0; i < 120; ++i) {
    v.push_back(rng());
    v.push_back(0x3fe0000000000000ull + (rng() & 0x1fffffffffffffull) + (rng() & 1 ? 0x8000000000000000ull : 0));
    v.push_back(rng() & 0x800fffffffffffffull);  // subnormals and zeros
  }
  size_t forms = 0;
  for (const char* op : {"add", "sub", "mul", "div"})
    for (const char* rm : {"rz", "rm", "rp"}) {
      const std::string m = std::string(op) + "." + rm + ".f64";
      INFO(m);
      Resolved host = resolve(m), soft = resolve(m, ResolveOptions{false});
      REQUIRE(host);
      REQUIRE(soft);
      CHECK(host.desc->fn != soft.desc->fn);  // the host kernel is in use
      size_t differ = 0;
      for (uint64_t a : v)
        for (uint64_t b : v) {
          uint64_t s[4] = {a, b, 0, 0}, x = 0, y = 0;
          const uint64_t got = (*host.desc)(s, &x), want = (*soft.desc)(s, &y);
          if (got != want && ++differ <= 5) FAIL_CHECK(m << " " << a << " " << b << ": " << got << " != " << want);
        }
      CHECK(differ == 0);
      ++forms;
    }
  CHECK(forms == 12);
}
