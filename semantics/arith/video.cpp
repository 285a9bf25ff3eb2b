// Scalar video instructions: vadd vsub vabsdiff vmin vmax (PTX ISA 9.0
// 9.7.18.1.1), vshl vshr (9.7.18.1.2), vmad (9.7.18.1.3), vset (9.7.18.1.4);
// text from docs.nvidia.com/cuda/parallel-thread-execution (video
// instructions), helper functions partSelectSignExtend / optSaturate /
// optSecondaryOp / optMerge as defined in that section's introduction.
//
// Operand selectors and negations are operand syntax in PTX (a.b1, -c, d.h0);
// the interpreter passes them as extra mnemonic tokens: asel_X, bsel_X,
// dsel_X with X in b0 b1 b2 b3 h0 h1, and neg_a, neg_b, neg_c for vmad.
// Intermediate values are computed exactly (128-bit), then saturated,
// combined and truncated to 32 bits.
// cfg: bits 0-3 asel, 4-7 bsel, 8-11 dsel (0 none, 1-4 b0-b3, 5-6 h0-h1),
// bit 12 a signed, 13 b signed, 14 d signed, 15 .sat, 16-19 op, 20-21 op2
// (0 none, 1 add, 2 min, 3 max), 22-23 mode/scale, 24-26 negations, 27 .po,
// 28-30 vset compare.
#include <algorithm>
#include <cstdint>

#include "semantics/arith/family.hpp"
#include "semantics/arith/intutil.hpp"

