// .approx and .full instructions: rcp sqrt rsqrt sin cos lg2 ex2 tanh div
// (PTX ISA 9.7.3.8 div, 9.7.3.13-22, 9.7.4.9-10; 7.8 numbering, seeds/002).
// The spec only bounds their error; ptxcheck returns one documented deterministic value (the exact
// function rounded to nearest; see docs/approx.md) and reports the spec's
// bound in OpDesc::bound so a check mode can accept any value within it.
#include <cmath>
#include <cstdint>

#include "semantics/arith/family.hpp"

namespace ptxcheck::arith {
namespace {

enum Fn : uint32_t { a_rcp, a_sqrt, a_rsqrt, a_sin, a_cos, a_lg2, a_ex2, a_tanh, a_div };

// The exact value of a finite long double as an Unp (64-bit mantissa).
Unp from_ld(long double x) {
  if (std::isnan(x)) return {Cls::nan, false, 0, 0};
  bool s = std::signbit(x);
  if (std::isinf(x)) return {Cls::inf, s, 0, 0};
  if (x == 0) return {Cls::zero, s, 0, 0};
  int e;
  long double m = std::frexp(std::fabs(x), &e);  // [0.5, 1)
  auto mant = static_cast<uint64_t>(std::ldexp(m, 64));
  return {Cls::finite, s, e - 64, mant};
}

long double to_ld(const Unp& u) {
  switch (u.cls) {
    case Cls::nan: return NAN;
    case Cls::inf: return u.sign ? -INFINITY : INFINITY;
    case Cls::zero: return u.sign ? -0.0L : 0.0L;
    case Cls::finite: break;
  }
  // Mantissas of unpacked format values have at most 53 bits: exact.
  long double v = std::ldexp(static_cast<long double>(static_cast<uint64_t>(u.mant)), u.exp);
  return u.sign ? -v : v;
}

// The function in double precision (long double for f64), deterministic
// for the IEEE operations (div, sqrt) and libm-dependent for the others.
long double eval(uint32_t fn, long double x, long double y) {
  switch (fn) {
    case a_rcp: return 1.0L / x;
    case a_sqrt: return std::sqrt(x);
    case a_rsqrt: return 1.0L / std::sqrt(x);
    case a_sin: return std::sin(static_cast<double>(x));
    case a_cos: return std::cos(static_cast<double>(x));
    case a_lg2: return std::log2(static_cast<double>(x));
    case a_ex2: return std::exp2(static_cast<double>(x));
    case a_tanh: return std::tanh(static_cast<double>(x));
    default: return x / y;
  }
}

template <const Fmt& F>
uint64_t approx_fn(const uint64_t* s, uint64_t*, uint64_t c) {
  bool ftz = (c & cfg::kFtz) != 0;
  uint32_t fn = cfg::sub(c);
  Unp a = unpack(F, s[0], ftz);
  if (fn == a_rcp || fn == a_div || fn == a_sqrt) {  // exactly rounded via softfloat
    Unp r = fn == a_sqrt ? sqrt_jam(a)
          : fn == a_rcp  ? div_jam(Unp{Cls::finite, false, 0, 1}, a)
                         : div_jam(a, unpack(F, s[1], ftz));
    return finish(F, r, c);
  }
  long double y = fn == a_div ? to_ld(unpack(F, s[1], ftz)) : 0;
  return finish(F, from_ld(eval(fn, to_ld(a), y)), c);
}

template <OpFn Lane>
uint64_t x2(const uint64_t* s, uint64_t* aux, uint64_t c) {
  uint64_t lo[4] = {s[0] & 0xffff, s[1] & 0xffff, 0, 0};
  uint64_t hi[4] = {(s[0] >> 16) & 0xffff, (s[1] >> 16) & 0xffff, 0, 0};
  return Lane(lo, aux, c) | (Lane(hi, aux, c) << 16);
}

const Fmt* lane_fmt(Ty t, unsigned* lanes) {
  *lanes = 1;
  switch (t) {
    case Ty::f32: return &kF32;
    case Ty::f64: return &kF64;
    case Ty::f16: return &kF16;
    case Ty::bf16: return &kBF16;
    case Ty::f16x2: *lanes = 2; return &kF16;
    case Ty::bf16x2: *lanes = 2; return &kBF16;
    default: return nullptr;
  }
}

bool lane_within(const ErrBound& b, const Fmt& f, uint64_t got, uint64_t ref) {
  if (got == ref) return true;
  Unp g = unpack(f, got, false), r = unpack(f, ref, false);
  if (g.cls == Cls::nan || r.cls == Cls::nan) return g.cls == r.cls;
  if (g.cls == Cls::inf || r.cls == Cls::inf) return false;  // infinities must match
  long double gv = to_ld(g), rv = to_ld(r), err = std::fabs(gv - rv);
  auto ulps = [&] { return std::llabs(order_key(f, got) - order_key(f, ref)); };
  switch (b.kind) {
    case ErrBound::exact: return false;
    case ErrBound::ulp: return ulps() <= static_cast<long long>(b.value);
    case ErrBound::abs: return err <= b.value;
    case ErrBound::rel: return err <= b.value * std::fabs(rv);
    case ErrBound::abs_or_ulp: return err <= b.value || ulps() <= static_cast<long long>(b.value2);
  }
  return false;
}

}  // namespace

bool within_bound(const OpDesc& d, uint64_t got, uint64_t ref) {
  unsigned lanes;
  const Fmt* f = lane_fmt(d.dst, &lanes);
  if (f == nullptr || d.bound.kind == ErrBound::exact) return got == ref;
  unsigned w = f->width();
  uint64_t m = w >= 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1;
  for (unsigned i = 0; i < lanes; ++i)
    if (!lane_within(d.bound, *f, (got >> (w * i)) & m, (ref >> (w * i)) & m)) return false;
  return true;
}

Res resolve_approx(const Parsed& p, OpDesc& d, std::string& err) {
  static const char* kOps[] = {"rcp", "sqrt", "rsqrt", "sin", "cos", "lg2", "ex2", "tanh", "div"};
  uint32_t fn = 99;
  for (uint32_t i = 0; i < 9; ++i)
    if (p.op == kOps[i]) fn = i;
  if (fn == 99 || p.types.size() != 1) return Res::not_mine;
  bool approx = p.has("approx"), full = p.has("full");
  if (!approx && !full) {
    if (fn == a_rcp || fn == a_sqrt || fn == a_div) return Res::not_mine;  // IEEE forms
    err = ".approx required";
    return Res::error;
  }
  auto bad = [&](const std::string& m) { err = m; return Res::error; };
  std::string stray;
  if (!p.only({"approx", "full", "ftz"}, &stray)) return bad("modifier ." + stray + " not allowed");
  if (full && fn != a_div) return bad(".full only with div");
  if (full && approx) return bad(".approx and .full exclude each other");
  if (fn == a_tanh && p.has("ftz")) return bad("tanh.approx takes no .ftz");
  Ty t = p.types[0];
  bool ftz = p.has("ftz");
  uint32_t c = static_cast<uint32_t>(Round::rn) | (ftz ? cfg::kFtz : 0) | (fn << cfg::kSubShift);
  OpFn f = nullptr;
  ErrBound b;
  // Bounds: PTX ISA 9.2 section of each instruction, "Notes"/accuracy text.
  switch (t) {
    case Ty::f32:
      f = approx_fn<kF32>;
      switch (fn) {
        case a_rcp: b = {ErrBound::ulp, 1}; break;                           // 9.7.3.13
        case a_sqrt: b = {ErrBound::rel, std::ldexp(1.0, -23)}; break;    // 9.7.3.15
        case a_rsqrt: b = {ErrBound::rel, std::exp2(-22.9)}; break;       // 9.7.3.16
        case a_sin: case a_cos: b = {ErrBound::abs, std::exp2(-20.5)}; break;  // 9.7.3.18-19
        case a_lg2: b = {ErrBound::abs_or_ulp, std::exp2(-22.6), 2}; break;  // 9.7.3.20
        case a_ex2: b = {ErrBound::ulp, 2}; break;              // 9.7.3.21
        case a_tanh: b = {ErrBound::rel, std::exp2(-10.987)}; break;     // 9.7.3.22
        default: b = {ErrBound::ulp, 2}; break;                 // 9.7.3.8 div
      }
      break;
    case Ty::f64:
      if (fn != a_rcp && fn != a_rsqrt) return bad("no .approx form for .f64");
      if (fn == a_rcp && !ftz) return bad("rcp.approx.f64 needs .ftz");
      f = approx_fn<kF64>;
      b = {ErrBound::rel, std::ldexp(1.0, -22)};  // ~23-bit seed accuracy (9.7.3.14, 9.7.3.17)
      break;
    case Ty::f16: case Ty::f16x2: case Ty::bf16: case Ty::bf16x2: {
      if (fn != a_ex2 && fn != a_tanh) return bad("only ex2/tanh have half forms");
      bool bf = t == Ty::bf16 || t == Ty::bf16x2;
      bool x = t == Ty::f16x2 || t == Ty::bf16x2;
      if (ftz && !bf) return bad(".ftz not allowed for f16 ex2/tanh");
      if (bf && fn == a_ex2 && !ftz) return bad("ex2.approx on bf16 requires .ftz");
      f = bf ? (x ? x2<approx_fn<kBF16>> : approx_fn<kBF16>) : (x ? x2<approx_fn<kF16>> : approx_fn<kF16>);
      b = {ErrBound::rel, bf ? std::exp2(-7.0) : std::exp2(-9.9)};  // 9.7.4.9-10
      break;
    }
    default: return bad("unsupported type");
  }
  if (t == Ty::f32 && fn != a_rcp && fn != a_sqrt && fn != a_div && fn != a_rsqrt && fn != a_tanh &&
      !approx)
    return bad(".approx required");
  d = fn == a_div ? make_desc(f, c, t, {t, t}) : make_desc(f, c, t, {t});
  d.bound = b;
  return Res::ok;
}

}  // namespace ptxcheck::arith
