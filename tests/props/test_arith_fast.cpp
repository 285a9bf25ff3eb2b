// Property: the interpreter's inline arithmetic forms (semantics/arith/fast.hpp,
// run by exec_fast.cpp's lane loop) give the bits of the software kernels
// (ResolveOptions{.host_fpu = false}) on operands drawn mostly from the
// special values of each format (signed zeros, subnormals and their
// boundaries, infinities, quiet and signalling NaNs, the largest finite,
// powers of two at the integer and div.approx boundaries, rounding ties)
// and otherwise at random; .ftz and .sat are part of the forms drawn.
// tests/semantics/arith_fast.cpp checks every pair of a fixed operand list;
// this draws forms and operand triples at random (RapidCheck).
#include <cstdint>
#include <string>
#include <vector>

#include "semantics/arith/fast.hpp"
#include "semantics/arith/resolve.hpp"
#include "tests/props/props_check.hpp"

using namespace ptxcheck;

namespace {

const std::vector<std::string>& float_forms() {
  static const std::vector<std::string> v = {"add.f32",
                                             "add.ftz.sat.f32",
                                             "sub.ftz.f32",
                                             "mul.sat.f32",
                                             "fma.rn.f32",
                                             "fma.rn.ftz.sat.f32",
                                             "mad.rn.ftz.f32",
                                             "add.f64",
                                             "sub.f64",
                                             "mul.f64",
                                             "fma.rn.f64",
                                             "setp.lt.f32",
                                             "setp.geu.ftz.f32",
                                             "setp.nan.f64",
                                             "setp.le.f64",
                                             "min.f32",
                                             "max.ftz.f32",
                                             "min.f64",
                                             "max.f64",
                                             "abs.ftz.f32",
                                             "neg.f32",
                                             "abs.f64",
                                             "neg.f64",
                                             "div.rn.f32",
                                             "div.rn.ftz.f32",
                                             "div.full.f32",
                                             "div.full.ftz.f32",
                                             "div.approx.f32",
                                             "div.approx.ftz.f32",
                                             "rcp.rn.f32",
                                             "rcp.approx.ftz.f32",
                                             "sqrt.rn.f32",
                                             "sqrt.approx.ftz.f32",
                                             "div.rn.f64",
                                             "rcp.rn.f64",
                                             "sqrt.rn.f64",
                                             "cvt.rni.s32.f32",
                                             "cvt.rzi.ftz.s32.f32",
                                             "cvt.rmi.s64.f32",
                                             "cvt.rpi.u32.f32",
                                             "cvt.rni.u64.f64",
                                             "cvt.rmi.s32.f64",
                                             "cvt.rn.f32.s32",
                                             "cvt.rn.f32.u64",
                                             "cvt.rn.f64.s64",
                                             "cvt.rn.f64.u32"};
  return v;
}

// Special bit patterns of binary32 and binary64 (each also negated).
const std::vector<uint64_t>& specials(bool f64) {
  static const std::vector<uint64_t> s32 = [] {
    std::vector<uint64_t> v;
    for (uint32_t b : {0x00000000u, 0x00000001u, 0x00000002u, 0x003fffffu, 0x00400000u, 0x007fffffu, 0x00800000u,
                       0x00800001u, 0x3f000000u, 0x3f7fffffu, 0x3f800000u, 0x3f800001u, 0x3fc00000u, 0x40200000u,
                       0x4b000000u, 0x4b7fffffu, 0x4effffffu, 0x4f000000u, 0x4f800000u, 0x5f000000u, 0x5f800000u,
                       0x7e800000u, 0x7e800001u, 0x7effffffu, 0x7f000000u, 0x7f7fffffu, 0x7f800000u, 0x7f800001u,
                       0x7fbfffffu, 0x7fc00000u, 0x7fffffffu, 0x33800000u, 0x0d800000u})
      for (uint32_t sign : {0u, 0x80000000u}) v.push_back(b | sign);
    return v;
  }();
  static const std::vector<uint64_t> s64 = [] {
    std::vector<uint64_t> v;
    for (uint64_t b : {0x0ull,
                       0x1ull,
                       0x0008000000000000ull,
                       0x000fffffffffffffull,
                       0x0010000000000000ull,
                       0x0010000000000001ull,
                       0x3fe0000000000000ull,
                       0x3fefffffffffffffull,
                       0x3ff0000000000000ull,
                       0x3ff0000000000001ull,
                       0x3ff8000000000000ull,
                       0x4004000000000000ull,
                       0x4330000000000000ull,
                       0x41dfffffffc00000ull,
                       0x41e0000000000000ull,
                       0x41efffffffe00000ull,
                       0x41f0000000000000ull,
                       0x43e0000000000000ull,
                       0x43f0000000000000ull,
                       0x7fefffffffffffffull,
                       0x7ff0000000000000ull,
                       0x7ff0000000000001ull,
                       0x7ff8000000000000ull,
                       0x7fffffffffffffffull,
                       0x3ca0000000000000ull,
                       0x1ff0000000000000ull})
      for (uint64_t sign : {0ull, 0x8000000000000000ull}) v.push_back(b | sign);
    return v;
  }();
  return f64 ? s64 : s32;
}

}  // namespace

