// cvt to and from the narrow float formats of PTX 8.6+ (e2m1x2, e2m3x2,
// e3m2x2, ue8m0x2) and stochastic rounding .rs (PTX 8.7), PTX ISA 9.2
// 9.7.9.21 cvt. Source text (PTX ISA 9.1+ cvt page; the seeds carry only
// chapters 1-8): https://docs.nvidia.com/cuda/parallel-thread-execution/#data-movement-and-conversion-instructions-cvt
// as mirrored in public markdown copies of that page; rounding modifiers
// from PTX ISA 9.2 6.5.2 Table 17 (seeds/000). Rules used here:
// * f32 -> e2m1x2/e2m3x2/e3m2x2 (cvt.rn.satfinite{.relu}, a in the upper lane;
//   .f16x2/.bf16x2 sources since PTX 9.1, upper half to the upper lane): ".satfinite:
//   ... For .e2m1x2, .e2m3x2, .e3m2x2 ... NaN results are converted to
//   positive MAX_NORM. If the absolute value of input is greater than
//   MAX_NORM ... the result is sign-preserved MAX_NORM". e2m3/e3m2 lanes are
//   bytes with the 2 MSBs zero.
// * e2m1x2/e2m3x2/e3m2x2 -> f16x2 (cvt.rn{.relu}), and -> bf16x2 (PTX ISA
//   9.2 1.3, assumed to take the same .rn{.relu} form): exact; .relu clamps
//   negative results (including -0) to +0. The 2 MSBs of a 6-bit lane byte
//   "are 0"; other values are outside the spec and ignored here.
// * f32/bf16x2 -> ue8m0x2 (cvt.rz|.rp{.satfinite}): value 2^(code-127), no
//   sign, no zero, NaN is 0xff. The sign of the input is ignored ("ignoring
//   sign"); .rz gives the largest power of two <= |x|, .rp the smallest
//   >= |x|, both at least 2^-127 (code 0, also the result for zero). NaN ->
//   0xff; a result above 2^127 (and infinity) -> 0xff, or the positive
//   MAX_NORM 0xfe with .satfinite. This matches NVIDIA's host emulation
//   __nv_cvt_bfloat16raw_to_e8m0 in CUDA 13 cuda_fp8.hpp.
// * ue8m0x2 -> bf16x2 (cvt.rn): exact; code 0 is the bf16 subnormal 2^-127
//   (0x0040), 0xff the canonical NaN 0x7fff.
// * cvt.rs{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b, rbits: ".rs rounds
//   either towards zero or away from zero based on the carry out of the
//   integer addition of random bits and the discarded bits of mantissa".
//   rbits[31:16] serve a, rbits[15:0] serve b; for f16 only the 13 LSBs of
//   each half are used (f32 -> f16 discards 13 mantissa bits, f32 -> bf16
//   16). Where a subnormal f16 result discards more than 13 bits, ptxcheck
//   adds the random bits to the 13 most significant discarded bits (the
//   carry is the same as adding them, scaled, to the whole discarded
//   fraction). |a| > MAX_NORM gives +-infinity, or +-MAX_NORM with
//   .satfinite; NaN gives the canonical NaN; .relu clamps negatives to +0.
//   (Our reading where the text is silent; docs/approx.md lists it.)
#include <cstdint>

#include "semantics/arith/family.hpp"
#include "semantics/arith/intutil.hpp"

