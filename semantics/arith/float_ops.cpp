// IEEE floating-point instructions on f16, bf16, f32, f64 and the packed
// f16x2/bf16x2 forms: PTX ISA 9.7.3 (Floating-Point Instructions) and 9.7.4
// (Half Precision Floating-Point Instructions); section numbers as in the 7.8
// text (seeds/002), rounding and .ftz rules from PTX ISA 9.2 chapter 4-5. All rounding goes
// through softfloat.cpp, so every .rn/.rz/.rm/.rp result is exact.
#include <cstdint>

#include "semantics/arith/family.hpp"

namespace ptxcheck::arith {

bool is_nan_bits(const Fmt& f, uint64_t bits) { return unpack(f, bits, false).cls == Cls::nan; }

int64_t order_key(const Fmt& f, uint64_t bits) {
  uint64_t sign = uint64_t(1) << (f.width() - 1);
  auto mag = static_cast<int64_t>(bits & (sign - 1));
  return (bits & sign) != 0 ? -mag - 1 : mag;  // -0 orders just below +0
}

uint64_t sat01(const Fmt& f, uint64_t bits) {
  uint64_t sign = uint64_t(1) << (f.width() - 1);
  if (is_nan_bits(f, bits) || (bits & sign) != 0) return 0;
  uint64_t one = uint64_t(f.bias()) << (f.mbits + f.shift);
  return bits > one ? one : bits;
}

uint64_t finish(const Fmt& f, const Unp& r, uint32_t c) {
  uint32_t flags = ((c & cfg::kFtz) != 0 ? uint32_t(kFtz) : 0u) | ((c & cfg::kSatFin) != 0 ? uint32_t(kSatFinite) : 0u);
  uint64_t bits = pack_unp(f, r, cfg::round(c), flags);
  if ((c & cfg::kSat) != 0) return sat01(f, bits);
  if ((c & cfg::kRelu) != 0 && !is_nan_bits(f, bits) && (bits >> (f.width() - 1)) != 0) return 0;
  return bits;
}

namespace {


uint64_t flush(const Fmt& f, uint64_t bits, bool ftz) {
  if (ftz && is_subnormal_bits(f, bits)) return bits & (uint64_t(1) << (f.width() - 1));
  return bits;
}

Unp negate(Unp u) {
  u.sign = !u.sign;
  return u;
}

template <const Fmt& F>
struct K {
  static Unp in(uint64_t b, uint32_t c) { return unpack(F, b, (c & cfg::kFtz) != 0); }
  static uint64_t arith(const uint64_t* s, uint64_t*, uint64_t c) {
    Round rm = cfg::round(c);
    Unp r;
    switch (cfg::sub(c)) {
      case o_add: r = add_exact(in(s[0], c), in(s[1], c), rm); break;
      case o_sub: r = add_exact(in(s[0], c), negate(in(s[1], c)), rm); break;
      case o_mul: r = mul_exact(in(s[0], c), in(s[1], c)); break;
      case o_fma: r = add_exact(mul_exact(in(s[0], c), in(s[1], c)), in(s[2], c), rm); break;
      case o_div: r = div_jam(in(s[0], c), in(s[1], c)); break;
      case o_rcp: r = div_jam(Unp{Cls::finite, false, 0, 1}, in(s[0], c)); break;
      default: r = sqrt_jam(in(s[0], c)); break;
    }
    return finish(F, r, c);
  }
  // abs/neg (9.7.3.9-10, 9.7.4.6-7): sign-bit operations after the
  // optional flush. NaN inputs: PTX ISA 9.x 9.7.3.9 "For abs.f32, NaN input
  // yields unspecified NaN. For abs.f64, NaN input is passed through
  // unchanged"; 9.7.3.10 (neg) and 9.7.4.6-7 (half abs/neg) "NaN inputs
  // yield an unspecified NaN". Where unspecified ptxcheck gives what an
  // H200 gives (corpus/hw/h200/instr, docs/approx.md): the canonical NaN
  // for .f32/.f16/.bf16 (x2 lane by lane), and for neg.f64 the input NaN
  // quieted with its sign unchanged.
  static uint64_t absneg(const uint64_t* s, uint64_t*, uint64_t c) {
    uint64_t sign = uint64_t(1) << (F.width() - 1);
    uint64_t a = flush(F, s[0] & ((sign << 1) - 1), (c & cfg::kFtz) != 0);
    bool abs = cfg::sub(c) == o_abs;
    if (is_nan_bits(F, a)) {
      if (F.width() != 64) return canonical_nan(F);
      return abs ? a : a | (uint64_t(1) << 51);
    }
    return abs ? a & ~sign : a ^ sign;
  }
  // min/max (9.7.3.11-12): a NaN operand is ignored unless both are NaN or
  // .NaN is given (then canonical NaN); -0 < +0; .xorsign.abs compares
  // magnitudes and gives the result the xor of the input signs.
  static uint64_t minmax(const uint64_t* s, uint64_t*, uint64_t c) {
    bool ftz = (c & cfg::kFtz) != 0;
    uint64_t sign = uint64_t(1) << (F.width() - 1);
    uint64_t a = flush(F, s[0] & ((sign << 1) - 1), ftz), b = flush(F, s[1] & ((sign << 1) - 1), ftz);
    bool na = is_nan_bits(F, a), nb = is_nan_bits(F, b);
    bool mx = cfg::sub(c) == o_max, xs = (c & cfg::kXorsign) != 0;
    uint64_t r;
    if (na || nb) {
      if ((c & cfg::kNaN) != 0 || (na && nb)) return canonical_nan(F);
      r = na ? b : a;
      if (xs) r = (r & ~sign) | ((a ^ b) & sign);
    } else if (xs) {
      uint64_t ma = a & ~sign, mb = b & ~sign;
      r = (mx ? (ma > mb ? ma : mb) : (ma < mb ? ma : mb)) | ((a ^ b) & sign);
    } else {
      bool a_less = order_key(F, a) < order_key(F, b);
      r = (mx ? !a_less : a_less) ? a : b;
    }
    if ((c & cfg::kRelu) != 0 && (r & sign) != 0 && !is_nan_bits(F, r)) r = 0;
    return r;
  }
  // copysign (9.7.3.2): d = b with the sign of a.
  static uint64_t copysign(const uint64_t* s, uint64_t*, uint64_t) {
    uint64_t sign = uint64_t(1) << (F.width() - 1);
    return (s[1] & (sign - 1)) | (s[0] & sign);
  }
  // testp (9.7.3.1): classification of the raw bits.
  static uint64_t testp(const uint64_t* s, uint64_t*, uint64_t c) {
    uint64_t sign = uint64_t(1) << (F.width() - 1);
    uint64_t a = s[0] & ((sign << 1) - 1);
    Unp u = unpack(F, a, false);
    bool sub = is_subnormal_bits(F, a);
    switch (c >> cfg::kSubShift) {
      case 0: return u.cls == Cls::zero || u.cls == Cls::finite;  // finite
      case 1: return u.cls == Cls::inf;                           // infinite
      case 2: return u.cls != Cls::nan;                           // number
      case 3: return u.cls == Cls::nan;                           // notanumber
      // normal: PTX ISA 9.7.3.1 counts +0 and -0 as normal numbers
      case 4: return (u.cls == Cls::finite && !sub) || u.cls == Cls::zero;
      default: return sub;                                        // subnormal
    }
  }
};

// Applies a 16-bit lane kernel to both halves of f16x2/bf16x2 (9.7.4).
template <OpFn Lane>
uint64_t x2(const uint64_t* s, uint64_t* aux, uint64_t c) {
  uint64_t lo[4] = {s[0] & 0xffff, s[1] & 0xffff, s[2] & 0xffff, 0};
  uint64_t hi[4] = {(s[0] >> 16) & 0xffff, (s[1] >> 16) & 0xffff, (s[2] >> 16) & 0xffff, 0};
  return Lane(lo, aux, c) | (Lane(hi, aux, c) << 16);
}

struct Fns {
  OpFn arith, absneg, minmax, copysign, testp;
};
template <const Fmt& F>
constexpr Fns fns() {
  return {K<F>::arith, K<F>::absneg, K<F>::minmax, K<F>::copysign, K<F>::testp};
}
template <const Fmt& F>
constexpr Fns fns_x2() {
  return {x2<K<F>::arith>, x2<K<F>::absneg>, x2<K<F>::minmax>, nullptr, nullptr};
}

}  // namespace

uint64_t soft_f64_arith(const uint64_t* s, uint64_t* aux, uint64_t c) { return K<kF64>::arith(s, aux, c); }

fast::Form float_fast_form(const OpDesc& d) {
  const auto c = static_cast<uint32_t>(d.cfg);
  const uint32_t sub = cfg::sub(c);
  fast::Form f;
  if (d.dst != Ty::f32 && d.dst != Ty::f64) return f;
  const bool s = d.dst == Ty::f32;
  f.w = s ? 32 : 64;
  f.ftz = (c & cfg::kFtz) != 0;
  f.sat = (c & cfg::kSat) != 0;
  using O = fast::Op;
  // add/sub/mul/fma: only where resolve chose the host FPU kernel (.rn, no
  // .relu, probe passed).
  if (sub <= o_fma && d.fn != nullptr && d.fn == host_rn_kernel(d.dst, sub)) {
    static constexpr O k32[] = {O::add_f32, O::sub_f32, O::mul_f32, O::fma_f32};
    static constexpr O k64[] = {O::add_f64, O::sub_f64, O::mul_f64, O::fma_f64};
    f.op = s ? k32[sub] : k64[sub];
  } else if (d.fn == (s ? K<kF32>::minmax : K<kF64>::minmax) &&
             (c & (cfg::kNaN | cfg::kXorsign | cfg::kRelu)) == 0) {
    f.op = sub == o_max ? (s ? O::max_f32 : O::max_f64) : (s ? O::min_f32 : O::min_f64);
  } else if (d.fn == (s ? K<kF32>::absneg : K<kF64>::absneg)) {
    f.op = sub == o_abs ? (s ? O::abs_f32 : O::abs_f64) : (s ? O::neg_f32 : O::neg_f64);
  } else if (d.fn != nullptr && d.fn == host_rn_kernel(d.dst, o_div)) {
    // div.rn, and f32 div.full (approx.cpp): the host kernel reads only
    // .ftz and .sat of cfg, as the form does.
    f.op = s ? O::div_f32 : O::div_f64;
  } else if (d.fn != nullptr && d.fn == host_rn_kernel(d.dst, o_rcp)) {  // rcp.rn; f32 rcp.approx
    f.op = s ? O::rcp_f32 : O::rcp_f64;
  } else if (d.fn != nullptr && d.fn == host_rn_kernel(d.dst, o_sqrt)) {  // sqrt.rn; f32 sqrt.approx
    f.op = s ? O::sqrt_f32 : O::sqrt_f64;
  }
  return f;
}

Res resolve_float(const Parsed& p, OpDesc& d, std::string& err) {
  static const char* kOps[] = {"add", "sub", "mul", "fma", "mad", "div", "rcp", "sqrt", "abs", "neg",
                               "min", "max", "copysign", "testp"};
  bool mine = false;
  for (auto* o : kOps) mine = mine || p.op == o;
  if (!mine || p.types.size() != 1) return Res::not_mine;
  if (p.has("approx") || p.has("full")) return Res::not_mine;  // approx.cpp
  Ty t = p.types[0];
  Fns f;
  switch (t) {
    case Ty::f32: f = fns<kF32>(); break;
    case Ty::f64: f = fns<kF64>(); break;
    case Ty::f16: f = fns<kF16>(); break;
    case Ty::bf16: f = fns<kBF16>(); break;
    case Ty::f16x2: f = fns_x2<kF16>(); break;
    case Ty::bf16x2: f = fns_x2<kBF16>(); break;
    default: return Res::not_mine;
  }
  auto bad = [&](const std::string& m) { err = m; return Res::error; };
  const std::string& op = p.op;
  bool half = t == Ty::f16 || t == Ty::f16x2 || t == Ty::bf16 || t == Ty::bf16x2;
  bool bf = t == Ty::bf16 || t == Ty::bf16x2;
  Round rm = Round::rn;
  bool has_rm;
  if (!float_round(p, &rm, &has_rm)) return bad("more than one rounding modifier");
  uint32_t c = static_cast<uint32_t>(rm);
  std::string stray;
  auto flag = [&](const char* m, uint32_t bit) {
    if (p.has(m)) c |= bit;
  };
  flag("ftz", cfg::kFtz);
  flag("sat", cfg::kSat);
  flag("relu", cfg::kRelu);
  flag("NaN", cfg::kNaN);
  if (p.has("xorsign") != p.has("abs")) return bad(".xorsign and .abs go together");
  flag("xorsign", cfg::kXorsign);
  if (t == Ty::f64 && (c & (cfg::kFtz | cfg::kSat)) != 0 && op != "rcp" && op != "sqrt")
    return bad(".ftz/.sat not allowed for .f64");
  if (bf && (c & (cfg::kFtz | cfg::kSat)) != 0) return bad(".ftz/.sat not allowed for bf16");
  if (op == "add" || op == "sub" || op == "mul" || op == "fma" || op == "mad" || op == "div" ||
      op == "rcp" || op == "sqrt") {
    if (!p.only({"rn", "rz", "rm", "rp", "ftz", "sat", "relu"}, &stray)) return bad("modifier ." + stray + " not allowed");
    // fma/div/rcp/sqrt and (since sm_20) mad require a rounding modifier.
    bool needs_rm = op == "fma" || op == "mad" || op == "div" || op == "rcp" || op == "sqrt";
    if (needs_rm && !has_rm) return bad("rounding modifier required");
    if (half && (op == "div" || op == "rcp" || op == "sqrt" || op == "mad")) return bad("not defined for half types");
    if (half && rm != Round::rn) return bad("half-precision arithmetic rounds .rn only");
    if ((c & cfg::kRelu) != 0 && !(half && op == "fma")) return bad(".relu only with fma on half types");
    if ((c & cfg::kRelu) != 0 && (c & cfg::kSat) != 0) return bad(".relu with .sat");
    if ((op == "div" || op == "rcp" || op == "sqrt") && (c & cfg::kSat) != 0) return bad(".sat not allowed");
    uint32_t sub = op == "add" ? o_add : op == "sub" ? o_sub : op == "mul" ? o_mul : op == "div" ? o_div
                 : op == "rcp" ? o_rcp : op == "sqrt" ? o_sqrt : o_fma;
    if (t == Ty::f64 && (c & cfg::kFtz) != 0) return bad(".ftz not allowed for .f64");
    c |= sub << cfg::kSubShift;
    if (p.opts.host_fpu && rm == Round::rn && (c & cfg::kRelu) == 0 && (t == Ty::f32 || t == Ty::f64))
      if (OpFn h = host_rn_kernel(t, sub)) f.arith = h;
    if (p.opts.host_fpu && rm != Round::rn && t == Ty::f64)  // .rz/.rm/.rp add/sub/mul/div
      if (OpFn h = host_dir_kernel(t, sub)) f.arith = h;
    if (p.opts.host_fpu && half)
      if (OpFn h = host_half_kernel(t, sub)) f.arith = h;
    if (sub == o_fma) d = make_desc(f.arith, c, t, {t, t, t});
    else if (sub == o_rcp || sub == o_sqrt) d = make_desc(f.arith, c, t, {t});
    else d = make_desc(f.arith, c, t, {t, t});
    return Res::ok;
  }
  if (has_rm || (c & cfg::kSat) != 0) return bad("rounding/.sat not allowed");
  if (op == "abs" || op == "neg") {
    if (!p.only({"ftz"}, &stray)) return bad("modifier ." + stray + " not allowed");
    d = make_desc(f.absneg, c | ((op == "abs" ? o_abs : o_neg) << cfg::kSubShift), t, {t});
    return Res::ok;
  }
  if (op == "min" || op == "max") {
    if (!p.only({"ftz", "NaN", "xorsign", "abs", "relu"}, &stray)) return bad("modifier ." + stray + " not allowed");
    if (t == Ty::f64 && (c & (cfg::kNaN | cfg::kXorsign | cfg::kRelu)) != 0) return bad("not allowed for .f64");
    if ((c & cfg::kRelu) != 0) return bad(".relu not defined for float min/max");
    d = make_desc(f.minmax, c | ((op == "min" ? o_min : o_max) << cfg::kSubShift), t, {t, t});
    return Res::ok;
  }
  if (half) return bad("not defined for half types");
  if (op == "copysign") {
    if (!p.mods.empty()) return bad("no modifiers allowed");
    d = make_desc(f.copysign, 0, t, {t, t});
    return Res::ok;
  }
  static const char* kCls[] = {"finite", "infinite", "number", "notanumber", "normal", "subnormal"};
  if (p.mods.size() != 1) return bad("needs one class");
  for (uint32_t i = 0; i < 6; ++i)
    if (p.mods[0] == kCls[i]) {
      d = make_desc(f.testp, i << cfg::kSubShift, Ty::pred, {t});
      return Res::ok;
    }
  return bad("unknown class ." + p.mods[0]);
}

}  // namespace ptxcheck::arith
