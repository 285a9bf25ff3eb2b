// cvt between every integer and float type, PTX ISA 9.2 "Data Movement and Conversion
// Instructions: cvt", incl. the packed f16x2/bf16x2/e4m3x2/e5m2x2 and tf32 forms
// added in PTX 7.x-8.x. Text of PTX ISA 9.0 used where 7.8 says less:
//   https://docs.nvidia.com/cuda/parallel-thread-execution/#data-movement-and-conversion-instructions-cvt
// (also in the ptx-90-parser crate's docs/instructions/cvt.md), and
// the float-to-integer NaN rule quoted in llvm/llvm-project PR #159530 from
// PTX ISA 9.0: NaN gives 0 unless the source is .f64 or the destination is
// 64-bit, where it gives 1 << (width-1).
// cfg: bits 0-8 as cfg:: (round, ftz, sat, relu, satfinite), bit 9 "integer
// rounding" (.rni etc. on a float destination), bits 16-20 destination Ty,
// bits 21-25 source Ty.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "semantics/arith/family.hpp"
#include "semantics/arith/intutil.hpp"

namespace ptxcheck::arith {
namespace {

constexpr uint32_t kIntRound = 1u << 9;

const Fmt* fmt_of(Ty t) {
  switch (t) {
    case Ty::f16: return &kF16;
    case Ty::bf16: return &kBF16;
    case Ty::tf32: return &kTF32;
    case Ty::f32: return &kF32;
    case Ty::f64: return &kF64;
    default: return nullptr;
  }
}
bool is_signed(Ty t) { return t == Ty::s8 || t == Ty::s16 || t == Ty::s32 || t == Ty::s64; }
bool is_int(Ty t) {
  return t == Ty::u8 || t == Ty::u16 || t == Ty::u32 || t == Ty::u64 || is_signed(t);
}

// Saturate (sign, magnitude) to an integer type of width w.
uint64_t clamp_int(bool neg, u128 mag, unsigned w, bool sg) {
  if (sg) {
    u128 lim = u128(1) << (w - 1);
    if (neg) return (mag >= lim ? static_cast<uint64_t>(lim) : 0 - static_cast<uint64_t>(mag)) & mask(w);
    return static_cast<uint64_t>(mag >= lim ? lim - 1 : mag);
  }
  if (neg) return 0;
  return mag > mask(w) ? mask(w) : static_cast<uint64_t>(mag);
}

// One scalar conversion; df/sf null means an integer type.
uint64_t cvt1(uint64_t a, Ty dt, Ty st, uint32_t c, const Fmt* df, const Fmt* sf) {
  unsigned dw = ty_bits(dt), sw = ty_bits(st);
  bool ftz = (c & cfg::kFtz) != 0;
  uint32_t dc = c & ~cfg::kFtz;
  if (ftz && df == &kF32) dc |= cfg::kFtz;  // .ftz flushes .f32 operands only
  if (sf == nullptr) {
    bool neg = is_signed(st) && sext(a, sw) < 0;
    u128 mag = neg ? u128(0 - static_cast<uint64_t>(sext(a, sw))) : u128(a & mask(sw));
    if (df != nullptr) return finish(*df, Unp{mag == 0 ? Cls::zero : Cls::finite, neg, 0, mag}, dc);
    if ((c & cfg::kSat) != 0) return clamp_int(neg, mag, dw, is_signed(dt));
    uint64_t v = is_signed(st) ? static_cast<uint64_t>(sext(a, sw)) : (a & mask(sw));
    return v & mask(dw);  // truncate or extend per the source's signedness
  }
  Unp u = unpack(*sf, a, ftz && sf == &kF32);
  if (df != nullptr && u.cls == Cls::nan && (c & (cfg::kRelu | cfg::kSatFin | cfg::kSat)) == 0) {
    // PTX ISA 9.7.9.21 (cvt) fixes the NaN result only for .relu (canonical
    // NaN), .sat (+0) and .satfinite; otherwise ptxcheck gives what an H200
    // gives (corpus/hw/h200/instr, docs/approx.md): f64 to f32/f16/bf16 keeps
    // the sign and the top payload bits and sets the quiet bit; f32 to tf32
    // with .rna clears the 13 low bits, with .rz gives 0x7fffe000.
    if (df == &kTF32 && cfg::round(c) == Round::rna) return a & 0xffffe000u;
    if (df == &kTF32 && cfg::round(c) == Round::rz) return 0x7fffe000u;
    if (sf == &kF64 && df != &kF64 && df != &kTF32 && df->shift == 0 && df->has_inf) {
      unsigned mb = df->mbits;
      uint64_t m = ((a >> (52 - mb)) & mask(mb)) | (uint64_t(1) << (mb - 1));
      return (uint64_t(a >> 63) << (df->width() - 1)) | (mask(df->ebits) << mb) | m;
    }
  }
  if (df != nullptr) {
    if ((c & kIntRound) != 0 && u.cls == Cls::finite && u.exp < 0) {
      bool ovf;
      uint64_t m = round_to_int(u, cfg::round(c), &ovf);
      u = Unp{m == 0 ? Cls::zero : Cls::finite, u.sign, 0, m};
    }
    return finish(*df, u, dc);
  }
  // Float to integer: always saturating; NaN per PTX ISA 9.0 (see header).
  if (u.cls == Cls::nan)
    return (sf == &kF64 || dw == 64) ? uint64_t(1) << (dw - 1) : 0;
  if (u.cls == Cls::inf) return clamp_int(u.sign, ~u128(0), dw, is_signed(dt));
  bool ovf;
  uint64_t m = round_to_int(u, cfg::round(c), &ovf);
  return clamp_int(u.sign && (m != 0 || ovf), ovf ? ~u128(0) : u128(m), dw, is_signed(dt));
}

Ty dty(uint32_t c) { return static_cast<Ty>((c >> 16) & 0x1f); }
Ty sty(uint32_t c) { return static_cast<Ty>((c >> 21) & 0x1f); }

uint64_t cvt_scalar(const uint64_t* s, uint64_t*, uint64_t c) {
  return cvt1(s[0], dty(c), sty(c), c, fmt_of(dty(c)), fmt_of(sty(c)));
}

// Host fast paths (same probe as host_fast.cpp): f32/f64 to 32/64-bit
// integers (exact functions: trunc/floor/ceil, and nearbyint in the probed
// round-to-nearest mode) and 32/64-bit integers to f32/f64 with .rn (the host
// conversion is IEEE round-to-nearest). Saturation and NaN as in cvt1.
template <typename FT, typename UT>
uint64_t host_f2i(const uint64_t* s, uint64_t*, uint64_t c) {
  UT u = static_cast<UT>(s[0]);
  constexpr UT expm = sizeof(UT) == 4 ? 0x7f800000u : UT(0x7ff0000000000000ull);
  if ((c & cfg::kFtz) != 0 && (u & expm) == 0) u &= ~(~UT(0) >> 1);  // keep the sign only
  FT x;
  std::memcpy(&x, &u, sizeof x);
  Ty dt = dty(c);
  unsigned dw = ty_bits(dt);
  bool sg = is_signed(dt);
  if (x != x) return (sizeof(FT) == 8 || dw == 64) ? uint64_t(1) << (dw - 1) : 0;
  FT r;
  switch (cfg::round(c)) {
    case Round::rz: r = std::trunc(x); break;
    case Round::rm: r = std::floor(x); break;
    case Round::rp: r = std::ceil(x); break;
    default: r = std::nearbyint(x); break;
  }
  // Limits as exact powers of two: [-2^(w-1), 2^(w-1)) or [0, 2^w).
  FT lim = static_cast<FT>(uint64_t(1) << (dw - 1)) * (sg ? FT(1) : FT(2));
  if (sg) {
    if (r >= lim) return mask(dw) >> 1;
    if (r < -lim) return (uint64_t(1) << (dw - 1)) & mask(dw);
    return static_cast<uint64_t>(static_cast<int64_t>(r)) & mask(dw);
  }
  if (r >= lim) return mask(dw);
  if (r <= 0) return 0;
  return static_cast<uint64_t>(r);
}

template <typename FT, typename UT>
uint64_t host_i2f(const uint64_t* s, uint64_t*, uint64_t c) {
  Ty st = sty(c);
  unsigned sw = ty_bits(st);
  FT r = is_signed(st) ? static_cast<FT>(sext(s[0], sw)) : static_cast<FT>(s[0] & mask(sw));
  UT u;
  std::memcpy(&u, &r, sizeof u);
  return u;  // integers are never subnormal or NaN; .ftz/.sat are excluded below
}

OpFn host_cvt(Ty dt, Ty st, uint64_t c) {
  if (host_rn_kernel(Ty::f32, o_add) == nullptr) return nullptr;  // the host probe
  bool dint = (is_int(dt) && ty_bits(dt) >= 32), sint = (is_int(st) && ty_bits(st) >= 32);
  if (dint && (st == Ty::f32 || st == Ty::f64) && (c & cfg::kSat) == 0)
    return st == Ty::f32 ? host_f2i<float, uint32_t> : host_f2i<double, uint64_t>;
  if (sint && (dt == Ty::f32 || dt == Ty::f64) && cfg::round(c) == Round::rn &&
      (c & (cfg::kSat | cfg::kFtz)) == 0)
    return dt == Ty::f32 ? host_i2f<float, uint32_t> : host_i2f<double, uint64_t>;
  return nullptr;
}

const Fmt& lane_fmt(Ty t) {
  switch (t) {
    case Ty::f16x2: return kF16;
    case Ty::bf16x2: return kBF16;
    case Ty::e4m3x2: return kE4M3;
    default: return kE5M2;
  }
}

// cvt.*.{f16x2,bf16x2,e4m3x2,e5m2x2}.f32 d, a, b: a goes to the upper lane.
uint64_t cvt_pair(const uint64_t* s, uint64_t*, uint64_t c) {
  const Fmt& df = lane_fmt(dty(c));
  unsigned lw = df.width();
  uint64_t hi = finish(df, unpack(kF32, s[0], (c & cfg::kFtz) != 0), c & ~cfg::kFtz);
  uint64_t lo = finish(df, unpack(kF32, s[1], (c & cfg::kFtz) != 0), c & ~cfg::kFtz);
  return (hi << lw) | lo;
}

// Lane-wise conversion between packed forms (f16x2 <-> e4m3x2/e5m2x2).
uint64_t cvt_lanes(const uint64_t* s, uint64_t*, uint64_t c) {
  const Fmt& df = lane_fmt(dty(c));
  const Fmt& sf = lane_fmt(sty(c));
  unsigned dw = df.width(), sw = sf.width();
  uint64_t r = 0;
  for (unsigned i = 0; i < 2; ++i) {
    Unp u = unpack(sf, (s[0] >> (sw * i)) & mask(sw), false);
    r |= finish(df, u, c) << (dw * i);
  }
  return r;
}

// cvt.pack.sat (PTX ISA 9.7.9.22 cvt.pack): saturate a and b to the narrow type and
// pack b below a; narrower than 16 bits, the rest of d comes from c's low bits.
// cfg: bits 0-7 width of the narrow type, bit 8 signed.
uint64_t cvt_pack(const uint64_t* s, uint64_t*, uint64_t c) {
  unsigned w = c & 0xff;
  bool sg = (c >> 8) & 1;
  int64_t lo = sg ? -(int64_t(1) << (w - 1)) : 0, hi = sg ? (int64_t(1) << (w - 1)) - 1 : (int64_t(1) << w) - 1;
  auto sat = [&](uint64_t x) { return static_cast<uint64_t>(std::clamp(sext(x, 32), lo, hi)) & mask(w); };
  uint64_t td = sat(s[1]) | (sat(s[0]) << w);
  if (w == 16) return td;
  return (td | (s[2] << (2 * w))) & 0xffffffffu;
}

Res resolve_pack(const Parsed& p, OpDesc& d, std::string& err) {
  auto bad = [&](const std::string& m) { err = m; return Res::error; };
  static const struct { const char* n; unsigned w; bool s; } kNarrow[] = {
      {"u2", 2, false}, {"s2", 2, true}, {"u4", 4, false}, {"s4", 4, true}};
  unsigned w = 0;
  bool sg = false;
  std::vector<Ty> rest = p.types;
  for (const auto& m : p.mods)
    for (const auto& k : kNarrow)
      if (m == k.n) w = k.w, sg = k.s;
  if (w == 0) {
    if (rest.empty()) return bad("cvt.pack needs a destination type");
    Ty t = rest.front();
    rest.erase(rest.begin());
    if (t == Ty::u8 || t == Ty::s8) w = 8;
    else if (t == Ty::u16 || t == Ty::s16) w = 16;
    else return bad("cvt.pack destination must be .u16 .s16 .u8 .s8 .u4 .s4 .u2 .s2");
    sg = t == Ty::s8 || t == Ty::s16;
  }
  for (const auto& m : p.mods)
    if (m != "pack" && m != "sat" && m != "u2" && m != "s2" && m != "u4" && m != "s4")
      return bad("modifier ." + m + " not allowed");
  if (!p.has("sat")) return bad("cvt.pack requires .sat");
  bool three = w < 16;
  if (rest.size() != (three ? 2u : 1u) || rest[0] != Ty::s32 || (three && rest[1] != Ty::b32))
    return bad(three ? "needs .s32.b32 sources" : "needs .s32 sources");
  uint64_t c = w | (uint64_t(sg) << 8);
  d = three ? make_desc(cvt_pack, c, Ty::b32, {Ty::s32, Ty::s32, Ty::b32})
            : make_desc(cvt_pack, c, Ty::b32, {Ty::s32, Ty::s32});
  return Res::ok;
}

}  // namespace

// The inline forms of cvt (fast.hpp): cvt_int between integer types
// without .sat (cvt1's last two lines), and where resolve_cvt chose them,
// host_f2i (cvt_f2i) and host_i2f (cvt_i2f), with the same cfg bits.
fast::Form cvt_fast_form(const OpDesc& d) {
  fast::Form f;
  const auto c = static_cast<uint32_t>(d.cfg);
  const Ty dt = dty(c), st = sty(c);
  f.w = static_cast<uint8_t>(ty_bits(dt));
  f.sw = static_cast<uint8_t>(ty_bits(st));
  if (d.fn == cvt_scalar && (c & cfg::kSat) == 0 && is_int(dt) && is_int(st)) {
    f.op = fast::Op::cvt_int;
    f.sg = is_signed(st);
  } else if (d.fn == host_f2i<float, uint32_t> || d.fn == host_f2i<double, uint64_t>) {
    f.op = fast::Op::cvt_f2i;
    f.sg = is_signed(dt);
    f.ftz = (c & cfg::kFtz) != 0;
    f.rnd = static_cast<uint8_t>(cfg::round(c));
  } else if (d.fn == host_i2f<float, uint32_t> || d.fn == host_i2f<double, uint64_t>) {
    f.op = fast::Op::cvt_i2f;
    f.sg = is_signed(st);
  }
  return f;
}


Res resolve_cvt(const Parsed& p, OpDesc& d, std::string& err) {
  if (p.op != "cvt") return Res::not_mine;
  if (p.has("pack")) return resolve_pack(p, d, err);
  if (Res r = resolve_cvt_narrow(p, d, err); r != Res::not_mine) return r;
  auto bad = [&](const std::string& m) { err = m; return Res::error; };
  if (p.types.size() != 2) return bad("needs .dtype.atype");
  Ty dt = p.types[0], st = p.types[1];
  std::string stray;
  if (!p.only({"rn", "rz", "rm", "rp", "rna", "rni", "rzi", "rmi", "rpi", "ftz", "sat", "relu", "satfinite"}, &stray))
    return bad("modifier ." + stray + " not allowed");
  Round frm = Round::rn, irm = Round::rz;
  bool has_f, has_i;
  if (!float_round(p, &frm, &has_f, true) || !int_round(p, &irm, &has_i) || (has_f && has_i))
    return bad("more than one rounding modifier");
  uint32_t c = (p.has("ftz") ? cfg::kFtz : 0) | (p.has("sat") ? cfg::kSat : 0) |
               (p.has("relu") ? cfg::kRelu : 0) | (p.has("satfinite") ? cfg::kSatFin : 0) |
               (static_cast<uint32_t>(dt) << 16) | (static_cast<uint32_t>(st) << 21);
  if (p.has("sat") && (p.has("relu") || p.has("satfinite"))) return bad(".sat with .relu/.satfinite");
  bool packed_d = dt == Ty::f16x2 || dt == Ty::bf16x2 || dt == Ty::e4m3x2 || dt == Ty::e5m2x2;
  bool fp8_d = dt == Ty::e4m3x2 || dt == Ty::e5m2x2, fp8_s = st == Ty::e4m3x2 || st == Ty::e5m2x2;
  if (packed_d || fp8_s || st == Ty::f16x2 || st == Ty::bf16x2) {
    if (has_i || (has_f && frm != Round::rn && frm != Round::rz) || p.has("ftz") || p.has("sat"))
      return bad("packed conversions take .rn/.rz, .relu, .satfinite only");
    if (fp8_d && (frm != Round::rn || !p.has("satfinite"))) return bad("fp8 destinations need .rn.satfinite");
    // .bf16x2 destinations from fp8: PTX ISA 9.2 (1.3 "Adds support for .bf16x2
    // destination type for cvt ... with .e4m3x2, .e5m2x2 ... source types").
    if (fp8_s && ((dt != Ty::f16x2 && dt != Ty::bf16x2) || p.has("satfinite") || frm != Round::rn))
      return bad("fp8 sources convert to .f16x2/.bf16x2 with .rn");
    if (!has_f) return bad("rounding modifier required");
    c |= static_cast<uint32_t>(frm);
    if (st == Ty::f32) {
      d = make_desc(cvt_pair, c, dt, {Ty::f32, Ty::f32});
      return Res::ok;
    }
    // .bf16x2 sources to fp8: cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.bf16x2, PTX ISA 9.1.
    if (((st == Ty::f16x2 || st == Ty::bf16x2) && fp8_d) || (fp8_s && (dt == Ty::f16x2 || dt == Ty::bf16x2))) {
      d = make_desc(cvt_lanes, c, dt, {st});
      return Res::ok;
    }
    return bad("unsupported packed conversion");
  }
  const Fmt* df = dt == Ty::tf32 ? &kTF32 : nullptr;
  bool dfloat = dt == Ty::f16 || dt == Ty::bf16 || dt == Ty::f32 || dt == Ty::f64 || dt == Ty::tf32;
  bool sfloat = st == Ty::f16 || st == Ty::bf16 || st == Ty::f32 || st == Ty::f64;
  (void)df;
  if (!(dfloat || is_int(dt)) || !(sfloat || is_int(st))) return bad("unsupported type pair");
  if (dt == Ty::tf32 && st != Ty::f32) return bad(".tf32 converts from .f32 only");
  if (frm == Round::rna && dt != Ty::tf32) return bad(".rna only for .tf32");
  // Forms checked against ptxas (CUDA 13): .relu/.satfinite only from .f32 with
  // .rn/.rz (tf32 also .rna, without .relu); tf32 takes .rna/.rn/.rz; no .sat
  // or .ftz on bf16/tf32 conversions.
  bool rnz = frm == Round::rn || frm == Round::rz;
  if ((p.has("relu") || p.has("satfinite")) && (st != Ty::f32 || !(rnz || (frm == Round::rna && !p.has("relu")))))
    return bad(".relu/.satfinite need an .f32 source and .rn/.rz");
  if (dt == Ty::tf32 && !(rnz || frm == Round::rna)) return bad(".tf32 takes .rna, .rn or .rz");
  if ((p.has("sat") || p.has("ftz")) && (dt == Ty::bf16 || st == Ty::bf16 || dt == Ty::tf32))
    return bad(".sat/.ftz not allowed with .bf16/.tf32");
  if ((p.has("relu") || p.has("satfinite")) && !(dt == Ty::f16 || dt == Ty::bf16 || dt == Ty::tf32))
    return bad(".relu/.satfinite need an f16/bf16/tf32 destination");
  if (p.has("ftz") && !(dt == Ty::f32 || st == Ty::f32)) return bad(".ftz needs an .f32 operand");
  // PTX ISA 9.7.9.21 cvt: a rounding modifier is mandatory for int-to-float,
  // float-to-int and narrowing float-to-float conversions.
  if (dfloat && !sfloat) {  // int -> float: float rounding
    if (!has_f) return bad("int-to-float conversion needs .rn/.rz/.rm/.rp");
    c |= static_cast<uint32_t>(frm);
  } else if (!dfloat && sfloat) {  // float -> int: integer rounding, saturating
    if (!has_i) return bad("float-to-int conversion needs .rni/.rzi/.rmi/.rpi");
    c |= static_cast<uint32_t>(irm);
  } else if (dfloat && sfloat) {
    bool narrowing = ty_bits(dt) < ty_bits(st) || (dt == Ty::f16 && st == Ty::bf16) ||
                     (dt == Ty::bf16 && st == Ty::f16) || dt == Ty::tf32;
    if (has_i) {
      if (dt != st) return bad("integer rounding needs equal float types");
      c |= static_cast<uint32_t>(irm) | kIntRound;
    } else {
      if (narrowing != has_f)  // ptxas rejects a float rounding on exact conversions
        return bad(narrowing ? "narrowing float conversion needs .rn/.rz/.rm/.rp"
                             : "float rounding on an exact (widening or same-type) conversion");
      c |= static_cast<uint32_t>(frm);
    }
  } else if (has_f || has_i) {
    return bad("rounding modifier on an int-to-int conversion");
  } else if (p.has("sat")) {  // .sat only where the source range exceeds the destination's
    unsigned sw = ty_bits(st), dw = ty_bits(dt);
    bool fits = is_signed(st) == is_signed(dt) ? sw <= dw : (!is_signed(st) && sw < dw);
    if (fits) return bad(".sat on a conversion that cannot overflow");
  }
  d = make_desc(cvt_scalar, c, dt, {st});
  if (p.opts.host_fpu)
    if (OpFn h = host_cvt(dt, st, c)) d.fn = h;
  return Res::ok;
}

}  // namespace ptxcheck::arith
