// Bit manipulation, logic and data movement that is pure arithmetic.
// PTX ISA 9.7.1.14-24 Integer Arithmetic Instructions (popc clz bfind brev bfe
// bfi szext bmsk dp4a dp2a), 9.7.8 Logic and Shift Instructions (and or xor not
// cnot lop3 shf shl shr), 9.7.9.3 mov, 9.7.9.7 prmt, 9.7.6.3 selp.
// cfg: bits 0-7 width, bit 8 signed, 16+ sub-op.
#include <algorithm>
#include <cstdint>

#include "semantics/arith/family.hpp"
#include "semantics/arith/intutil.hpp"

namespace ptxcheck::arith {
namespace {

constexpr uint32_t kSg = 1u << 8;
unsigned W(uint32_t c) { return c & 0xff; }
bool Sg(uint32_t c) { return (c & kSg) != 0; }

uint64_t popc(const uint64_t* s, uint64_t*, uint64_t c) {
  return static_cast<uint64_t>(__builtin_popcountll(s[0] & mask(W(c))));
}
uint64_t clz(const uint64_t* s, uint64_t*, uint64_t c) {
  uint64_t a = s[0] & mask(W(c));
  return a == 0 ? W(c) : static_cast<uint64_t>(__builtin_clzll(a)) - (64 - W(c));
}
uint64_t brev(const uint64_t* s, uint64_t*, uint64_t c) {
  uint64_t a = s[0], r = 0;
  for (unsigned i = 0; i < W(c); ++i) r |= ((a >> i) & 1) << (W(c) - 1 - i);
  return r;
}

// bfind (9.7.1.16): position of the most significant non-sign bit, or
// 0xffffffff when there is none; .shiftamt returns (w-1) - position.
uint64_t bfind(const uint64_t* s, uint64_t*, uint64_t c) {
  unsigned w = W(c);
  uint64_t a = s[0] & mask(w);
  if (Sg(c) && sext(a, w) < 0) a = ~a & mask(w);
  if (a == 0) return 0xffffffffu;
  unsigned pos = 63 - __builtin_clzll(a);
  return cfg::sub(c) != 0 ? (w - 1 - pos) : pos;
}

// pos and len of bfe/bfi. PTX ISA 9.7.1.19-20: "Operands b and c (c and d)
// are type .u32, but are restricted to the 8-bit value range 0..255"; the
// pseudocode takes pos = b & 0xff, len = c & 0xff. A value above 255 is
// outside the operand's range: ptxcheck does what an H200 does
// (corpus/hw/h200/instr, docs/approx.md): the .32 forms use the low 8 bits,
// the .64 forms the whole u32 value.
uint64_t field_arg(uint64_t v, unsigned w) { return w == 64 ? v & 0xffffffffu : v & 0xff; }

// bfe (9.7.1.19): bits past the msb and, for signed types, bits past the
// field read the field's sign bit.
uint64_t bfe(const uint64_t* s, uint64_t*, uint64_t c) {
  unsigned w = W(c), msb = w - 1;
  uint64_t a = s[0];
  uint64_t pos = field_arg(s[1], w), len = field_arg(s[2], w);
  uint64_t sbit = 0;
  if (Sg(c) && len != 0) sbit = (a >> std::min<uint64_t>(pos + len - 1, msb)) & 1;
  uint64_t d = 0;
  for (unsigned i = 0; i <= msb; ++i) {
    uint64_t bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
    d |= bit << i;
  }
  return d;
}

// bfi (9.7.1.20): insert a[len-1:0] into b at pos.
uint64_t bfi(const uint64_t* s, uint64_t*, uint64_t c) {
  unsigned w = W(c), msb = w - 1;
  uint64_t d = s[1] & mask(w);
  uint64_t pos = field_arg(s[2], w), len = field_arg(s[3], w);
  for (uint64_t i = 0; i < len && pos + i <= msb; ++i)
    d = (d & ~(uint64_t(1) << (pos + i))) | (((s[0] >> i) & 1) << (pos + i));
  return d;
}

// szext (9.7.1.21): sign- or zero-extend the low b bits of a; .wrap takes
// b mod 32, .clamp min(b, 32).
uint64_t szext(const uint64_t* s, uint64_t*, uint64_t c) {
  uint64_t b = s[1] & 0xffffffffu;
  unsigned n = (cfg::sub(c) & 1) != 0 ? static_cast<unsigned>(std::min<uint64_t>(b, 32)) : b & 31;
  if (n == 0) return 0;
  uint64_t v = s[0] & mask(n);
  return (Sg(c) ? static_cast<uint64_t>(sext(v, n)) : v) & 0xffffffffu;
}

// bmsk (9.7.1.22): mask of len b starting at a; .clamp clamps both to 32,
// .wrap takes both mod 32.
uint64_t bmsk(const uint64_t* s, uint64_t*, uint64_t c) {
  uint64_t a = s[0] & 0xffffffffu, b = s[1] & 0xffffffffu;
  bool clamp = (cfg::sub(c) & 1) != 0;
  unsigned pos = clamp ? static_cast<unsigned>(std::min<uint64_t>(a, 32)) : a & 31;
  unsigned len = clamp ? static_cast<unsigned>(std::min<uint64_t>(b, 32)) : b & 31;
  if (pos >= 32) return 0;
  return (mask(len) << pos) & 0xffffffffu;
}

// fns (9.7.1.17): position of the |offset|-th set bit of mask counting from
// base upwards (offset > 0) or downwards (offset < 0); offset 0 tests mask[base].
// base > 31 is undefined in the ISA; we return 0xffffffff (nothing found).
uint64_t fns(const uint64_t* s, uint64_t*, uint64_t) {
  uint64_t m = s[0] & 0xffffffffu, base = s[1] & 0xffffffffu;
  int64_t off = sext(s[2], 32);
  if (base > 31) return 0xffffffffu;
  if (off == 0) return ((m >> base) & 1) != 0 ? base : 0xffffffffu;
  int64_t count = (off < 0 ? -off : off) - 1, inc = off > 0 ? 1 : -1;
  for (int64_t pos = static_cast<int64_t>(base); pos >= 0 && pos < 32; pos += inc)
    if (((m >> pos) & 1) != 0 && count-- == 0) return static_cast<uint64_t>(pos);
  return 0xffffffffu;
}

// dp4a (9.7.1.23): four byte products summed into c, 32-bit wrap.
uint64_t dp4a(const uint64_t* s, uint64_t*, uint64_t c) {
  bool sa = (cfg::sub(c) & 1) != 0, sb = (cfg::sub(c) & 2) != 0;
  uint64_t acc = s[2];
  for (int i = 0; i < 4; ++i) {
    uint64_t ab = (s[0] >> (8 * i)) & 0xff, bb = (s[1] >> (8 * i)) & 0xff;
    int64_t x = sa ? sext(ab, 8) : int64_t(ab), y = sb ? sext(bb, 8) : int64_t(bb);
    acc += static_cast<uint64_t>(x * y);
  }
  return acc & 0xffffffffu;
}

// dp2a (9.7.1.24): two 16-bit halves of a times bytes 0,1 (.lo) or 2,3 (.hi) of b.
uint64_t dp2a(const uint64_t* s, uint64_t*, uint64_t c) {
  bool sa = (cfg::sub(c) & 1) != 0, sb = (cfg::sub(c) & 2) != 0, hi = (cfg::sub(c) & 4) != 0;
  uint64_t acc = s[2];
  for (int i = 0; i < 2; ++i) {
    uint64_t ah = (s[0] >> (16 * i)) & 0xffff, bb = (s[1] >> (8 * (i + (hi ? 2 : 0)))) & 0xff;
    int64_t x = sa ? sext(ah, 16) : int64_t(ah), y = sb ? sext(bb, 8) : int64_t(bb);
    acc += static_cast<uint64_t>(x * y);
  }
  return acc & 0xffffffffu;
}

enum Logic : uint32_t { l_and, l_or, l_xor, l_not, l_cnot, l_mov, l_shl, l_shr };
uint64_t logic(const uint64_t* s, uint64_t*, uint64_t c) {
  unsigned w = W(c);
  uint64_t a = s[0] & mask(w), b = s[1];
  switch (cfg::sub(c)) {
    case l_and: return a & b & mask(w);
    case l_or: return (a | b) & mask(w);
    case l_xor: return (a ^ b) & mask(w);
    case l_not: return ~a & mask(w);
    case l_cnot: return a == 0 ? 1 : 0;
    case l_mov: return a;
    case l_shl: {  // shift amounts > width clamp to width (9.7.8.8 shl)
      uint64_t n = b & 0xffffffffu;
      return n >= w ? 0 : (a << n) & mask(w);
    }
    default: {  // shr: .s fills with the sign bit (9.7.8.9 shr)
      uint64_t n = std::min<uint64_t>(b & 0xffffffffu, w);
      if (Sg(c)) return static_cast<uint64_t>(sext(a, w) >> std::min<uint64_t>(n, 63)) & mask(w);
      return n >= w ? 0 : a >> n;
    }
  }
}

// lop3 (9.7.7.6): bit i of d is immLut[(a_i << 2) | (b_i << 1) | c_i].
uint64_t lop3(const uint64_t* s, uint64_t*, uint64_t) {
  uint64_t d = 0, lut = s[3] & 0xff;
  for (int i = 0; i < 32; ++i) {
    unsigned idx = (((s[0] >> i) & 1) << 2) | (((s[1] >> i) & 1) << 1) | ((s[2] >> i) & 1);
    d |= ((lut >> idx) & 1) << i;
  }
  return d;
}

// lop3.BoolOp (PTX ISA 8.2+ lop3, BoolOp in {and, or}): d as above,
// p = (d != 0) BoolOp q.
uint64_t lop3_pred(const uint64_t* s, uint64_t* aux, uint64_t c) {
  uint64_t d = lop3(s, aux, c);
  bool t = d != 0, q = (s[4] & 1) != 0;
  uint32_t op = cfg::sub(c);
  *aux = op == 1 ? (t && q) : op == 2 ? (t || q) : (t != q);
  return d;
}

// shf (9.7.8.7 shf): funnel shift of the 64-bit {b, a}; .clamp min(c, 32), .wrap c mod 32.
uint64_t shf(const uint64_t* s, uint64_t*, uint64_t c) {
  bool right = (cfg::sub(c) & 1) != 0, clamp = (cfg::sub(c) & 2) != 0;
  uint64_t cc = s[2] & 0xffffffffu;
  unsigned n = clamp ? static_cast<unsigned>(std::min<uint64_t>(cc, 32)) : cc & 31;
  uint64_t v = ((s[1] & 0xffffffffu) << 32) | (s[0] & 0xffffffffu);
  return right ? (v >> n) & 0xffffffffu : ((v << n) >> 32) & 0xffffffffu;
}

// prmt (9.7.9.7 prmt): bytes 0-3 are a, 4-7 are b.
uint64_t prmt(const uint64_t* s, uint64_t*, uint64_t c) {
  uint64_t src = ((s[1] & 0xffffffffu) << 32) | (s[0] & 0xffffffffu);
  auto byte = [&](unsigned i) { return (src >> (8 * (i & 7))) & 0xff; };
  unsigned ctl = s[2] & 3;
  uint32_t mode = cfg::sub(c);
  uint64_t d = 0;
  for (unsigned i = 0; i < 4; ++i) {
    uint64_t b;
    switch (mode) {
      case 0: {  // default: selector nibble; bit 3 replicates the byte's sign
        unsigned sel = (s[2] >> (4 * i)) & 0xf;
        b = byte(sel & 7);
        if ((sel & 8) != 0) b = (b & 0x80) != 0 ? 0xff : 0;
        break;
      }
      case 1: b = byte(ctl + i); break;      // f4e
      case 2: b = byte(ctl + 8 - i); break;  // b4e
      case 3: b = byte(ctl); break;          // rc8
      case 4: b = byte(std::max(i, ctl)); break;  // ecl
      case 5: b = byte(std::min(i, ctl)); break;  // ecr
      default: b = byte(((ctl & 1) << 1) + (i & 1)); break;  // rc16
    }
    d |= b << (8 * i);
  }
  return d;
}

// selp (9.7.6.3 selp): d = c ? a : b.
uint64_t selp(const uint64_t* s, uint64_t*, uint64_t c) {
  return ((s[2] & 1) != 0 ? s[0] : s[1]) & mask(W(c));
}

// The types of selp/mov/slct (PTX ISA 9.7.6.3 selp, 9.7.9.3 mov): pred, 16/32/64-bit
// integers and bit types, f32, f64.
bool plain_type(Ty t) {
  switch (t) {
    case Ty::pred: case Ty::b16: case Ty::b32: case Ty::b64: case Ty::u16: case Ty::u32: case Ty::u64:
    case Ty::s16: case Ty::s32: case Ty::s64: case Ty::f32: case Ty::f64: return true;
    default: return false;
  }
}

bool width_of(Ty t, unsigned* w, bool* sg) {
  *w = ty_bits(t);
  *sg = t == Ty::s8 || t == Ty::s16 || t == Ty::s32 || t == Ty::s64;
  return true;
}

}  // namespace

fast::Form bits_fast_form(const OpDesc& d) {
  const auto c = static_cast<uint32_t>(d.cfg);
  fast::Form f;
  f.w = static_cast<uint8_t>(W(c));
  f.sg = Sg(c);
  if (d.fn == selp) {
    f.op = fast::Op::selp;
  } else if (d.fn == logic) {
    switch (cfg::sub(c)) {
      case l_and: f.op = fast::Op::and_; break;
      case l_or: f.op = fast::Op::or_; break;
      case l_xor: f.op = fast::Op::xor_; break;
      case l_not: f.op = fast::Op::not_; break;
      case l_cnot: f.op = fast::Op::cnot; break;
      case l_shl: f.op = fast::Op::shl; break;
      case l_shr: f.op = fast::Op::shr; break;
      default: break;
    }
  }
  return f;
}

Res resolve_bits(const Parsed& p, OpDesc& d, std::string& err) {
  const std::string& op = p.op;
  auto bad = [&](const std::string& m) { err = m; return Res::error; };
  std::string stray;
  if (op == "dp4a" || op == "dp2a") {
    if (p.types.size() != 2) return bad("needs two types");
    auto is_s = [](Ty t) { return t == Ty::s32; };
    for (Ty t : p.types)
      if (t != Ty::s32 && t != Ty::u32) return bad("types must be .u32 or .s32");
    bool anys = is_s(p.types[0]) || is_s(p.types[1]);
    Ty ct = anys ? Ty::s32 : Ty::u32;
    uint32_t sub = uint32_t(is_s(p.types[0])) | (uint32_t(is_s(p.types[1])) << 1);
    if (op == "dp2a") {
      if (p.has("lo") == p.has("hi") || p.mods.size() != 1) return bad("needs exactly one of .lo .hi");
      sub |= p.has("hi") ? 4 : 0;
    } else if (!p.mods.empty()) {
      return bad("no modifiers allowed");
    }
    d = make_desc(op == "dp4a" ? dp4a : dp2a, sub << cfg::kSubShift, ct, {p.types[0], p.types[1], ct});
    return Res::ok;
  }
  if (op == "fns") {
    if (p.types.size() != 1 || p.types[0] != Ty::b32 || !p.mods.empty()) return bad("needs .b32");
    d = make_desc(fns, 0, Ty::b32, {Ty::b32, Ty::b32, Ty::s32});
    return Res::ok;
  }
  static const char* kOps[] = {"popc", "clz", "bfe", "bfi", "bfind", "brev", "prmt", "shf", "shl", "shr",
                               "lop3", "bmsk", "szext", "and", "or", "xor", "not", "cnot", "selp", "mov"};
  bool mine = false;
  for (auto* o : kOps) mine = mine || op == o;
  if (!mine || p.types.size() != 1) return Res::not_mine;
  Ty t = p.types[0];
  unsigned w;
  bool sg;
  width_of(t, &w, &sg);
  uint32_t c = w | (sg ? kSg : 0);
  auto is = [&](std::initializer_list<Ty> ok) {
    for (Ty x : ok)
      if (x == t) return true;
    return false;
  };
  auto nomods = [&]() { return p.mods.empty(); };
  if (op == "popc" || op == "clz" || op == "brev") {
    if (!is({Ty::b32, Ty::b64}) || !nomods()) return bad("needs .b32 or .b64, no modifiers");
    d = make_desc(op == "popc" ? popc : op == "clz" ? clz : brev, c, op == "brev" ? t : Ty::u32, {t});
  } else if (op == "bfind") {
    if (!is({Ty::u32, Ty::u64, Ty::s32, Ty::s64})) return bad("needs .u32 .u64 .s32 .s64");
    if (!p.only({"shiftamt"}, &stray)) return bad("modifier ." + stray + " not allowed");
    d = make_desc(bfind, c | (uint32_t(p.has("shiftamt")) << cfg::kSubShift), Ty::u32, {t});
  } else if (op == "bfe") {
    if (!is({Ty::u32, Ty::u64, Ty::s32, Ty::s64}) || !nomods()) return bad("needs .u32 .u64 .s32 .s64");
    d = make_desc(bfe, c, t, {t, Ty::u32, Ty::u32});
  } else if (op == "bfi") {
    if (!is({Ty::b32, Ty::b64}) || !nomods()) return bad("needs .b32 or .b64");
    d = make_desc(bfi, c, t, {t, t, Ty::u32, Ty::u32});
  } else if (op == "szext" || op == "bmsk") {
    if (p.mods.size() != 1 || !(p.has("clamp") || p.has("wrap"))) return bad("needs .clamp or .wrap");
    if (op == "szext" && !is({Ty::u32, Ty::s32})) return bad("needs .u32 or .s32");
    if (op == "bmsk" && t != Ty::b32) return bad("needs .b32");
    uint32_t sub = uint32_t(p.has("clamp"));
    d = make_desc(op == "szext" ? szext : bmsk, c | (sub << cfg::kSubShift), t, {t, Ty::u32});
  } else if (op == "prmt") {
    if (t != Ty::b32) return bad("needs .b32");
    static const char* kModes[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
    uint32_t mode = 0;
    if (p.mods.size() > 1) return bad("at most one mode");
    for (uint32_t i = 0; i < 6; ++i)
      if (p.has(kModes[i])) mode = i + 1;
    if (p.mods.size() == 1 && mode == 0) return bad("unknown mode ." + p.mods[0]);
    d = make_desc(prmt, c | (mode << cfg::kSubShift), t, {t, t, t});
  } else if (op == "shf") {
    if (t != Ty::b32) return bad("needs .b32");
    if (p.mods.size() != 2 || p.has("l") == p.has("r") || p.has("wrap") == p.has("clamp"))
      return bad("needs .l or .r and .wrap or .clamp");
    uint32_t sub = uint32_t(p.has("r")) | (uint32_t(p.has("clamp")) << 1);
    d = make_desc(shf, c | (sub << cfg::kSubShift), t, {t, t, Ty::u32});
  } else if (op == "lop3") {
    if (t != Ty::b32 || p.mods.size() > 1) return bad("needs .b32 and at most one BoolOp");
    if (p.mods.empty()) {
      d = make_desc(lop3, c, t, {t, t, t, Ty::b8});
    } else {
      uint32_t bop = p.has("and") ? 1 : p.has("or") ? 2 : 0;  // lop3's BoolOp is .and or .or
      if (bop == 0) return bad("lop3 BoolOp must be .and or .or, not ." + p.mods[0]);
      d = make_desc(lop3_pred, c | (bop << cfg::kSubShift), t, {t, t, t, Ty::b8, Ty::pred});
      d.aux_out = true;
    }
  } else if (op == "selp") {
    if (!nomods() || !plain_type(t) || t == Ty::pred) return bad("selp needs a 16/32/64-bit integer, .f32 or .f64 type");
    d = make_desc(selp, c, t, {t, t, Ty::pred});
  } else {
    if (!nomods()) return bad("no modifiers allowed");
    uint32_t sub = op == "and" ? l_and : op == "or" ? l_or : op == "xor" ? l_xor : op == "not" ? l_not
                 : op == "cnot" ? l_cnot : op == "mov" ? l_mov : op == "shl" ? l_shl : l_shr;
    c |= sub << cfg::kSubShift;
    bool logical = sub <= l_not;
    if (logical && !is({Ty::pred, Ty::b16, Ty::b32, Ty::b64})) return bad("needs .pred .b16 .b32 .b64");
    if (sub == l_cnot && !is({Ty::b16, Ty::b32, Ty::b64})) return bad("needs .b16 .b32 .b64");
    if (sub == l_shl && !is({Ty::b16, Ty::b32, Ty::b64})) return bad("needs .b16 .b32 .b64");
    if (sub == l_shr && !is({Ty::b16, Ty::b32, Ty::b64, Ty::u16, Ty::u32, Ty::u64, Ty::s16, Ty::s32, Ty::s64}))
      return bad("needs a 16/32/64-bit integer type");
    if (sub == l_mov && !plain_type(t)) return bad("mov needs .pred, a 16/32/64-bit integer, .f32 or .f64 type");
    if (sub == l_not || sub == l_cnot || sub == l_mov) d = make_desc(logic, c, t, {t});
    else if (sub == l_shl || sub == l_shr) d = make_desc(logic, c, t, {t, Ty::u32});
    else d = make_desc(logic, c, t, {t, t});
  }
  return Res::ok;
}

}  // namespace ptxcheck::arith
