// SIMD video instructions: vadd2 vsub2 vavrg2 vabsdiff2 vmin2 vmax2 vset2
// and their 4-lane forms (PTX ISA 9.0 9.7.18.2, "SIMD Video Instructions",
// docs.nvidia.com/cuda/parallel-thread-execution). Lanes are half-words (x2)
// or bytes (x4) picked from the 64-bit pair {b, a} by the selectors.
//
// Selectors and the destination mask are operand syntax (a.h10, b.b7654,
// d.h1); the interpreter passes them as tokens asel_h10, bsel_b7654,
// dsel_h1. Defaults: asel .h10/.b3210, bsel .h32/.b7654, mask all lanes.
// cfg: bits 0-11 asel (3 bits per lane), 12-23 bsel, 24-27 lane mask,
// bit 28 .sat, 29 .add, 30 a signed, 31 b signed, 32 d signed, 33-35 op,
// 36-38 vset compare, 39 four lanes.
#include <algorithm>
#include <cstdint>

#include "semantics/arith/family.hpp"
#include "semantics/arith/intutil.hpp"

namespace ptxcheck::arith {
namespace {

enum SOp : uint64_t { s_add, s_sub, s_avrg, s_absdiff, s_min, s_max, s_set };

uint64_t fld(uint64_t c, int lo, int n) { return (c >> lo) & ((uint64_t(1) << n) - 1); }

// extractAndSignExt: lane i of the selected sub-words of {b, a}.
int64_t lane(uint64_t a, uint64_t b, uint64_t sel, unsigned i, unsigned lw, bool sg) {
  uint64_t pair = ((b & 0xffffffffu) << 32) | (a & 0xffffffffu);
  unsigned idx = fld(sel, 3 * i, 3);
  uint64_t v = (pair >> (lw * idx)) & mask(lw);
  return sg ? sext(v, lw) : static_cast<int64_t>(v);
}

uint64_t simd(const uint64_t* s, uint64_t*, uint64_t c) {
  bool four = fld(c, 39, 1) != 0;
  unsigned n = four ? 4 : 2, lw = four ? 8 : 16;
  bool sa = fld(c, 30, 1), sb = fld(c, 31, 1), sd = fld(c, 32, 1);
  bool sat = fld(c, 28, 1), add = fld(c, 29, 1);
  uint64_t op = fld(c, 33, 3), msk = fld(c, 24, 4);
  uint64_t acc = s[2] & 0xffffffffu, merged = 0;
  for (unsigned i = 0; i < n; ++i) {
    int64_t x = lane(s[0], s[1], fld(c, 0, 12), i, lw, sa);
    int64_t y = lane(s[0], s[1], fld(c, 12, 12), i, lw, sb);
    int64_t t;
    switch (op) {
      case s_add: t = x + y; break;
      case s_sub: t = x - y; break;
      case s_avrg: t = (x + y >= 0) ? (x + y + 1) >> 1 : (x + y) >> 1; break;
      case s_absdiff: t = x > y ? x - y : y - x; break;
      case s_min: t = std::min(x, y); break;
      case s_max: t = std::max(x, y); break;
      default: {
        bool r;
        switch (fld(c, 36, 3)) {
          case 0: r = x == y; break;
          case 1: r = x != y; break;
          case 2: r = x < y; break;
          case 3: r = x <= y; break;
          case 4: r = x > y; break;
          default: r = x >= y; break;
        }
        t = r ? 1 : 0;
      }
    }
    if (sat) {
      int64_t lo = sd ? -(int64_t(1) << (lw - 1)) : 0;
      int64_t hi = sd ? (int64_t(1) << (lw - 1)) - 1 : (int64_t(1) << lw) - 1;
      t = std::clamp(t, lo, hi);
    }
    bool on = ((msk >> i) & 1) != 0;
    if (add) {
      if (on) acc += static_cast<uint64_t>(t);
    } else {
      uint64_t v = on ? static_cast<uint64_t>(t) : (s[2] >> (lw * i));
      merged |= (v & mask(lw)) << (lw * i);
    }
  }
  return (add ? acc : merged) & 0xffffffffu;
}

// Parses "h10" / "b3210" (digits name lanes from the highest down) into
// 3-bit lane indices; false when malformed.
bool parse_sel(std::string_view v, unsigned n, uint64_t* out) {
  if (v.size() != n + 1 || v[0] != (n == 2 ? 'h' : 'b')) return false;
  uint64_t r = 0;
  for (unsigned i = 0; i < n; ++i) {
    int dgt = v[n - i] - '0';
    if (dgt < 0 || dgt >= int(2 * n)) return false;
    r |= uint64_t(dgt) << (3 * i);
  }
  *out = r;
  return true;
}

// Destination mask "h0" "h1" "h10" / "b0".."b3210": the listed lanes.
bool parse_mask(std::string_view v, unsigned n, uint64_t* out) {
  if (v.size() < 2 || v[0] != (n == 2 ? 'h' : 'b')) return false;
  uint64_t m = 0;
  for (size_t i = 1; i < v.size(); ++i) {
    int dgt = v[i] - '0';
    if (dgt < 0 || dgt >= int(n)) return false;
    m |= uint64_t(1) << dgt;
  }
  *out = m;
  return true;
}

}  // namespace

Res resolve_video_simd(const Parsed& p, OpDesc& d, std::string& err) {
  static const char* kOps[] = {"vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax", "vset"};
  const std::string& o = p.op;
  if (o.size() < 2 || (o.back() != '2' && o.back() != '4')) return Res::not_mine;
  std::string base = o.substr(0, o.size() - 1);
  uint64_t op = 99;
  for (uint64_t i = 0; i < 7; ++i)
    if (base == kOps[i]) op = i;
  if (op == 99) return Res::not_mine;
  auto bad = [&](const std::string& m) { err = m; return Res::error; };
  bool four = o.back() == '4';
  unsigned n = four ? 4 : 2;
  size_t nty = op == s_set ? 2 : 3;
  if (p.types.size() != nty) return bad("needs " + std::to_string(nty) + " types");
  for (Ty t : p.types)
    if (t != Ty::u32 && t != Ty::s32) return bad("types must be .u32 or .s32");
  Ty dt = op == s_set ? Ty::u32 : p.types[0];
  Ty at = p.types[nty - 2], bt = p.types[nty - 1];
  uint64_t asel = four ? 0x688u /* 3 2 1 0 */ : 0x08u /* 1 0 */;
  uint64_t bsel = four ? 0xfacu /* 7 6 5 4 */ : 0x1au /* 3 2 */;
  uint64_t msk = four ? 0xf : 0x3;
  uint64_t c = (uint64_t(at == Ty::s32) << 30) | (uint64_t(bt == Ty::s32) << 31) |
               (uint64_t(dt == Ty::s32) << 32) | (op << 33) | (uint64_t(four) << 39);
  static const char* kCmp[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  int ncmp = 0;
  for (const auto& m : p.mods) {
    std::string_view v = m;
    if (v.substr(0, 5) == "asel_") {
      if (!parse_sel(v.substr(5), n, &asel)) return bad("bad selector ." + m);
    } else if (v.substr(0, 5) == "bsel_") {
      if (!parse_sel(v.substr(5), n, &bsel)) return bad("bad selector ." + m);
    } else if (v.substr(0, 5) == "dsel_") {
      if (!parse_mask(v.substr(5), n, &msk)) return bad("bad mask ." + m);
    } else if (v == "sat") {
      c |= uint64_t(1) << 28;
    } else if (v == "add") {
      c |= uint64_t(1) << 29;
    } else {
      bool cmp = false;
      for (uint64_t i = 0; i < 6 && op == s_set; ++i)
        if (v == kCmp[i]) c |= i << 36, cmp = true;
      if (!cmp) return bad("modifier ." + m + " not allowed");
      ++ncmp;
    }
  }
  if (op == s_set && ncmp != 1) return bad("needs one compare operator");
  if ((c >> 28 & 3) == 3) return bad(".sat with .add");
  c |= asel | (bsel << 12) | (msk << 24);
  d = make_desc(simd, c, dt, {at, bt, dt});
  return Res::ok;
}

}  // namespace ptxcheck::arith