namespace ptxcheck::arith {
namespace {

int msb128(u128 x) {
  auto hi = static_cast<uint64_t>(x >> 64);
  if (hi != 0) return 127 - __builtin_clzll(hi);
  return 63 - __builtin_clzll(static_cast<uint64_t>(x));
}

// cfg: bits 0-8 as cfg:: (round, relu, satfinite), bits 16-20 destination
// Ty, bits 21-25 source Ty (same layout as cvt.cpp).
Ty dty(uint64_t c) { return static_cast<Ty>((c >> 16) & 0x1f); }
Ty sty(uint64_t c) { return static_cast<Ty>((c >> 21) & 0x1f); }

const Fmt& narrow_fmt(Ty t) {
  switch (t) {
    case Ty::e2m1x2: return kE2M1;
    case Ty::e2m3x2: return kE2M3;
    default: return kE3M2;
  }
}
unsigned lane_bits(Ty t) { return t == Ty::e2m1x2 ? 4 : 8; }

// One value to e2m1/e2m3/e3m2 with .rn.satfinite{.relu}.
uint64_t to_narrow(const Fmt& f, const Unp& u, uint64_t c) {
  if (u.cls == Cls::nan) return max_finite(f, false);
  if ((c & cfg::kRelu) != 0 && u.sign) return 0;
  return pack_unp(f, u, Round::rn, kSatFinite);
}

uint64_t narrow_from_f32(const uint64_t* s, uint64_t*, uint64_t c) {
  const Fmt& f = narrow_fmt(dty(c));
  unsigned lw = lane_bits(dty(c));
  return (to_narrow(f, unpack(kF32, s[0], false), c) << lw) | to_narrow(f, unpack(kF32, s[1], false), c);
}

// From .f16x2 or .bf16x2 (PTX 9.1): the upper half goes to the upper lane.
uint64_t narrow_from_x2(const uint64_t* s, uint64_t*, uint64_t c) {
  const Fmt& f = narrow_fmt(dty(c));
  const Fmt& h = sty(c) == Ty::bf16x2 ? kBF16 : kF16;
  unsigned lw = lane_bits(dty(c));
  uint64_t hi = to_narrow(f, unpack(h, (s[0] >> 16) & 0xffff, false), c);
  return (hi << lw) | to_narrow(f, unpack(h, s[0] & 0xffff, false), c);
}

// To .f16x2, or .bf16x2 (PTX 9.2); exact in both.
uint64_t x2_from_narrow(const uint64_t* s, uint64_t*, uint64_t c) {
  const Fmt& f = narrow_fmt(sty(c));
  const Fmt& h = dty(c) == Ty::bf16x2 ? kBF16 : kF16;
  unsigned lw = lane_bits(sty(c));
  uint64_t r = 0;
  for (unsigned i = 0; i < 2; ++i) {
    Unp u = unpack(f, (s[0] >> (lw * i)) & mask(f.width()), false);
    r |= finish(h, u, c) << (16 * i);
  }
  return r;
}

// One value to ue8m0 (see the header comment).
uint64_t to_ue8m0(const Unp& u, uint64_t c) {
  bool satfin = (c & cfg::kSatFin) != 0;
  switch (u.cls) {
    case Cls::nan: return 0xff;
    case Cls::inf: return satfin ? 0xfe : 0xff;
    case Cls::zero: return 0;
    case Cls::finite: break;
  }
  int top = u.exp + msb128(u.mant);  // floor(log2 |x|)
  bool exact = (u.mant & (u.mant - 1)) == 0;
  int e = top + ((cfg::round(c) == Round::rp && !exact) ? 1 : 0);
  if (e < -127) e = -127;
  if (e > 127) return satfin ? 0xfe : 0xff;
  return static_cast<uint64_t>(e + 127);
}

uint64_t ue8m0_from_f32(const uint64_t* s, uint64_t*, uint64_t c) {
  return (to_ue8m0(unpack(kF32, s[0], false), c) << 8) | to_ue8m0(unpack(kF32, s[1], false), c);
}

uint64_t ue8m0_from_bf16x2(const uint64_t* s, uint64_t*, uint64_t c) {
  return (to_ue8m0(unpack(kBF16, (s[0] >> 16) & 0xffff, false), c) << 8) |
         to_ue8m0(unpack(kBF16, s[0] & 0xffff, false), c);
}

uint64_t bf16x2_from_ue8m0(const uint64_t* s, uint64_t*, uint64_t) {
  auto one = [](uint64_t code) -> uint64_t {
    if (code == 0xff) return 0x7fff;
    if (code == 0) return 0x0040;
    return code << 7;
  };
  return one(s[0] & 0xff) | (one((s[0] >> 8) & 0xff) << 16);
}

// |a| > |b| for finite nonzero a, b.
bool mag_greater(const Unp& a, const Unp& b) {
  int ta = a.exp + msb128(a.mant), tb = b.exp + msb128(b.mant);
  if (ta != tb) return ta > tb;
  // Same binade: the exponents differ by less than the mantissa widths.
  if (a.exp >= b.exp) return (a.mant << (a.exp - b.exp)) > b.mant;
  return a.mant > (b.mant << (b.exp - a.exp));
}

// Stochastic rounding of one f32 to f (f16 or bf16) with k random bits r.
uint64_t rs_lane(const Fmt& f, uint64_t a, uint64_t r, unsigned k, uint64_t c) {
  bool satfin = (c & cfg::kSatFin) != 0, relu = (c & cfg::kRelu) != 0;
  Unp u = unpack(kF32, a, false);
  uint64_t res;
  if (u.cls == Cls::nan) return canonical_nan(f);
  if (u.cls == Cls::zero) {
    res = zero_bits(f, u.sign);
  } else if (u.cls == Cls::inf) {
    res = satfin ? max_finite(f, u.sign) : inf_bits(f, u.sign);
  } else {
    int top = u.exp + msb128(u.mant);
    int q = (top > f.emin() ? top : f.emin()) - f.mbits;  // exponent of the result's ulp
    int sh = q - u.exp;                                    // discarded bits
    u128 t = u.mant, frac_k = 0;
    if (sh > 0) {
      u128 rem = u.mant & ((u128(1) << sh) - 1);
      t = u.mant >> sh;
      frac_k = sh >= int(k) ? rem >> (sh - int(k)) : rem << (int(k) - sh);
    } else {
      t = u.mant << -sh;
    }
    if (frac_k + (r & mask(k)) >= (u128(1) << k)) ++t;  // the carry out: away from zero
    // |a| > MAX_NORM: no rounding choice is representable (see header).
    bool above = mag_greater(u, unpack(f, max_finite(f, false), false));
    if (above) res = satfin ? max_finite(f, u.sign) : inf_bits(f, u.sign);
    else res = round_pack(f, u.sign, q, t, false, Round::rn, satfin ? uint32_t(kSatFinite) : 0u);
  }
  if (relu && (res >> (f.width() - 1)) != 0) return 0;
  return res;
}

uint64_t rs_pair(const uint64_t* s, uint64_t*, uint64_t c) {
  bool bf = dty(c) == Ty::bf16x2;
  const Fmt& f = bf ? kBF16 : kF16;
  unsigned k = bf ? 16 : 13;
  return (rs_lane(f, s[0], s[2] >> 16, k, c) << 16) | rs_lane(f, s[1], s[2] & 0xffff, k, c);
}

bool is_narrow(Ty t) { return t == Ty::e2m1x2 || t == Ty::e2m3x2 || t == Ty::e3m2x2; }

}  // namespace

Res resolve_cvt_narrow(const Parsed& p, OpDesc& d, std::string& err) {
  if (p.op != "cvt" || p.types.size() != 2) return Res::not_mine;
  Ty dt = p.types[0], st = p.types[1];
  bool rs = p.has("rs");
  if (!rs && !is_narrow(dt) && !is_narrow(st) && dt != Ty::ue8m0x2 && st != Ty::ue8m0x2) return Res::not_mine;
  auto bad = [&](const std::string& m) { err = m; return Res::error; };
  std::string stray;
  if (!p.only({"rn", "rz", "rp", "rs", "relu", "satfinite"}, &stray)) return bad("modifier ." + stray + " not allowed");
  int nround = int(p.has("rn")) + int(p.has("rz")) + int(p.has("rp")) + int(rs);
  if (nround != 1) return bad("exactly one rounding modifier required");
  Round rm = p.has("rz") ? Round::rz : p.has("rp") ? Round::rp : Round::rn;
  bool relu = p.has("relu"), satfin = p.has("satfinite");
  uint64_t c = static_cast<uint32_t>(rm) | (relu ? cfg::kRelu : 0) | (satfin ? cfg::kSatFin : 0) |
               (uint64_t(dt) << 16) | (uint64_t(st) << 21);
  if (rs) {  // cvt.rs{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b, rbits
    if ((dt != Ty::f16x2 && dt != Ty::bf16x2) || st != Ty::f32)
      return bad(".rs is modelled for .f16x2/.bf16x2 destinations from .f32 (the x4 forms are not)");
    d = make_desc(rs_pair, c, dt, {Ty::f32, Ty::f32, Ty::b32});
    return Res::ok;
  }
  if (is_narrow(dt)) {  // cvt.rn.satfinite{.relu}.{e2m1x2,e2m3x2,e3m2x2}.{f32,f16x2}
    if (rm != Round::rn || !satfin) return bad("narrow float destinations need .rn.satfinite");
    if (st == Ty::f32) d = make_desc(narrow_from_f32, c, dt, {Ty::f32, Ty::f32});
    else if (st == Ty::f16x2 || st == Ty::bf16x2) d = make_desc(narrow_from_x2, c, dt, {st});
    else return bad("narrow float destinations convert from .f32, .f16x2 or .bf16x2");
    return Res::ok;
  }
  if (is_narrow(st)) {  // cvt.rn{.relu}.{f16x2,bf16x2}.{e2m1x2,e2m3x2,e3m2x2}
    if ((dt != Ty::f16x2 && dt != Ty::bf16x2) || rm != Round::rn || satfin)
      return bad("narrow float sources convert to .f16x2/.bf16x2 with .rn{.relu}");
    d = make_desc(x2_from_narrow, c, dt, {st});
    return Res::ok;
  }
  if (dt == Ty::ue8m0x2) {  // cvt.{rz,rp}{.satfinite}.ue8m0x2.{f32,bf16x2}
    if (rm == Round::rn || relu) return bad(".ue8m0x2 takes .rz or .rp and optionally .satfinite");
    if (st == Ty::f32) d = make_desc(ue8m0_from_f32, c, dt, {Ty::f32, Ty::f32});
    else if (st == Ty::bf16x2) d = make_desc(ue8m0_from_bf16x2, c, dt, {Ty::bf16x2});
    else return bad(".ue8m0x2 converts from .f32 or .bf16x2");
    return Res::ok;
  }
  // cvt.rn.bf16x2.ue8m0x2
  if (dt != Ty::bf16x2 || rm != Round::rn || relu || satfin) return bad(".ue8m0x2 converts to .bf16x2 with .rn only");
  d = make_desc(bf16x2_from_ue8m0, c, dt, {Ty::ue8m0x2});
  return Res::ok;
}

}  // namespace ptxcheck::arith
