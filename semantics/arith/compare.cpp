// Comparisons: set (PTX ISA 9.7.6.1 set), setp (9.7.6.2 setp), slct (9.7.6.4
// slct) and the half-precision set/setp (9.7.7.1-2 Half Precision Comparison
// Instructions). Compare operators per the 9.7.6 tables for integer, bit-size and float types.
// cfg: bits 0-3 mask of true relations (LT EQ GT UNORDERED), bits 4-5 BoolOp,
// bit 6 ftz, bits 8-11 kind, bits 12-19 width, bit 20 x2 lanes,
// bits 24-27 set's destination kind.
#include <cstdint>

#include "semantics/arith/family.hpp"
#include "semantics/arith/intutil.hpp"

namespace ptxcheck::arith {
namespace {

enum Rel : uint32_t { LT = 1, EQ = 2, GT = 4, UN = 8 };
enum Kind : uint32_t { k_uint, k_sint, k_f16, k_bf16, k_f32, k_f64 };
enum Dst : uint32_t { d_pred, d_int, d_f32, d_f16, d_bf16, d_int16 };

const Fmt* fmt_of(uint32_t kind) {
  switch (kind) {
    case k_f16: return &kF16;
    case k_bf16: return &kBF16;
    case k_f32: return &kF32;
    case k_f64: return &kF64;
    default: return nullptr;
  }
}

uint32_t relation(uint64_t a, uint64_t b, uint32_t c) {
  uint32_t kind = (c >> 8) & 0xf, w = (c >> 12) & 0xff;
  if (kind == k_uint) {
    a &= mask(w);
    b &= mask(w);
    return a < b ? LT : a == b ? EQ : GT;
  }
  if (kind == k_sint) {
    int64_t x = sext(a, w), y = sext(b, w);
    return x < y ? LT : x == y ? EQ : GT;
  }
  // Floats, on the bit patterns (all four formats are IEEE-style here):
  // NaN is unordered, zeros of either sign are equal, .ftz flushes
  // subnormal operands first, otherwise sign-magnitude order.
  const Fmt& f = *fmt_of(kind);
  uint64_t sign = uint64_t(1) << (f.width() - 1), magm = sign - 1;
  uint64_t expm = ((uint64_t(1) << f.ebits) - 1) << f.mbits;
  uint64_t ma = a & magm, mb = b & magm;
  if (ma > expm || mb > expm) return UN;
  if ((c & (1u << 6)) != 0) {
    if ((ma & expm) == 0) ma = 0;
    if ((mb & expm) == 0) mb = 0;
  }
  if (ma == 0 && mb == 0) return EQ;  // +0 == -0
  auto key = [&](uint64_t bits, uint64_t mag) {
    return (bits & sign) != 0 ? -static_cast<int64_t>(mag) : static_cast<int64_t>(mag);
  };
  int64_t ka = key(a, ma), kb = key(b, mb);
  return ka < kb ? LT : ka == kb ? EQ : GT;
}

bool combine(bool t, uint64_t pc, uint32_t c) {
  bool p = (pc & 1) != 0;
  switch ((c >> 4) & 3) {
    case 1: return t && p;
    case 2: return t || p;
    case 3: return t != p;
    default: return t;
  }
}

// setp: p = cmp BoolOp c, q = !cmp BoolOp c; on x2 types p is the low lane
// and q the high lane (9.7.4.x setp).
uint64_t setp(const uint64_t* s, uint64_t* aux, uint64_t c) {
  uint32_t m = c & 0xf;
  if ((c & (1u << 20)) != 0) {
    bool lo = (relation(s[0] & 0xffff, s[1] & 0xffff, c) & m) != 0;
    bool hi = (relation((s[0] >> 16) & 0xffff, (s[1] >> 16) & 0xffff, c) & m) != 0;
    *aux = combine(hi, s[2], c);
    return combine(lo, s[2], c);
  }
  bool t = (relation(s[0], s[1], c) & m) != 0;
  *aux = combine(!t, s[2], c);
  return combine(t, s[2], c);
}

uint64_t true_value(uint32_t dst, unsigned lane_bits) {
  switch (dst) {
    case d_f32: return 0x3f800000;
    case d_f16: return 0x3c00;
    case d_bf16: return 0x3f80;
    case d_int16: return 0xffff;
    default: return mask(lane_bits);
  }
}

// set: d = (cmp BoolOp c) ? 1.0 or all ones : 0.
uint64_t set(const uint64_t* s, uint64_t*, uint64_t c) {
  uint32_t m = c & 0xf, dst = (c >> 24) & 0xf;
  if ((c & (1u << 20)) != 0) {
    uint64_t r = 0;
    for (int i = 0; i < 2; ++i) {
      bool t = (relation((s[0] >> (16 * i)) & 0xffff, (s[1] >> (16 * i)) & 0xffff, c) & m) != 0;
      if (combine(t, s[2], c)) r |= true_value(dst, 16) << (16 * i);
    }
    return r;
  }
  bool t = combine((relation(s[0], s[1], c) & m) != 0, s[2], c);
  return t ? true_value(dst, 32) : 0;
}

// slct: d = (c >= 0) ? a : b; for .f32 c, -0 >= 0 holds and NaN selects b.
uint64_t slct(const uint64_t* s, uint64_t*, uint64_t c) {
  bool ge;
  if (((c >> 8) & 0xf) == k_f32) {
    Unp u = unpack(kF32, s[2], (c & (1u << 6)) != 0);
    ge = u.cls == Cls::zero || (u.cls != Cls::nan && !u.sign);
  } else {
    ge = sext(s[2], 32) >= 0;
  }
  return (ge ? s[0] : s[1]) & mask((c >> 12) & 0xff);
}

bool kind_of(Ty t, uint32_t* kind, bool* x2) {
  *x2 = false;
  switch (t) {
    case Ty::b16: case Ty::b32: case Ty::b64: case Ty::u16: case Ty::u32: case Ty::u64:
      *kind = k_uint; return true;
    case Ty::s16: case Ty::s32: case Ty::s64: *kind = k_sint; return true;
    case Ty::f16: *kind = k_f16; return true;
    case Ty::bf16: *kind = k_bf16; return true;
    case Ty::f32: *kind = k_f32; return true;
    case Ty::f64: *kind = k_f64; return true;
    case Ty::f16x2: *kind = k_f16; *x2 = true; return true;
    case Ty::bf16x2: *kind = k_bf16; *x2 = true; return true;
    default: return false;
  }
}

struct CmpName {
  const char* name;
  uint32_t mask;
  bool float_only, int_ok;
  bool force_unsigned;
};
constexpr CmpName kCmps[] = {
    {"eq", EQ, false, true, false},          {"ne", LT | GT, false, true, false},
    {"lt", LT, false, true, false},          {"le", LT | EQ, false, true, false},
    {"gt", GT, false, true, false},          {"ge", GT | EQ, false, true, false},
    {"lo", LT, false, true, true},           {"ls", LT | EQ, false, true, true},
    {"hi", GT, false, true, true},           {"hs", GT | EQ, false, true, true},
    {"equ", EQ | UN, true, false, false},    {"neu", LT | GT | UN, true, false, false},
    {"ltu", LT | UN, true, false, false},    {"leu", LT | EQ | UN, true, false, false},
    {"gtu", GT | UN, true, false, false},    {"geu", GT | EQ | UN, true, false, false},
    {"num", LT | EQ | GT, true, false, false}, {"nan", UN, true, false, false},
};

}  // namespace

fast::Form compare_fast_form(const OpDesc& d) {
  const auto c = static_cast<uint32_t>(d.cfg);
  const uint32_t kind = (c >> 8) & 0xf;
  fast::Form f;
  const bool num = kind == k_uint || kind == k_sint || kind == k_f32 || kind == k_f64;
  if (d.fn != setp || !num || (c & (1u << 20)) != 0 || ((c >> 4) & 3) != 0) return f;
  f.op = kind == k_f32 ? fast::Op::setp_f32 : kind == k_f64 ? fast::Op::setp_f64 : fast::Op::setp;
  f.ftz = (c & (1u << 6)) != 0;
  f.w = static_cast<uint8_t>((c >> 12) & 0xff);
  f.sg = kind == k_sint;
  f.rel = static_cast<uint8_t>(c & 0xf);
  return f;
}

Res resolve_compare(const Parsed& p, OpDesc& d, std::string& err) {
  const std::string& op = p.op;
  if (op != "setp" && op != "set" && op != "slct") return Res::not_mine;
  auto bad = [&](const std::string& m) { err = m; return Res::error; };
  if (op == "slct") {
    if (p.types.size() != 2) return bad("needs .dtype and .s32/.f32");
    Ty ct = p.types[1];
    if (ct != Ty::s32 && ct != Ty::f32) return bad("selector type must be .s32 or .f32");
    static constexpr Ty kData[] = {Ty::b16, Ty::b32, Ty::b64, Ty::u16, Ty::u32, Ty::u64,
                                   Ty::s16, Ty::s32, Ty::s64, Ty::f32, Ty::f64};
    bool ok = false;
    for (Ty t : kData) ok = ok || t == p.types[0];
    if (!ok) return bad("slct data type must be a 16/32/64-bit integer, .f32 or .f64");
    std::string stray;
    if (!p.only({"ftz"}, &stray)) return bad("modifier ." + stray + " not allowed");
    if (p.has("ftz") && ct != Ty::f32) return bad(".ftz needs .f32");
    uint32_t c = ((ct == Ty::f32 ? k_f32 : k_sint) << 8) | (ty_bits(p.types[0]) << 12) |
                 (p.has("ftz") ? 1u << 6 : 0);
    d = make_desc(slct, c, p.types[0], {p.types[0], p.types[0], ct});
    return Res::ok;
  }
  bool is_set = op == "set";
  size_t nty = is_set ? 2 : 1;
  if (p.types.size() != nty) return bad(is_set ? "needs .dtype.stype" : "needs one type");
  Ty st = p.types[nty - 1];
  uint32_t kind;
  bool x2;
  if (!kind_of(st, &kind, &x2)) return bad("unsupported type");
  bool is_float = kind >= k_f16;
  uint32_t c = (kind << 8) | (ty_bits(st) << 12) | (x2 ? 1u << 20 : 0);
  int ncmp = 0, nbool = 0;
  bool bits_type = st == Ty::b16 || st == Ty::b32 || st == Ty::b64;
  for (const auto& m : p.mods) {
    bool known = false;
    for (const auto& k : kCmps)
      if (m == k.name) {
        if (k.float_only && !is_float) return bad("." + m + " needs a float type");
        if (!k.int_ok && !is_float) return bad("." + m + " needs a float type");
        // 9.7.5 operator tables: bit-size types compare eq/ne only; lo ls hi
        // hs are unsigned-only and not float (ptxas agrees).
        if (bits_type && k.mask != EQ && k.mask != (LT | GT)) return bad("." + m + " not defined for bit-size types");
        if (k.force_unsigned && (kind == k_sint || is_float)) return bad("." + m + " needs an unsigned type");
        c |= k.mask;
        ++ncmp;
        known = true;
      }
    if (m == "and" || m == "or" || m == "xor") {
      c |= (m == "and" ? 1u : m == "or" ? 2u : 3u) << 4;
      ++nbool;
      known = true;
    }
    if (m == "ftz") {
      if (kind != k_f32 && kind != k_f16) return bad(".ftz needs .f32 or .f16");
      c |= 1u << 6;
      known = true;
    }
    if (!known) return bad("modifier ." + m + " not allowed");
  }
  if (ncmp != 1) return bad("needs exactly one compare operator");
  if (nbool > 1) return bad("at most one BoolOp");
  bool has_c = nbool == 1;
  Ty dt = Ty::pred;
  if (is_set) {
    dt = p.types[0];
    uint32_t dk;
    if ((dt == Ty::bf16 || dt == Ty::bf16x2) && (c & (1u << 6)) != 0)
      return bad(".ftz not allowed with a bf16 destination");
    if (x2) {
      if (dt == Ty::f16x2 && kind == k_f16) dk = d_f16;
      else if (dt == Ty::bf16x2 && kind == k_bf16) dk = d_bf16;
      else if (dt == Ty::u32 || dt == Ty::s32) dk = d_int;
      else return bad("x2 set needs .f16x2/.bf16x2/.u32/.s32 destination");
    } else if (dt == Ty::u32 || dt == Ty::s32) {
      dk = d_int;
    } else if (dt == Ty::f32 && kind != k_f16 && kind != k_bf16) {
      dk = d_f32;
    } else if (dt == Ty::f16 && kind != k_bf16) {  // 9.7.6.1: f16/bf16 results
      dk = d_f16;
    } else if (dt == Ty::bf16 && kind != k_bf16) {
      dk = d_bf16;
    } else if ((dt == Ty::u16 || dt == Ty::s16) && (kind == k_f16 || kind == k_bf16)) {
      dk = d_int16;
    } else {
      return bad("unsupported set destination type");
    }
    c |= dk << 24;
  }
  OpFn fn = is_set ? set : setp;
  d = has_c ? make_desc(fn, c, dt, {st, st, Ty::pred}) : make_desc(fn, c, dt, {st, st});
  // Scalar f16/bf16 setp has a single destination (9.7.6.2).
  d.aux_out = !is_set && (x2 || (kind != k_f16 && kind != k_bf16));
  return Res::ok;
}

}  // namespace ptxcheck::arith