namespace ptxcheck::arith {
namespace {

using i128 = __int128;
enum VOp : uint32_t { v_add, v_sub, v_absdiff, v_min, v_max, v_shl, v_shr, v_mad, v_set };

unsigned f(uint32_t c, int lo, int n) { return (c >> lo) & ((1u << n) - 1); }

// partSelectSignExtend: the selected byte/half-word (or the word), sign- or
// zero-extended.
i128 part(uint64_t x, unsigned sel, bool sg) {
  x &= 0xffffffffu;
  if (sel == 0) return sg ? i128(sext(x, 32)) : i128(x);
  if (sel <= 4) {
    uint64_t v = (x >> (8 * (sel - 1))) & 0xff;
    return sg ? i128(sext(v, 8)) : i128(v);
  }
  uint64_t v = (x >> (16 * (sel - 5))) & 0xffff;
  return sg ? i128(sext(v, 16)) : i128(v);
}

i128 clamp_to(i128 v, unsigned bits, bool sg) {
  i128 lo = sg ? -(i128(1) << (bits - 1)) : 0;
  i128 hi = sg ? (i128(1) << (bits - 1)) - 1 : (i128(1) << bits) - 1;
  return std::clamp(v, lo, hi);
}

// optSaturate: clamp to the range of the destination part (dsel) or word.
i128 opt_sat(i128 v, bool sat, bool sg, unsigned dsel) {
  if (!sat) return v;
  return clamp_to(v, dsel == 0 ? 32 : dsel <= 4 ? 8 : 16, sg);
}

// optMerge: insert the low bits of v into c at the dsel position.
uint64_t opt_merge(unsigned dsel, uint64_t v, uint64_t c) {
  if (dsel == 0) return v & 0xffffffffu;
  unsigned sh = dsel <= 4 ? 8 * (dsel - 1) : 16 * (dsel - 5);
  uint64_t m = (dsel <= 4 ? 0xffull : 0xffffull) << sh;
  return ((v << sh) & m) | (c & ~m & 0xffffffffu);
}

uint64_t finish_v(i128 tmp, const uint64_t* s, uint32_t c, bool sg) {
  unsigned dsel = f(c, 8, 4), op2 = f(c, 20, 2);
  if (dsel != 0) return opt_merge(dsel, static_cast<uint64_t>(tmp), s[2]);
  if (op2 != 0) {  // optSecondaryOp with c read as the destination type
    i128 cv = part(s[2], 0, sg);
    tmp = op2 == 1 ? tmp + cv : op2 == 2 ? std::min(tmp, cv) : std::max(tmp, cv);
  }
  return static_cast<uint64_t>(tmp) & 0xffffffffu;
}

uint64_t vscalar(const uint64_t* s, uint64_t*, uint64_t c) {
  bool sa = f(c, 12, 1), sb = f(c, 13, 1), sd = f(c, 14, 1), sat = f(c, 15, 1);
  unsigned op = f(c, 16, 4);
  i128 ta = part(s[0], f(c, 0, 4), sa);
  i128 tb = part(s[1], f(c, 4, 4), op == v_shl || op == v_shr ? false : sb);
  i128 tmp;
  switch (op) {
    case v_add: tmp = ta + tb; break;
    case v_sub: tmp = ta - tb; break;
    case v_absdiff: tmp = ta > tb ? ta - tb : tb - ta; break;
    case v_min: tmp = std::min(ta, tb); break;
    case v_max: tmp = std::max(ta, tb); break;
    default: {  // vshl/vshr: .clamp limits the amount to 32, .wrap takes it mod 32
      i128 n = f(c, 22, 1) != 0 ? std::min<i128>(tb, 32) : (tb & 31);
      tmp = op == v_shl ? ta * (i128(1) << int(n)) : ta >> int(n);
      break;
    }
  }
  return finish_v(opt_sat(tmp, sat, sd, f(c, 8, 4)), s, c, sd);
}

// vmad per the ISA pseudo-code: negation of the product or of c, .po adds 1,
// optional right shift by 7 or 15, saturation to the final signedness.
uint64_t vmad(const uint64_t* s, uint64_t*, uint64_t c) {
  bool sa = f(c, 12, 1), sb = f(c, 13, 1), sat = f(c, 15, 1), po = f(c, 27, 1);
  bool na = f(c, 24, 1), nb = f(c, 25, 1), nc = f(c, 26, 1);
  bool signed_final = sa || sb || (na != nb) || nc;
  i128 tmp = part(s[0], f(c, 0, 4), sa) * part(s[1], f(c, 4, 4), sb);
  uint64_t cc = s[2] & 0xffffffffu;
  int lsb = 0;
  if (po) {
    lsb = 1;
  } else if (na != nb) {
    tmp = ~tmp;
    lsb = 1;
  } else if (nc) {
    cc = ~cc & 0xffffffffu;
    lsb = 1;
  }
  tmp += (signed_final ? i128(sext(cc, 32)) : i128(cc)) + lsb;
  unsigned scale = f(c, 22, 2);
  if (scale != 0) tmp >>= scale == 1 ? 7 : 15;
  if (sat) tmp = clamp_to(tmp, 32, signed_final);
  return static_cast<uint64_t>(tmp) & 0xffffffffu;
}

// vset: tmp = (ta cmp tb) ? 1 : 0, then the secondary operation or merge.
uint64_t vset(const uint64_t* s, uint64_t*, uint64_t c) {
  bool sa = f(c, 12, 1), sb = f(c, 13, 1);
  i128 ta = part(s[0], f(c, 0, 4), sa), tb = part(s[1], f(c, 4, 4), sb);
  bool t;
  switch (f(c, 28, 3)) {
    case 0: t = ta == tb; break;
    case 1: t = ta != tb; break;
    case 2: t = ta < tb; break;
    case 3: t = ta <= tb; break;
    case 4: t = ta > tb; break;
    default: t = ta >= tb; break;
  }
  return finish_v(t ? 1 : 0, s, c, false);
}

int sel_code(std::string_view v) {
  static const char* kSel[] = {"b0", "b1", "b2", "b3", "h0", "h1"};
  for (int i = 0; i < 6; ++i)
    if (v == kSel[i]) return i + 1;
  return -1;
}

}  // namespace

Res resolve_video(const Parsed& p, OpDesc& d, std::string& err) {
  static const char* kOps[] = {"vadd", "vsub", "vabsdiff", "vmin", "vmax", "vshl", "vshr", "vmad", "vset"};
  uint32_t op = 99;
  for (uint32_t i = 0; i < 9; ++i)
    if (p.op == kOps[i]) op = i;
  if (op == 99) return Res::not_mine;
  auto bad = [&](const std::string& m) { err = m; return Res::error; };
  size_t nty = op == v_set ? 2 : 3;
  if (p.types.size() != nty) return bad("needs " + std::to_string(nty) + " types");
  for (Ty t : p.types)
    if (t != Ty::u32 && t != Ty::s32) return bad("types must be .u32 or .s32");
  Ty dt = op == v_set ? Ty::u32 : p.types[0];
  Ty at = p.types[nty - 2], bt = p.types[nty - 1];
  if ((op == v_shl || op == v_shr) && bt != Ty::u32) return bad("shift amount type must be .u32");
  uint32_t c = (uint32_t(at == Ty::s32) << 12) | (uint32_t(bt == Ty::s32) << 13) |
               (uint32_t(dt == Ty::s32) << 14) | (op << 16);
  int nsel = 0, nop2 = 0, nmode = 0, ncmp = 0;
  static const char* kCmp[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  for (const auto& m : p.mods) {
    std::string_view v = m;
    if (v.size() == 7 && v.substr(1, 4) == "sel_" && sel_code(v.substr(5)) > 0) {
      uint32_t code = static_cast<uint32_t>(sel_code(v.substr(5)));
      if (v[0] == 'a') c |= code;
      else if (v[0] == 'b') c |= code << 4;
      else if (v[0] == 'd') c |= code << 8, ++nsel;
      else return bad("unknown selector ." + m);
    } else if (v == "sat") {
      c |= 1u << 15;
    } else if (v == "add" || v == "min" || v == "max") {
      c |= (v == "add" ? 1u : v == "min" ? 2u : 3u) << 20;
      ++nop2;
    } else if ((v == "clamp" || v == "wrap") && (op == v_shl || op == v_shr)) {
      c |= uint32_t(v == "clamp") << 22;
      ++nmode;
    } else if ((v == "shr7" || v == "shr15") && op == v_mad) {
      c |= (v == "shr7" ? 1u : 2u) << 22;
    } else if ((v == "neg_a" || v == "neg_b" || v == "neg_c") && op == v_mad) {
      c |= 1u << (24 + (v[4] - 'a'));
    } else if (v == "po" && op == v_mad) {
      c |= 1u << 27;
    } else {
      bool cmp = false;
      for (uint32_t i = 0; i < 6 && op == v_set; ++i)
        if (v == kCmp[i]) c |= i << 28, cmp = true;
      if (!cmp) return bad("modifier ." + m + " not allowed");
      ++ncmp;
    }
  }
  if ((op == v_shl || op == v_shr) && nmode != 1) return bad("needs .clamp or .wrap");
  if (op == v_set && ncmp != 1) return bad("needs one compare operator");
  if (nsel + nop2 > 1 || (op == v_mad && nsel + nop2 > 0)) return bad("at most one of .op2 and d.dsel");
  if (op == v_mad && (c & (1u << 27)) != 0 && (c & (7u << 24)) != 0) return bad(".po with negated operands");
  bool three = nsel + nop2 > 0 || op == v_mad;
  OpFn fn = op == v_mad ? vmad : op == v_set ? vset : vscalar;
  d = three ? make_desc(fn, c, dt, {at, bt, dt}) : make_desc(fn, c, dt, {at, bt});
  return Res::ok;
}

}  // namespace ptxcheck::arith