TEST_CASE("inline arithmetic forms give the software kernels' bits", "[props-arith-fast]") {
  props::check("fast::eval == software kernel", 20000, [] {
    const std::string m = *rc::gen::elementOf(float_forms());
    // The source type's width (cvt: the last type; the other forms end in it).
    const bool wide = m.compare(m.size() - 2, 2, "64") == 0;
    const auto operand = [&] {
      const uint64_t r = *rc::gen::arbitrary<uint64_t>();
      return *rc::gen::inRange(0, 4) != 0 ? *rc::gen::elementOf(specials(wide)) : (wide ? r : r & 0xffffffffu);
    };
    uint64_t s[4] = {operand(), operand(), operand(), 0};
    RC_TAG(m);
    const arith::Resolved host = arith::resolve(m), soft = arith::resolve(m, arith::ResolveOptions{false});
    RC_ASSERT(static_cast<bool>(host));
    RC_ASSERT(static_cast<bool>(soft));
    const arith::fast::Form f = arith::fast::form_of(*host.desc);
    RC_ASSERT(f.op != arith::fast::Op::none);
    uint64_t aux = 0;
    const uint64_t want = (*soft.desc)(s, &aux);
    const uint64_t got = arith::fast::eval(f, s);
    RC_ASSERT(got == want);
    if (m.rfind("setp", 0) == 0) RC_ASSERT((got ^ 1) == aux);
  });
}

// The integer forms whose kernels compute a double-width product
// (int_ops.cpp mul_mad), and neighbours, on operands at random or at the
// edges of their width (0, 1, all ones, the sign bit and one either side).
TEST_CASE("inline integer product forms give the kernels' bits", "[props-arith-fast]") {
  static const std::vector<std::string> forms = {"mul.wide.u16", "mul.wide.s16", "mul.wide.u32", "mul.wide.s32",
                                                 "mul.hi.u16",   "mul.hi.s16",   "mul.hi.u32",   "mul.hi.s32",
                                                 "mul.hi.u64",   "mul.hi.s64",   "mul.lo.s32",   "mad.lo.u64"};
  props::check("fast::eval == integer kernel", 20000, [] {
    const std::string m = *rc::gen::elementOf(forms);
    const unsigned w = m.compare(m.size() - 2, 2, "16") == 0 ? 16 : m.compare(m.size() - 2, 2, "32") == 0 ? 32 : 64;
    const auto operand = [&] {
      const uint64_t top = uint64_t(1) << (w - 1);
      const uint64_t edges[] = {0, 1, top - 1, top, top + 1, top | (top - 1), ~uint64_t(0)};
      return *rc::gen::inRange(0, 3) == 0
                 ? *rc::gen::elementOf(std::vector<uint64_t>(std::begin(edges), std::end(edges)))
                 : *rc::gen::arbitrary<uint64_t>();
    };
    uint64_t s[4] = {operand(), operand(), operand(), 0};
    RC_TAG(m);
    const arith::Resolved r = arith::resolve(m);
    RC_ASSERT(static_cast<bool>(r));
    const arith::fast::Form f = arith::fast::form_of(*r.desc);
    RC_ASSERT(f.op != arith::fast::Op::none);
    uint64_t aux = 0;
    RC_ASSERT(arith::fast::eval(f, s) == (*r.desc)(s, &aux));
  });
}
