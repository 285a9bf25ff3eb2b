// Generator for int.vec and bits.vec: integer arithmetic and bit manipulation,
// computed with exact __int128 arithmetic and literal transcriptions of the
// PTX ISA pseudo-code (9.7.1, 9.7.2, 9.7.8, 9.7.9.7 prmt).
#include <algorithm>

#include "common.hpp"

using namespace gen;
using i128 = __int128;

namespace {

struct IT {
  const char* name;
  int w;
  bool s;
};
const IT kTypes[] = {{"u16", 16, false}, {"u32", 32, false}, {"u64", 64, false},
                     {"s16", 16, true},  {"s32", 32, true},  {"s64", 64, true}};

uint64_t M(int w) { return w == 64 ? ~0ull : (1ull << w) - 1; }
i128 V(uint64_t x, const IT& t) {
  x &= M(t.w);
  if (t.s && (x >> (t.w - 1)) & 1) return i128(x) - (i128(1) << t.w);
  return i128(x);
}
uint64_t B(i128 v, int w) { return static_cast<uint64_t>(v) & M(w); }

std::vector<uint64_t> edges(int w) {
  uint64_t m = M(w), h = 1ull << (w - 1);
  return {0, 1, 2, 3, 7, m, m - 1, h, h - 1, h + 1, 0x5a5a5a5a5a5a5a5aull & m, 0x12345678ull & m, m / 3};
}

void gen_int(Vec& v, std::mt19937_64& r) {
  for (const IT& t : kTypes) {
    std::string T = std::string(".") + t.name;
    auto vals = edges(t.w);
    for (int i = 0; i < 4; ++i) vals.push_back(r() & M(t.w));
    for (uint64_t a : vals)
      for (uint64_t b : vals) {
        i128 x = V(a, t), y = V(b, t);
        v.put("add" + T, {a, b}, B(x + y, t.w));
        v.put("sub" + T, {a, b}, B(x - y, t.w));
        v.put("mul.lo" + T, {a, b}, B(x * y, t.w));
        // hi half of the 2w-bit product: arithmetic shift of the exact value
        i128 p = x * y;
        if (!(t.w == 64 && !t.s)) v.put("mul.hi" + T, {a, b}, B(p >> t.w, t.w));
        else {
          unsigned __int128 up = (unsigned __int128)a * b;
          v.put("mul.hi" + T, {a, b}, uint64_t(up >> 64));
        }
        if (t.w < 64) v.put("mul.wide" + T, {a, b}, B(p, 2 * t.w));
        v.put("min" + T, {a, b}, B(std::min(x, y), t.w));
        v.put("max" + T, {a, b}, B(std::max(x, y), t.w));
        // div/rem: truncating; b == 0 gives all ones / a (documented choice);
        // MIN / -1 wraps (the quotient is 2^(w-1), whose w-bit pattern is MIN).
        if (y == 0) {
          v.put("div" + T, {a, b}, M(t.w));
          v.put("rem" + T, {a, b}, a & M(t.w));
        } else {
          v.put("div" + T, {a, b}, B(x / y, t.w));
          v.put("rem" + T, {a, b}, B(x % y, t.w));
        }
        uint64_t c = vals[(a ^ b) % vals.size()];
        v.put("sad" + T, {a, b, c}, B(V(c, t) + (x > y ? x - y : y - x), t.w));
        v.put("mad.lo" + T, {a, b, c}, B(x * y + V(c, t), t.w));
        if (t.w == 32 && t.s) {
          i128 lo = INT32_MIN, hi = INT32_MAX;
          v.put("add.sat.s32", {a, b}, B(std::clamp(x + y, lo, hi), 32));
          v.put("sub.sat.s32", {a, b}, B(std::clamp(x - y, lo, hi), 32));
          v.put("mad.hi.sat.s32", {a, b, c}, B(std::clamp((p >> 32) + V(c, t), lo, hi), 32));
          v.put("max.relu.s32", {a, b}, B(std::max<i128>(std::max(x, y), 0), 32));
          v.put("min.relu.s32", {a, b}, B(std::max<i128>(std::min(x, y), 0), 32));
        }
        if (t.w == 32) {  // 24-bit multiplies: operands are the low 24 bits
          i128 x24 = t.s ? V(a & 0xffffff, {"", 24, true}) : i128(a & 0xffffff);
          i128 y24 = t.s ? V(b & 0xffffff, {"", 24, true}) : i128(b & 0xffffff);
          i128 p24 = x24 * y24;
          v.put(std::string("mul24.lo") + T, {a, b}, B(p24, 32));
          v.put(std::string("mul24.hi") + T, {a, b}, B(p24 >> 16, 32));
          v.put(std::string("mad24.lo") + T, {a, b, c}, B(p24 + V(c, t), 32));
        }
        if (t.w >= 32 && !t.s) {  // carry chains: carry = bit w of the exact sum
          for (uint64_t cin : {0ull, 1ull}) {
            i128 s = i128(a) + i128(b) + cin;
            i128 d = i128(a) - i128(b) - cin;
            v.put2("addc.cc" + T, {a, b, cin}, B(s, t.w), s >> t.w ? 1 : 0);
            v.put2("subc.cc" + T, {a, b, cin}, B(d, t.w), d < 0 ? 1 : 0);
            i128 ml = i128(B(x * y, t.w)) + i128(c) + cin;
            v.put2("madc.lo.cc" + T, {a, b, c, cin}, B(ml, t.w), ml >> t.w ? 1 : 0);
          }
          i128 s = i128(a) + i128(b);
          v.put2("add.cc" + T, {a, b}, B(s, t.w), s >> t.w ? 1 : 0);
          v.put2("sub.cc" + T, {a, b}, B(i128(a) - i128(b), t.w), a < b ? 1 : 0);
        }
      }
    if (t.s)
      for (uint64_t a : vals) {
        v.put("abs" + T, {a}, B(V(a, t) < 0 ? -V(a, t) : V(a, t), t.w));
        v.put("neg" + T, {a}, B(-V(a, t), t.w));
      }
  }
}

// ---- bit manipulation ----

uint64_t bit(uint64_t x, int i) { return (x >> i) & 1; }

void gen_bits(Vec& v, std::mt19937_64& r) {
  std::vector<uint64_t> vals = {0, 1, 0x80000000, 0xffffffff, 0x7fffffff, 0x0000ff00, 0x12345678,
                                0xdeadbeef, 0x8000000000000000ull, ~0ull, 0x00f0000000000000ull};
  for (int i = 0; i < 4; ++i) vals.push_back(r());
  for (int w : {32, 64}) {
    std::string b = w == 32 ? ".b32" : ".b64";
    for (uint64_t a0 : vals) {
      uint64_t a = a0 & M(w);
      int pc = 0, lz = 0;
      for (int i = 0; i < w; ++i) pc += bit(a, i);
      while (lz < w && !bit(a, w - 1 - lz)) ++lz;
      uint64_t rev = 0;
      for (int i = 0; i < w; ++i) rev |= bit(a, i) << (w - 1 - i);
      v.put("popc" + b, {a}, pc);
      v.put("clz" + b, {a}, lz);
      v.put("brev" + b, {a}, rev);
      v.put("not" + b, {a}, ~a & M(w));
      v.put("cnot" + b, {a}, a == 0);
      for (bool s : {false, true}) {
        std::string T = std::string(s ? ".s" : ".u") + std::to_string(w);
        // bfind: most significant non-sign bit
        uint64_t x = a;
        if (s && bit(a, w - 1)) x = ~a & M(w);
        int pos = -1;
        for (int i = w - 1; i >= 0; --i)
          if (bit(x, i)) { pos = i; break; }
        v.put("bfind" + T, {a}, pos < 0 ? 0xffffffffu : uint64_t(pos));
        v.put("bfind.shiftamt" + T, {a}, pos < 0 ? 0xffffffffu : uint64_t(w - 1 - pos));
        for (uint64_t n : std::initializer_list<uint64_t>{0, 1, 5, uint64_t(w - 1), uint64_t(w), uint64_t(w + 1), 200, 0xffffffff}) {
          uint64_t sh = std::min<uint64_t>(n, w);
          uint64_t shr = sh >= uint64_t(w) ? (s && bit(a, w - 1) ? M(w) : 0)
                                           : (s ? B(V(a, {"", w, true}) >> sh, w) : a >> sh);
          v.put("shr" + T, {a, n}, shr);
          if (!s) v.put("shl" + b, {a, n}, sh >= uint64_t(w) ? 0 : (a << sh) & M(w));
        }
        // bfe: literal transcription of the pseudo-code
        for (uint64_t p : {0ull, 3ull, 8ull, 31ull, 40ull, 63ull, 255ull, 0x1104ull})
          for (uint64_t len : {0ull, 1ull, 4ull, 8ull, 32ull, 64ull, 255ull}) {
            // pos/len above 255 are outside the ISA's range 0..255: .64
            // forms use the whole u32 value, as an H200 does (docs/approx.md)
            int64_t msb = w - 1;
            int64_t ps = w == 64 ? int64_t(p) : int64_t(p & 0xff), ln = w == 64 ? int64_t(len) : int64_t(len & 0xff);
            uint64_t sbit = 0;
            if (s && ln > 0) sbit = bit(a, int(std::min<int64_t>(ps + ln - 1, msb)));
            uint64_t d = 0;
            for (int i = 0; i <= msb; ++i)
              d |= ((i < ln && ps + i <= msb) ? bit(a, int(ps + i)) : sbit) << i;
            v.put("bfe" + T, {a, p, len}, d);
          }
      }
      uint64_t bb = vals[(a0 * 7 + 3) % vals.size()] & M(w);
      v.put("and" + b, {a, bb}, a & bb);
      v.put("or" + b, {a, bb}, a | bb);
      v.put("xor" + b, {a, bb}, a ^ bb);
      v.put("selp" + b, {a, bb, 1}, a);
      v.put("selp" + b, {a, bb, 0}, bb);
      for (uint64_t p : {0ull, 4ull, 28ull, 60ull, 300ull})
        for (uint64_t len : {0ull, 3ull, 8ull, 40ull}) {
          uint64_t d = bb;
          const uint64_t ps = w == 64 ? p : p & 0xff, ln = w == 64 ? len : len & 0xff;  // as bfe above
          for (uint64_t i = 0; i < ln && ps + i < uint64_t(w); ++i)
            d = (d & ~(1ull << (ps + i))) | (bit(a, int(i)) << (ps + i));
          v.put("bfi" + b, {a, bb, p, len}, d);
        }
    }
  }
  for (uint64_t a0 : vals)
    for (uint64_t b0 : vals) {
      uint64_t a = a0 & 0xffffffff, b = b0 & 0xffffffff, c = (a0 ^ (b0 >> 7)) & 0xffffffff;
      // lop3: immLut applied to every bit triple
      for (uint64_t lut : {0x00ull, 0xffull, 0x80ull, 0x96ull, 0xe8ull, 0xcaull}) {
        uint64_t d = 0;
        for (int i = 0; i < 32; ++i) d |= bit(lut, bit(a, i) * 4 + bit(b, i) * 2 + bit(c, i)) << i;
        v.put("lop3.b32", {a, b, c, lut}, d);
        uint64_t q = (a ^ lut) & 1;  // lop3.BoolOp: p = (d != 0) BoolOp q
        v.put2("lop3.and.b32", {a, b, c, lut, q}, d, (d != 0) && q);
        v.put2("lop3.or.b32", {a, b, c, lut, q}, d, (d != 0) || q);
      }
      // shf: funnel shift of {b:a}
      for (uint64_t n : {0ull, 13ull, 31ull, 32ull, 33ull}) {
        unsigned __int128 cat = ((unsigned __int128)b << 32) | a;
        uint64_t nw = n & 31, nc = std::min<uint64_t>(n, 32);
        v.put("shf.l.wrap.b32", {a, b, n}, uint64_t((cat << nw) >> 32) & 0xffffffff);
        v.put("shf.l.clamp.b32", {a, b, n}, uint64_t((cat << nc) >> 32) & 0xffffffff);
        v.put("shf.r.wrap.b32", {a, b, n}, uint64_t(cat >> nw) & 0xffffffff);
        v.put("shf.r.clamp.b32", {a, b, n}, uint64_t(cat >> nc) & 0xffffffff);
      }
      // prmt: bytes of {b, a}; selectors from the ISA tables
      uint8_t byt[8];
      for (int i = 0; i < 8; ++i) byt[i] = ((i < 4 ? a : b) >> (8 * (i & 3))) & 0xff;
      uint64_t sel = c;
      uint64_t d = 0;
      for (int i = 0; i < 4; ++i) {
        unsigned s = (sel >> (4 * i)) & 0xf;
        uint64_t x = byt[s & 7];
        if (s & 8) x = (x & 0x80) ? 0xff : 0;
        d |= x << (8 * i);
      }
      v.put("prmt.b32", {a, b, sel}, d);
      static const int f4e[4][4] = {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}};
      static const int b4e[4][4] = {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}};
      static const int rc8[4][4] = {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}};
      static const int ecl[4][4] = {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}};
      static const int ecr[4][4] = {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}};
      static const int rc16[4][4] = {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}};
      const struct { const char* n; const int (*t)[4]; } modes[] = {
          {"f4e", f4e}, {"b4e", b4e}, {"rc8", rc8}, {"ecl", ecl}, {"ecr", ecr}, {"rc16", rc16}};
      for (auto& m : modes) {
        uint64_t dd = 0;
        for (int i = 0; i < 4; ++i) dd |= uint64_t(byt[m.t[c & 3][i]]) << (8 * i);
        v.put(std::string("prmt.") + m.n + ".b32", {a, b, c}, dd);
      }
      // dp4a / dp2a
      for (int sa = 0; sa < 2; ++sa)
        for (int sb = 0; sb < 2; ++sb) {
          std::string at = sa ? ".s32" : ".u32", bt = sb ? ".s32" : ".u32";
          auto sx = [](uint64_t x, int w, bool s) { return s ? int64_t(V(x, {"", w, true})) : int64_t(x & M(w)); };
          int64_t acc = sx(c, 32, sa || sb);
          for (int i = 0; i < 4; ++i) acc += sx(a >> (8 * i), 8, sa) * sx(b >> (8 * i), 8, sb);
          v.put("dp4a" + at + bt, {a, b, c}, uint64_t(acc) & 0xffffffff);
          for (int hi = 0; hi < 2; ++hi) {
            int64_t acc2 = sx(c, 32, sa || sb);
            for (int i = 0; i < 2; ++i) acc2 += sx(a >> (16 * i), 16, sa) * sx(b >> (8 * (i + 2 * hi)), 8, sb);
            v.put(std::string("dp2a.") + (hi ? "hi" : "lo") + at + bt, {a, b, c}, uint64_t(acc2) & 0xffffffff);
          }
        }
    }
  // fns: literal transcription of the PTX ISA 9.0 pseudo-code
  for (uint64_t m : {0xaaaaaaaaull, 0x0ull, 0xffffffffull, 0x80000001ull, 0x12345678ull})
    for (uint64_t base : {0ull, 2ull, 3ull, 16ull, 31ull, 32ull})
      for (int64_t off : {0ll, 1ll, -1ll, 2ll, -2ll, 5ll, -7ll, 40ll}) {
        uint64_t d = 0xffffffff;
        if (base <= 31) {
          if (off == 0) {
            if (bit(m, int(base))) d = base;
          } else {
            int64_t pos = int64_t(base), count = (off < 0 ? -off : off) - 1, inc = off > 0 ? 1 : -1;
            while (pos >= 0 && pos < 32) {
              if (bit(m, int(pos))) {
                if (count == 0) { d = uint64_t(pos); break; }
                count = count - 1;
              }
              pos = pos + inc;
            }
          }
        }
        v.put("fns.b32", {m, base, uint64_t(off) & 0xffffffff}, d);
      }
  // u16x2 / s16x2 lanes: add/sub wrap, min/max (+.relu on s16x2)
  for (uint64_t a : vals)
    for (uint64_t b : vals) {
      uint64_t x = a & 0xffffffff, y = (b >> 7) & 0xffffffff;
      uint64_t add = 0, sub = 0, umin = 0, umax = 0, smin = 0, smax = 0, rmin = 0, rmax = 0;
      for (int i = 0; i < 2; ++i) {
        uint64_t p = (x >> (16 * i)) & 0xffff, q = (y >> (16 * i)) & 0xffff;
        int64_t sp = int16_t(uint16_t(p)), sq = int16_t(uint16_t(q));
        add |= ((p + q) & 0xffff) << (16 * i);
        sub |= ((p - q) & 0xffff) << (16 * i);
        umin |= std::min(p, q) << (16 * i);
        umax |= std::max(p, q) << (16 * i);
        smin |= (uint64_t(std::min(sp, sq)) & 0xffff) << (16 * i);
        smax |= (uint64_t(std::max(sp, sq)) & 0xffff) << (16 * i);
        rmin |= (uint64_t(std::max<int64_t>(std::min(sp, sq), 0)) & 0xffff) << (16 * i);
        rmax |= (uint64_t(std::max<int64_t>(std::max(sp, sq), 0)) & 0xffff) << (16 * i);
      }
      v.put("add.u16x2", {x, y}, add);
      v.put("add.s16x2", {x, y}, add);
      v.put("min.u16x2", {x, y}, umin);
      v.put("max.u16x2", {x, y}, umax);
      v.put("min.s16x2", {x, y}, smin);
      v.put("max.s16x2", {x, y}, smax);
      v.put("min.relu.s16x2", {x, y}, rmin);
      v.put("max.relu.s16x2", {x, y}, rmax);
    }
  // bmsk / szext over all small positions and lengths
  for (uint64_t p : {0ull, 1ull, 5ull, 16ull, 31ull, 32ull, 33ull, 0xffffffffull})
    for (uint64_t n : {0ull, 1ull, 7ull, 16ull, 31ull, 32ull, 40ull}) {
      auto mk = [](uint64_t pos, uint64_t len) {
        uint64_t m = 0;
        for (uint64_t i = 0; i < len; ++i)
          if (pos + i < 32) m |= 1ull << (pos + i);
        return m;
      };
      v.put("bmsk.clamp.b32", {p, n}, mk(std::min<uint64_t>(p, 32), std::min<uint64_t>(n, 32)));
      v.put("bmsk.wrap.b32", {p, n}, mk(p & 31, n & 31));
      for (uint64_t a : {0x12345678ull, 0x87654321ull, 0xffffffffull, 0x80ull}) {
        for (int s = 0; s < 2; ++s)
          for (int clamp = 0; clamp < 2; ++clamp) {
            uint64_t k = clamp ? std::min<uint64_t>(n, 32) : (n & 31);
            uint64_t res = 0;
            if (k > 0) {
              uint64_t low = a & M(int(k));
              res = (s && bit(low, int(k) - 1)) ? (low | (~M(int(k)) & 0xffffffff)) : low;
            }
            v.put(std::string("szext.") + (clamp ? "clamp" : "wrap") + (s ? ".s32" : ".u32"), {a, n}, res);
          }
      }
    }
}

}  // namespace

int main(int argc, char** argv) {
  std::mt19937_64 r(20261123);
  write_all(argc > 1 ? argv[1] : ".", r,
            {{"int.vec", "Integer arithmetic, PTX ISA 9.2 9.7.1-9.7.2 (add..max, .sat, .cc chains)", gen_int},
             {"bits.vec", "Bit manipulation and logic, PTX ISA 9.2 9.7.1.14-25, 9.7.8, 9.7.9.7", gen_bits}});
}
