// Integer arithmetic, PTX ISA 9.2 section 9.7.1 (Integer Arithmetic
// Instructions) and 9.7.2 (Extended-Precision Integer Arithmetic).
// cfg: bits 0-7 width, bit 8 signed, bit 9 .sat, bit 10 .relu, bit 11 .cc,
// bits 16+ sub-operation.
#include <algorithm>
#include <cstdint>

#include "semantics/arith/family.hpp"
#include "semantics/arith/intutil.hpp"

namespace ptxcheck::arith {
namespace {

constexpr uint32_t kSigned = 1u << 8, kSatI = 1u << 9, kReluI = 1u << 10, kCc = 1u << 11;
unsigned W(uint32_t c) { return c & 0xff; }
bool Sg(uint32_t c) { return (c & kSigned) != 0; }

// Saturate a 128-bit exact result to the s32 range (PTX ISA 9.7.1.1 add.sat).
uint64_t sat_s32(__int128 v) {
  if (v > INT32_MAX) v = INT32_MAX;
  if (v < INT32_MIN) v = INT32_MIN;
  return static_cast<uint64_t>(v) & 0xffffffffu;
}

__int128 val(uint64_t x, uint32_t c) {
  return Sg(c) ? __int128(sext(x, W(c))) : __int128(x & mask(W(c)));
}

enum Sub : uint32_t { s_add, s_sub, s_addc, s_subc, s_mul_lo, s_mul_hi, s_mul_wide, s_mad_lo,
                      s_mad_hi, s_mad_wide, s_madc_lo, s_madc_hi };

// add/sub (9.7.1.1-2), add.cc/addc/sub.cc/subc (9.7.2.1-4): the carry-in is
// src[2]; the carry (or borrow) out is the bit above the width.
uint64_t add_sub(const uint64_t* s, uint64_t* aux, uint64_t c) {
  unsigned w = W(c);
  uint32_t op = cfg::sub(c);
  uint64_t a = s[0] & mask(w), b = s[1] & mask(w);
  uint64_t cin = (op == s_addc || op == s_subc) ? (s[2] & 1) : 0;
  if ((c & kSatI) != 0) {
    __int128 r = (op == s_add) ? val(a, c) + val(b, c) : val(a, c) - val(b, c);
    return sat_s32(r);
  }
  u128 r;
  if (op == s_add || op == s_addc) r = u128(a) + b + cin;
  else r = u128(a) - b - cin;  // wraps: bit w set means a borrow happened
  if ((c & kCc) != 0) *aux = static_cast<uint64_t>(r >> w) & 1;
  return static_cast<uint64_t>(r) & mask(w);
}

// Hot plain forms (no .sat/.cc): wrap-around in the type's width.
template <uint32_t Sub>
uint64_t plain(const uint64_t* s, uint64_t*, uint64_t c) {
  uint64_t m = mask(W(c));
  if constexpr (Sub == s_add) return (s[0] + s[1]) & m;
  else if constexpr (Sub == s_sub) return (s[0] - s[1]) & m;
  else if constexpr (Sub == s_mul_lo) return (s[0] * s[1]) & m;
  else return (s[0] * s[1] + s[2]) & m;  // mad.lo
}

// mul (9.7.1.3), mad (9.7.1.4), mad.cc/madc (9.7.2.5-6): the full product is
// 2w bits; .lo/.hi select a half, .wide keeps all of it (w <= 32).
uint64_t mul_mad(const uint64_t* s, uint64_t* aux, uint64_t c) {
  unsigned w = W(c);
  uint32_t op = cfg::sub(c);
  // The exact 2w-bit product, as two's complement bits.
  u128 pu = Sg(c) ? static_cast<u128>(val(s[0], c) * val(s[1], c))
                  : u128(s[0] & mask(w)) * u128(s[1] & mask(w));
  switch (op) {
    case s_mul_lo: return static_cast<uint64_t>(pu) & mask(w);
    case s_mul_hi: return static_cast<uint64_t>(pu >> w) & mask(w);
    case s_mul_wide: return static_cast<uint64_t>(pu) & mask(2 * w);
    case s_mad_wide: return static_cast<uint64_t>(pu + s[2]) & mask(2 * w);
    default: break;
  }
  uint64_t half = static_cast<uint64_t>(op == s_mad_hi || op == s_madc_hi ? pu >> w : pu) & mask(w);
  if ((c & kSatI) != 0)  // mad.hi.sat.s32: saturate (hi half + c)
    return sat_s32(__int128(sext(half, 32)) + sext(s[2], 32));
  uint64_t cin = (op == s_madc_lo || op == s_madc_hi) ? (s[3] & 1) : 0;
  u128 r = u128(half) + (s[2] & mask(w)) + cin;
  if ((c & kCc) != 0) *aux = static_cast<uint64_t>(r >> w) & 1;
  return static_cast<uint64_t>(r) & mask(w);
}

// mul24/mad24 (9.7.1.5-6): 24x24-bit product (48 bits); .hi is bits 47..16.
uint64_t mul24(const uint64_t* s, uint64_t*, uint64_t c) {
  int64_t a = Sg(c) ? sext(s[0], 24) : int64_t(s[0] & 0xffffff);
  int64_t b = Sg(c) ? sext(s[1], 24) : int64_t(s[1] & 0xffffff);
  auto p = static_cast<uint64_t>(a * b);
  uint64_t r = (cfg::sub(c) & 1) != 0 ? (p >> 16) : p;
  if ((cfg::sub(c) & 2) != 0) {  // mad24
    if ((c & kSatI) != 0) return sat_s32(__int128(sext(r, 32)) + sext(s[2], 32));
    r += s[2];
  }
  return r & 0xffffffffu;
}

// sad (9.7.1.7): d = c + |a - b|.
uint64_t sad(const uint64_t* s, uint64_t*, uint64_t c) {
  __int128 a = val(s[0], c), b = val(s[1], c);
  __int128 diff = a < b ? b - a : a - b;
  return static_cast<uint64_t>(static_cast<u128>(diff) + s[2]) & mask(W(c));
}

// div/rem (9.7.1.8-9). Division by zero is "unspecified" in the spec; we
// return all ones for div and the dividend for rem (docs/approx.md).
// INT_MIN / -1 wraps to INT_MIN with remainder 0 (two's complement).
uint64_t divrem(const uint64_t* s, uint64_t*, uint64_t c) {
  unsigned w = W(c);
  bool is_rem = cfg::sub(c) == 1;
  uint64_t a = s[0] & mask(w), b = s[1] & mask(w);
  if (b == 0) return is_rem ? a : mask(w);
  if (!Sg(c)) return (is_rem ? a % b : a / b) & mask(w);
  __int128 sa = sext(a, w), sb = sext(b, w);
  __int128 r = is_rem ? sa % sb : sa / sb;
  return static_cast<uint64_t>(r) & mask(w);
}

// abs/neg (9.7.1.10-11): two's complement, so abs(INT_MIN) = INT_MIN.
uint64_t absneg(const uint64_t* s, uint64_t*, uint64_t c) {
  unsigned w = W(c);
  int64_t a = sext(s[0], w);
  uint64_t r = cfg::sub(c) == 0 ? (a < 0 ? 0 - uint64_t(a) : uint64_t(a)) : 0 - uint64_t(a);
  return r & mask(w);
}

// min/max (9.7.1.12-13) incl. .relu (max(result, 0)) and u16x2/s16x2 lanes.
uint64_t minmax1(uint64_t a, uint64_t b, uint32_t c, unsigned w) {
  bool mx = cfg::sub(c) == 1;
  __int128 x = Sg(c) ? __int128(sext(a, w)) : __int128(a & mask(w));
  __int128 y = Sg(c) ? __int128(sext(b, w)) : __int128(b & mask(w));
  __int128 r = mx ? std::max(x, y) : std::min(x, y);
  if ((c & kReluI) != 0 && r < 0) r = 0;
  return static_cast<uint64_t>(r) & mask(w);
}
uint64_t minmax(const uint64_t* s, uint64_t*, uint64_t c) { return minmax1(s[0], s[1], c, W(c)); }
uint64_t minmax_x2(const uint64_t* s, uint64_t*, uint64_t c) {
  return minmax1(s[0], s[1], c, 16) | (minmax1(s[0] >> 16, s[1] >> 16, c, 16) << 16);
}

// add/sub on u16x2/s16x2 wrap per lane (PTX ISA 9.7.1.1, sm_90).
uint64_t addsub_x2(const uint64_t* s, uint64_t*, uint64_t c) {
  uint64_t r = 0;
  for (int i = 0; i < 2; ++i) {
    uint64_t a = (s[0] >> (16 * i)) & 0xffff, b = (s[1] >> (16 * i)) & 0xffff;
    r |= ((cfg::sub(c) == s_add ? a + b : a - b) & 0xffff) << (16 * i);
  }
  return r;
}

bool int_type(Ty t, unsigned* w, bool* sg) {
  switch (t) {
    case Ty::u16: *w = 16; *sg = false; return true;
    case Ty::u32: *w = 32; *sg = false; return true;
    case Ty::u64: *w = 64; *sg = false; return true;
    case Ty::s16: *w = 16; *sg = true; return true;
    case Ty::s32: *w = 32; *sg = true; return true;
    case Ty::s64: *w = 64; *sg = true; return true;
    default: return false;
  }
}

}  // namespace

fast::Form int_fast_form(const OpDesc& d) {
  const auto c = static_cast<uint32_t>(d.cfg);
  fast::Form f;
  f.w = static_cast<uint8_t>(W(c));
  f.sg = Sg(c);
  if (d.fn == plain<s_add>) f.op = fast::Op::add;
  else if (d.fn == plain<s_sub>) f.op = fast::Op::sub;
  else if (d.fn == plain<s_mul_lo>) f.op = fast::Op::mul_lo;
  else if (d.fn == plain<s_mad_lo>) f.op = fast::Op::mad_lo;
  else if (d.fn == minmax && (c & kReluI) == 0) f.op = cfg::sub(c) == 1 ? fast::Op::max : fast::Op::min;
  else if (d.fn == mul_mad && (c & (kSatI | kCc)) == 0 && cfg::sub(c) == s_mul_wide && f.w <= 32)
    f.op = fast::Op::mul_wide;
  else if (d.fn == mul_mad && (c & (kSatI | kCc)) == 0 && cfg::sub(c) == s_mul_hi)
    f.op = fast::Op::mul_hi;
  return f;
}

Res resolve_int(const Parsed& p, OpDesc& d, std::string& err) {
  static const char* kOps[] = {"add", "sub", "addc", "subc", "mul", "mad", "madc", "mul24", "mad24",
                               "sad", "div", "rem", "abs", "neg", "min", "max"};
  bool mine = false;
  for (auto* o : kOps) mine = mine || p.op == o;
  if (!mine || p.types.size() != 1) return Res::not_mine;
  Ty t = p.types[0];
  if ((t == Ty::u16x2 || t == Ty::s16x2) && (p.op == "min" || p.op == "max")) {
    if (!p.only({"relu"}, &err)) return err = "modifier ." + err + " not allowed", Res::error;
    if (p.has("relu") && t != Ty::s16x2) return err = ".relu needs .s16x2", Res::error;
    uint32_t c = 16 | (t == Ty::s16x2 ? kSigned : 0) | (p.has("relu") ? kReluI : 0) |
                 (uint32_t(p.op == "max") << cfg::kSubShift);
    d = make_desc(minmax_x2, c, t, {t, t});
    return Res::ok;
  }
  if ((t == Ty::u16x2 || t == Ty::s16x2) && p.op == "add" && p.mods.empty()) {  // no sub form
    d = make_desc(addsub_x2, s_add << cfg::kSubShift, t, {t, t});
    return Res::ok;
  }
  unsigned w;
  bool sg;
  if (!int_type(t, &w, &sg)) return Res::not_mine;  // float forms live elsewhere
  uint32_t c = w | (sg ? kSigned : 0);
  auto bad = [&](const std::string& m) { err = m; return Res::error; };
  std::string stray;
  const std::string& op = p.op;
  bool cc = p.has("cc");
  if (cc && w < 32) return bad(".cc needs a 32- or 64-bit type");
  if (cc) c |= kCc;
  bool sat = p.has("sat");
  if (sat && t != Ty::s32) return bad(".sat needs .s32");
  if (sat) c |= kSatI;
  if (op == "add" || op == "sub" || op == "addc" || op == "subc") {
    if (!p.only({"cc", "sat"}, &stray)) return bad("modifier ." + stray + " not allowed");
    if (sat && (cc || op == "addc" || op == "subc")) return bad(".sat with a carry");
    uint32_t sub = op == "add" ? s_add : op == "sub" ? s_sub : op == "addc" ? s_addc : s_subc;
    bool cin = sub == s_addc || sub == s_subc;
    d = cin ? make_desc(add_sub, c | (sub << cfg::kSubShift), t, {t, t, Ty::pred})
            : make_desc(add_sub, c | (sub << cfg::kSubShift), t, {t, t});
    if (!cc && !sat && sub == s_add) d.fn = plain<s_add>;
    if (!cc && !sat && sub == s_sub) d.fn = plain<s_sub>;
    d.aux_out = cc;
    return Res::ok;
  }
  if (op == "mul" || op == "mad" || op == "madc") {
    if (!p.only({"lo", "hi", "wide", "cc", "sat"}, &stray)) return bad("modifier ." + stray + " not allowed");
    int n = p.has("lo") + p.has("hi") + p.has("wide");
    if (n != 1) return bad("needs exactly one of .lo .hi .wide");
    if (p.has("wide") && (w == 64 || cc)) return bad(".wide needs a 16- or 32-bit type, no .cc");
    if (sat && !(op == "mad" && p.has("hi"))) return bad(".sat only with mad.hi.s32");
    if (cc && op == "mul") return bad("mul has no .cc");
    Ty wide = t;
    if (p.has("wide")) wide = w == 16 ? (sg ? Ty::s32 : Ty::u32) : (sg ? Ty::s64 : Ty::u64);
    uint32_t sub;
    if (op == "mul") sub = p.has("lo") ? s_mul_lo : p.has("hi") ? s_mul_hi : s_mul_wide;
    else if (op == "mad") sub = p.has("lo") ? s_mad_lo : p.has("hi") ? s_mad_hi : s_mad_wide;
    else sub = p.has("lo") ? s_madc_lo : s_madc_hi;
    if (op == "madc" && p.has("wide")) return bad("madc has no .wide");
    c |= sub << cfg::kSubShift;
    if (op == "mul") d = make_desc(mul_mad, c, wide, {t, t});
    else if (op == "mad") d = make_desc(mul_mad, c, wide, {t, t, wide});
    else d = make_desc(mul_mad, c, t, {t, t, t, Ty::pred});
    d.aux_out = cc;
    if (!cc && !sat && sub == s_mul_lo) d.fn = plain<s_mul_lo>;
    if (!cc && !sat && sub == s_mad_lo) d.fn = plain<s_mad_lo>;
    return Res::ok;
  }
  if (op == "mul24" || op == "mad24") {
    if (w != 32) return bad("needs .u32 or .s32");
    if (!p.only({"lo", "hi", "sat"}, &stray)) return bad("modifier ." + stray + " not allowed");
    if (p.has("lo") == p.has("hi")) return bad("needs exactly one of .lo .hi");
    if (sat && !(op == "mad24" && p.has("hi"))) return bad(".sat only with mad24.hi.s32");
    c |= (uint32_t(p.has("hi")) | (uint32_t(op == "mad24") << 1)) << cfg::kSubShift;
    d = op == "mul24" ? make_desc(mul24, c, t, {t, t}) : make_desc(mul24, c, t, {t, t, t});
    return Res::ok;
  }
  if (!p.mods.empty() && !(p.mods.size() == 1 && p.mods[0] == "relu"))
    return bad("modifier ." + p.mods[0] + " not allowed");
  if (p.has("relu") && !((op == "min" || op == "max") && t == Ty::s32)) return bad(".relu needs min/max.s32");
  if (op == "sad") d = make_desc(sad, c, t, {t, t, t});
  else if (op == "div" || op == "rem") d = make_desc(divrem, c | (uint32_t(op == "rem") << cfg::kSubShift), t, {t, t});
  else if (op == "abs" || op == "neg") {
    if (!sg) return bad("needs a signed type");
    d = make_desc(absneg, c | (uint32_t(op == "neg") << cfg::kSubShift), t, {t});
  } else {
    c |= (p.has("relu") ? kReluI : 0) | (uint32_t(op == "max") << cfg::kSubShift);
    d = make_desc(minmax, c, t, {t, t});
  }
  return Res::ok;
}

}  // namespace ptxcheck::arith
