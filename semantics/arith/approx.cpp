// .approx and .full instructions: rcp sqrt rsqrt sin cos lg2 ex2 tanh div
// (PTX ISA 9.7.3.8 div, 9.7.3.13-22, 9.7.4.9-10). Bounds and special rules
// from the PTX ISA 9.x "Notes" of each instruction,
// https://docs.nvidia.com/cuda/parallel-thread-execution/#floating-point-instructions-<name>
// and #half-precision-floating-point-instructions-<name> (read in public
// markdown copies of those pages; the seeds lack the instruction chapter).
// The spec only bounds their error; ptxcheck returns one documented
// deterministic value (the exact function rounded to nearest; see
// docs/approx.md) and reports the spec's bound in OpDesc::bound for the
// check mode within_approx_bound() below (tests: tests/semantics/approx_check.cpp).
#include <cmath>
#include <cstdint>
#include <cstring>

#include "semantics/arith/family.hpp"

namespace ptxcheck::arith {
namespace {

enum Fn : uint32_t { a_rcp, a_sqrt, a_rsqrt, a_sin, a_cos, a_lg2, a_ex2, a_tanh, a_div };

constexpr uint32_t kFull = 1u << 9;  // div.full (cfg bit 9)

// The upper word of an f64 in 1.11.20 format (rcp/rsqrt.approx.ftz.f64).
constexpr Fmt kF64Hi{11, 20, true, false, true, 32};

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

// The function in long double (64-bit mantissa), deterministic for the IEEE
// operations (div, sqrt) and libm-dependent for the others. Both the default
// value and the check mode's reference (within_approx_bound) come from here.
long double eval(uint32_t fn, long double x, long double y) {
  switch (fn) {
    case a_rcp: return 1.0L / x;
    case a_sqrt: return std::sqrt(x);
    case a_rsqrt: return 1.0L / std::sqrt(x);
    case a_sin: return std::sin(x);
    case a_cos: return std::cos(x);
    case a_lg2: return std::log2(x);
    case a_ex2: return std::exp2(x);
    case a_tanh: return std::tanh(x);
    default: return x / y;
  }
}

template <const Fmt& F>
uint64_t approx_fn(const uint64_t* s, uint64_t*, uint64_t c) {
  bool ftz = (c & cfg::kFtz) != 0;
  uint32_t fn = cfg::sub(c);
  Unp a = unpack(F, s[0], ftz);
  if (fn == a_div && (c & kFull) == 0 && &F == &kF32) {
    // 9.7.3.8: "For 2^126 < |b| < 2^128, if a is infinity, div.approx.f32
    // returns NaN, otherwise it returns a sign-preserving zero."
    Unp b = unpack(F, s[1], ftz);
    if (b.cls == Cls::finite) {
      auto m = static_cast<uint64_t>(b.mant);
      int top = b.exp + 63 - __builtin_clzll(m);
      if (top > 126 || (top == 126 && (m & (m - 1)) != 0))
        return a.cls == Cls::inf || a.cls == Cls::nan ? canonical_nan(F) : zero_bits(F, a.sign != b.sign);
    }
  }
  if (fn == a_rcp || fn == a_div || fn == a_sqrt) {  // exactly rounded via softfloat
    Unp r = fn == a_sqrt ? sqrt_jam(a)
          : fn == a_rcp  ? div_jam(Unp{Cls::finite, false, 0, 1}, a)
                         : div_jam(a, unpack(F, s[1], ftz));
    return finish(F, r, c);
  }
  long double y = fn == a_div ? to_ld(unpack(F, s[1], ftz)) : 0;
  return finish(F, from_ld(eval(fn, to_ld(a), y)), c);
}

// div.approx.f32 on the host FPU: for 2^126 < |b| < 2^128 (the special
// rule of 9.7.3.8) approx_fn itself, otherwise the exactly rounded quotient,
// which approx_fn computes in software and host_fast.cpp's div.rn kernel
// gives with the same .ftz (resolve_approx uses this only when the host
// probe passed).
uint64_t approx_div_host(const uint64_t* s, uint64_t* aux, uint64_t c) {
  const uint64_t mb = s[1] & 0x7fffffffu;
  if (mb > 0x7e800000u && mb < 0x7f800000u) return approx_fn<kF32>(s, aux, c);
  static const OpFn host = host_rn_kernel(Ty::f32, o_div);
  return host(s, aux, c);
}

// ex2/lg2/rsqrt.approx.f32 on the host FPU, with approx_fn's value: the
// long double function value v (exp2l, log2l, 1/sqrtl) rounded once to f32
// (rn, then .ftz), only computed faster. The same function in double, d,
// is within 2^-51 of the exact value relative to it (glibc's exp2/log2: 1
// ulp; 1.0 / sqrt: two correctly rounded steps), and v within 2^-62
// (1 ulp of long double); so v lies in the interval of the 4096 doubles on
// either side of d (at least 2^-41 relative). When both ends of that
// interval round to the same f32, v rounds to it too (rounding is
// monotonic); otherwise (about one input in 2^16) approx_fn computes v.
// Used only when host_fast.cpp's probe passed (the double -> float
// conversion rounds to nearest even, subnormals included).
template <uint32_t Fn>
uint64_t approx_host(const uint64_t* s, uint64_t* aux, uint64_t c) {
  uint32_t u = static_cast<uint32_t>(s[0]);
  const bool ftz = (c & cfg::kFtz) != 0;
  if (ftz && (u & 0x7f800000u) == 0) u &= 0x80000000u;
  float x;
  std::memcpy(&x, &u, sizeof x);
  // Zeros, infinities, NaNs and negative inputs of lg2/rsqrt: approx_fn's
  // special values.
  if ((u & 0x7f800000u) == 0x7f800000u || (Fn != a_ex2 && (u & 0x7fffffffu) == 0) ||
      (Fn != a_ex2 && (u >> 31) != 0))
    return approx_fn<kF32>(s, aux, c);
  double d;
  if constexpr (Fn == a_ex2) {
    // exp2 of an f32 >= 128 overflows (v >= 2^128), below -160 it is
    // below 2^-160: +0 (v's nearest f32).
    if (x >= 128.0f) return 0x7f800000u;
    if (x < -160.0f) return 0;
    d = std::exp2(static_cast<double>(x));
  } else if constexpr (Fn == a_lg2) {
    d = std::log2(static_cast<double>(x));
    if (d == 0) return 0;  // x == 1: log2l gives +0
  } else {
    d = 1.0 / std::sqrt(static_cast<double>(x));
  }
  uint64_t db;
  std::memcpy(&db, &d, sizeof db);
  const uint64_t lo_b = db - 4096, hi_b = db + 4096;  // |d| >= 2^-160: no sign or exponent wrap
  double lo, hi;
  std::memcpy(&lo, &lo_b, sizeof lo);
  std::memcpy(&hi, &hi_b, sizeof hi);
  const float rl = static_cast<float>(lo), rh = static_cast<float>(hi);
  uint32_t r, r2;
  std::memcpy(&r, &rl, sizeof r);
  std::memcpy(&r2, &rh, sizeof r2);
  if (r != r2) return approx_fn<kF32>(s, aux, c);
  if (ftz && (r & 0x7f800000u) == 0) r &= 0x80000000u;  // tininess after rounding (docs/approx.md)
  return r;
}

// rcp/rsqrt.approx.ftz.f64 (9.7.3.14, 9.7.3.17): "tmp = a[63:32]; // upper
// word of a, 1.11.20 format; d[63:32] = 1.0 / tmp (1.0 / sqrt(tmp));
// d[31:0] = 0". Subnormal inputs and results flush to sign-preserving zero;
// input NaNs map to 0x7fffffff00000000. ptxcheck's value: the exact result
// rounded to nearest in 1.11.20.
uint64_t approx_f64_hi(const uint64_t* s, uint64_t*, uint64_t c) {
  Unp a = unpack(kF64, s[0] & 0xffffffff00000000ull, true);
  Unp r = cfg::sub(c) == a_rcp ? div_jam(Unp{Cls::finite, false, 0, 1}, a)
                               : (a.cls == Cls::finite && !a.sign ? from_ld(1.0L / std::sqrt(to_ld(a)))
                                  : a.cls == Cls::zero ? Unp{Cls::inf, a.sign, 0, 0}
                                  : a.cls == Cls::inf && !a.sign ? Unp{Cls::zero, false, 0, 0}
                                  : Unp{Cls::nan, false, 0, 0});
  if (r.cls == Cls::nan) return 0x7fffffff00000000ull;
  return pack_unp(kF64Hi, r, Round::rn, kFtz);
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
    case ErrBound::none: return true;
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

namespace {

// The bound that applies to input x (and y for div), from the ISA notes.
ErrBound bound_for(const ErrBound& b0, uint32_t fn, long double x, long double y, bool full) {
  ErrBound b = b0;
  long double ax = std::fabs(x);
  const long double pi = 3.141592653589793238462643383279502884L;
  switch (fn) {
    case a_sin: case a_cos:  // 9.7.3.18-19: [-2pi, 2pi] 2^-20.5; [-100pi, 100pi] 2^-14.7; beyond none
      if (ax > 100 * pi) b = {ErrBound::none};
      else if (ax > 2 * pi) b.value = std::exp2(-14.7);
      break;
    case a_lg2:  // 9.7.3.20: absolute 2^-22 on (0.5, 2), relative 2^-22 elsewhere
      if (!(x > 0.5L && x < 2.0L)) b.kind = ErrBound::rel;
      break;
    case a_div:  // 9.7.3.8: div.approx bounded for |b| in [2^-126, 2^126]; above, a fixed result
      if (!full && std::fabs(y) > std::ldexp(1.0L, 126)) b = {ErrBound::exact};
      else if (!full && std::fabs(y) < std::ldexp(1.0L, -126)) b = {ErrBound::none};
      break;
    default: break;
  }
  b.fn = b0.fn;
  return b;
}

// One lane: got against the exact value of fn at the (flushed) inputs.
bool lane_ok(const ErrBound& b0, uint32_t fn, const Fmt& f, bool ftz, bool full, uint64_t xa, uint64_t xb,
             uint64_t ref, uint64_t got) {
  Unp ua = unpack(f, xa, ftz), ub = unpack(f, xb, ftz), g = unpack(f, got, false), r = unpack(f, ref, false);
  if (ftz && is_subnormal_bits(f, got)) return false;  // results are flushed
  if (r.cls == Cls::nan || g.cls == Cls::nan) return r.cls == g.cls;
  // The correctly rounded value is always allowed, also where rounding
  // itself exceeds a relative bound (overflow to infinity, underflow to 0).
  if (got == ref) return true;
  long double x = to_ld(ua), y = to_ld(ub), e = eval(fn, x, y);
  ErrBound b = bound_for(b0, fn, x, y, full);
  // The ISA's special-value tables (zero, infinity, NaN inputs): bit for bit.
  if (ua.cls != Cls::finite || (fn == a_div && ub.cls != Cls::finite)) return got == ref;
  if (ftz && g.cls == Cls::zero && std::fabs(e) < std::ldexp(1.0L, f.emin()))
    return g.sign == std::signbit(e);  // a tiny result may flush
  switch (b.kind) {
    case ErrBound::none: return g.cls == Cls::finite || g.cls == Cls::zero || g.cls == Cls::inf;
    case ErrBound::exact: return got == ref;
    case ErrBound::ulp: case ErrBound::abs_or_ulp: {
      long long dist = std::llabs(order_key(f, got) - order_key(f, ref));
      if (b.kind == ErrBound::ulp) return dist <= static_cast<long long>(b.value);
      if (dist <= static_cast<long long>(b.value2)) return true;
      [[fallthrough]];
    }
    case ErrBound::abs: return g.cls != Cls::inf && std::fabs(to_ld(g) - e) <= b.value;
    case ErrBound::rel: return g.cls != Cls::inf && std::fabs(to_ld(g) - e) <= b.value * std::fabs(e);
  }
  return false;
}

}  // namespace

bool within_approx_bound(const OpDesc& d, const uint64_t* src, uint64_t got) {
  uint64_t ref = d(src, nullptr);
  if (d.bound.fn == 0 || d.bound.kind == ErrBound::exact) return got == ref;
  uint32_t fn = d.bound.fn - 1u;
  bool ftz = (d.cfg & cfg::kFtz) != 0, full = (d.cfg & kFull) != 0;
  if (d.dst == Ty::f64 && ftz) {  // rcp/rsqrt.approx.ftz.f64: upper word, low word zero
    if ((got & 0xffffffffu) != 0) return false;
    if (ref == 0x7fffffff00000000ull) return is_nan_bits(kF64, got);
    Unp g = unpack(kF64, got, false), r = unpack(kF64, ref, false);
    if (r.cls != Cls::finite || g.cls != Cls::finite) return got == ref;
    return g.sign == r.sign;  // no bound stated: any finite value of the right sign
  }
  unsigned lanes;
  const Fmt* f = lane_fmt(d.dst, &lanes);
  unsigned w = f->width();
  uint64_t m = w >= 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1;
  for (unsigned i = 0; i < lanes; ++i) {
    uint64_t xa = (src[0] >> (w * i)) & m, xb = d.nsrc > 1 ? (src[1] >> (w * i)) & m : 0;
    if (!lane_ok(d.bound, fn, *f, ftz, full, xa, xb, (ref >> (w * i)) & m, (got >> (w * i)) & m)) return false;
  }
  return true;
}

// div.approx.f32 where resolve_approx chose approx_div_host: the inline
// form (fast.hpp div_approx_f32) with its .ftz.
fast::Form approx_fast_form(const OpDesc& d) {
  fast::Form f;
  if (d.fn != approx_div_host) return f;
  f.op = fast::Op::div_approx_f32;
  f.w = 32;
  f.ftz = (d.cfg & cfg::kFtz) != 0;
  return f;
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
  uint32_t c = static_cast<uint32_t>(Round::rn) | (ftz ? cfg::kFtz : 0) | (full ? kFull : 0) |
               (fn << cfg::kSubShift);
  OpFn f = nullptr;
  ErrBound b;
  // Bounds from the "Notes" of each instruction in PTX ISA 9.x (header URL);
  // input-dependent ones are refined in bound_for() below.
  switch (t) {
    case Ty::f32:
      f = approx_fn<kF32>;
      switch (fn) {
        case a_rcp: b = {ErrBound::ulp, 1}; break;  // 9.7.3.13: "maximum ulp error is 1 across the full range"
        case a_sqrt: b = {ErrBound::rel, std::ldexp(1.0, -23)}; break;  // 9.7.3.15: relative 2^-23
        case a_rsqrt: b = {ErrBound::rel, std::exp2(-22.9)}; break;     // 9.7.3.16: relative 2^-22.9
        case a_sin: case a_cos: b = {ErrBound::abs, std::exp2(-20.5)}; break;  // 9.7.3.18-19, |a| <= 2pi
        case a_lg2: b = {ErrBound::abs, std::ldexp(1.0, -22)}; break;   // 9.7.3.20, a in (0.5, 2)
        case a_ex2: b = {ErrBound::ulp, 2}; break;  // 9.7.3.21: "2 ulp from correctly rounded result"
        case a_tanh: b = {ErrBound::rel, std::ldexp(1.0, -11)}; break;  // 9.7.3.22: relative 2^-11
        default: b = {ErrBound::ulp, 2}; break;     // 9.7.3.8: div.approx (|b| in [2^-126, 2^126]), div.full
      }
      break;
    case Ty::f64:
      if (fn != a_rcp && fn != a_rsqrt) return bad("no .approx form for .f64");
      if (fn == a_rcp && !ftz) return bad("rcp.approx.f64 needs .ftz");
      // 9.7.3.14/17: "fast, gross approximation" on the upper word; 9.7.3.16:
      // rsqrt.approx.f64 "is emulated in software". No bound is stated.
      f = ftz ? approx_f64_hi : approx_fn<kF64>;
      b = {ErrBound::none};
      break;
    case Ty::f16: case Ty::f16x2: case Ty::bf16: case Ty::bf16x2: {
      if (fn != a_ex2 && fn != a_tanh) return bad("only ex2/tanh have half forms");
      bool bf = t == Ty::bf16 || t == Ty::bf16x2;
      bool x = t == Ty::f16x2 || t == Ty::bf16x2;
      if (ftz && !bf) return bad(".ftz not allowed for f16 ex2/tanh");
      if (bf && fn == a_ex2 && !ftz) return bad("ex2.approx on bf16 requires .ftz");
      f = bf ? (x ? x2<approx_fn<kBF16>> : approx_fn<kBF16>) : (x ? x2<approx_fn<kF16>> : approx_fn<kF16>);
      if (fn == a_ex2)  // 9.7.4.10: relative 2^-9.9 (f16), 2^-7 (bf16)
        b = {ErrBound::rel, bf ? std::ldexp(1.0, -7) : std::exp2(-9.9)};
      else  // 9.7.4.9: absolute 2^-10.987 (f16), 2^-8 (bf16)
        b = {ErrBound::abs, bf ? std::ldexp(1.0, -8) : std::exp2(-10.987)};
      break;
    }
    default: return bad("unsupported type");
  }
  // f32 rcp/sqrt.approx and div.approx/.full: approx_fn returns the exactly
  // rounded result (div_jam/sqrt_jam, then finish with rn and the .ftz bit),
  // as rcp/sqrt/div.rn do; with the host probe passed, their host kernel
  // (host_fast.cpp, which reads only .ftz and .sat of cfg) gives the same bits.
  if (t == Ty::f32 && p.opts.host_fpu && (fn == a_rcp || fn == a_sqrt || fn == a_div))
    if (OpFn h = host_rn_kernel(Ty::f32, fn == a_rcp ? o_rcp : fn == a_sqrt ? o_sqrt : o_div))
      f = fn == a_div && !full ? approx_div_host : h;
  // ex2/lg2/rsqrt.approx.f32: approx_fn's value, through double (approx_host).
  if (t == Ty::f32 && p.opts.host_fpu && (fn == a_ex2 || fn == a_lg2 || fn == a_rsqrt) &&
      host_rn_kernel(Ty::f32, o_add) != nullptr)
    f = fn == a_ex2 ? approx_host<a_ex2> : fn == a_lg2 ? approx_host<a_lg2> : approx_host<a_rsqrt>;
  b.fn = static_cast<uint8_t>(fn + 1);
  if (t == Ty::f32 && fn != a_rcp && fn != a_sqrt && fn != a_div && fn != a_rsqrt && fn != a_tanh &&
      !approx)
    return bad(".approx required");
  d = fn == a_div ? make_desc(f, c, t, {t, t}) : make_desc(f, c, t, {t});
  d.bound = b;
  return Res::ok;
}

}  // namespace ptxcheck::arith
