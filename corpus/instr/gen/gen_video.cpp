// Generator for video.vec: scalar and SIMD video instructions (PTX ISA 9.0
// 9.7.18), transcribed from the ISA pseudo-code with 64-bit integers
// (partSelectSignExtend, optSaturate, optSecondaryOp, optMerge,
// extractAndSignExt_2/_4). Selector tokens follow resolve.hpp: asel_b1,
// bsel_h0, dsel_b2, neg_a/neg_b/neg_c; SIMD selectors asel_h10, bsel_b7654,
// masks dsel_h1 / dsel_b310.
#include <algorithm>

#include "common.hpp"

using namespace gen;
using i64 = long long;

namespace {

const char* kSel[] = {"", "b0", "b1", "b2", "b3", "h0", "h1"};

i64 sx(uint64_t v, int w) { return (v >> (w - 1)) & 1 ? i64(v) - (i64(1) << w) : i64(v); }

i64 partSelect(uint64_t x, bool sg, int sel) {
  x &= 0xffffffff;
  if (sel == 0) return sg ? sx(x, 32) : i64(x);
  if (sel <= 4) { uint64_t v = (x >> (8 * (sel - 1))) & 0xff; return sg ? sx(v, 8) : i64(v); }
  uint64_t v = (x >> (16 * (sel - 5))) & 0xffff;
  return sg ? sx(v, 16) : i64(v);
}

i64 clampv(i64 v, i64 lo, i64 hi) { return v < lo ? lo : v > hi ? hi : v; }

i64 optSaturate(i64 t, bool sat, bool sg, int dsel) {
  if (!sat) return t;
  int bits = dsel == 0 ? 32 : dsel <= 4 ? 8 : 16;
  if (sg) return clampv(t, -(i64(1) << (bits - 1)), (i64(1) << (bits - 1)) - 1);
  return clampv(t, 0, (i64(1) << bits) - 1);
}

uint64_t optMerge(int dsel, uint64_t a, uint64_t b) {
  switch (dsel) {
    case 5: return (a & 0xffff) | (0xffff0000 & b);
    case 6: return ((a & 0xffff) << 16) | (0x0000ffff & b);
    case 1: return (a & 0xff) | (0xffffff00 & b);
    case 2: return ((a & 0xff) << 8) | (0xffff00ff & b);
    case 3: return ((a & 0xff) << 16) | (0xff00ffff & b);
    case 4: return ((a & 0xff) << 24) | (0x00ffffff & b);
    default: return a & 0xffffffff;
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = argc > 1 ? argv[1] : ".";
  Vec v(dir + "/video.vec", "video instructions, PTX ISA 9.0 9.7.18 (scalar and SIMD)");
  std::mt19937_64 r(5150);
  std::vector<uint64_t> vals = {0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000,
                                0xffffffff, 0x12345678, 0x80ff7f01, 0x00fe0180};
  for (int i = 0; i < 3; ++i) vals.push_back(r() & 0xffffffff);
  const char* ops[] = {"vadd", "vsub", "vabsdiff", "vmin", "vmax"};
  const char* op2s[] = {"", "add", "min", "max"};
  const char* T[] = {"u32", "s32"};
  for (int k = 0; k < 5; ++k)
    for (int dt = 0; dt < 2; ++dt)
      for (int at = 0; at < 2; ++at)
        for (int bt = 0; bt < 2; ++bt)
          for (uint64_t a : vals)
            for (uint64_t b : vals) {
              if (!keep(0.08)) continue;
              int asel = int(r() % 7), bsel = int(r() % 7), form = int(r() % 3), sat = int(r() % 2);
              int op2 = form == 1 ? 1 + int(r() % 3) : 0, dsel = form == 2 ? 1 + int(r() % 6) : 0;
              uint64_t c = vals[r() % vals.size()];
              i64 ta = partSelect(a, at, asel), tb = partSelect(b, bt, bsel), t;
              switch (k) {
                case 0: t = ta + tb; break;
                case 1: t = ta - tb; break;
                case 2: t = ta > tb ? ta - tb : tb - ta; break;
                case 3: t = std::min(ta, tb); break;
                default: t = std::max(ta, tb); break;
              }
              t = optSaturate(t, sat, dt, dsel);
              i64 cv = partSelect(c, dt, 0);
              uint64_t d;
              if (dsel) d = optMerge(dsel, uint64_t(t), c);
              else if (op2 == 1) d = uint64_t(t + cv) & 0xffffffff;
              else if (op2 == 2) d = uint64_t(std::min(t, cv)) & 0xffffffff;
              else if (op2 == 3) d = uint64_t(std::max(t, cv)) & 0xffffffff;
              else d = uint64_t(t) & 0xffffffff;
              std::string mn = std::string(ops[k]) + "." + T[dt] + "." + T[at] + "." + T[bt] + (sat ? ".sat" : "") +
                               (op2 ? std::string(".") + op2s[op2] : "") +
                               (asel ? std::string(".asel_") + kSel[asel] : "") +
                               (bsel ? std::string(".bsel_") + kSel[bsel] : "") +
                               (dsel ? std::string(".dsel_") + kSel[dsel] : "");
              if (form == 0) v.put(mn, {a, b}, d);
              else v.put(mn, {a, b, c}, d);
            }
  // vshl / vshr
  for (int k = 0; k < 2; ++k)
    for (int dt = 0; dt < 2; ++dt)
      for (int at = 0; at < 2; ++at)
        for (uint64_t a : vals)
          for (uint64_t b : {0ull, 1ull, 7ull, 31ull, 32ull, 33ull, 0x2101ull, 0xffffffffull}) {
            int clamp = int(r() % 2), sat = int(r() % 2), asel = int(r() % 7), bsel = int(r() % 3);
            i64 ta = partSelect(a, at, asel);
            i64 tb = partSelect(b, false, bsel);
            if (clamp && tb > 32) tb = 32;
            if (!clamp) tb &= 0x1f;
            __int128 t = k == 0 ? (__int128)ta * ((__int128)1 << tb) : (__int128)(ta >> std::min<i64>(tb, 63));
            i64 lo = dt ? INT32_MIN : 0, hi = dt ? INT32_MAX : 0xffffffffll;
            if (sat) t = t < lo ? lo : t > hi ? hi : t;
            std::string mn = std::string(k ? "vshr." : "vshl.") + T[dt] + "." + T[at] + ".u32" + (sat ? ".sat" : "") +
                             (clamp ? ".clamp" : ".wrap") + (asel ? std::string(".asel_") + kSel[asel] : "") +
                             (bsel ? std::string(".bsel_") + kSel[bsel] : "");
            v.put(mn, {a, b}, uint64_t(t) & 0xffffffff);
          }
  // vmad
  for (int at = 0; at < 2; ++at)
    for (int bt = 0; bt < 2; ++bt)
      for (uint64_t a : vals)
        for (uint64_t b : vals) {
          if (!keep(0.25)) continue;
          uint64_t c = vals[r() % vals.size()];
          int neg = int(r() % 4), scale = int(r() % 3), sat = int(r() % 2), po = neg == 0 && (r() % 3 == 0);
          int asel = int(r() % 7), bsel = int(r() % 7);
          bool na = neg == 1, nb = false, nc = neg == 2;
          if (neg == 3) na = nb = true;
          bool signedFinal = at || bt || (na ^ nb) || nc;
          __int128 tmp = (__int128)partSelect(a, at, asel) * partSelect(b, bt, bsel);
          int lsb = 0;
          uint64_t cc = c;
          if (po) lsb = 1;
          else if (na ^ nb) { tmp = ~tmp; lsb = 1; }
          else if (nc) { cc = ~cc & 0xffffffff; lsb = 1; }
          tmp = tmp + (signedFinal ? (__int128)sx(cc, 32) : (__int128)cc) + lsb;
          if (scale == 1) tmp >>= 7;
          if (scale == 2) tmp >>= 15;
          if (sat) {
            if (signedFinal) tmp = tmp < INT32_MIN ? INT32_MIN : tmp > INT32_MAX ? INT32_MAX : tmp;
            else tmp = tmp < 0 ? 0 : tmp > 0xffffffffll ? 0xffffffffll : tmp;
          }
          std::string dt = signedFinal ? "s32" : "u32";
          std::string mn = "vmad." + dt + "." + T[at] + "." + T[bt] + (po ? ".po" : "") + (sat ? ".sat" : "") +
                           (scale == 1 ? ".shr7" : scale == 2 ? ".shr15" : "") + (na ? ".neg_a" : "") +
                           (nb ? ".neg_b" : "") + (nc ? ".neg_c" : "") +
                           (asel ? std::string(".asel_") + kSel[asel] : "") + (bsel ? std::string(".bsel_") + kSel[bsel] : "");
          v.put(mn, {a, b, c}, uint64_t(tmp) & 0xffffffff);
        }
  // vset
  const char* cmps[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  for (int at = 0; at < 2; ++at)
    for (int bt = 0; bt < 2; ++bt)
      for (uint64_t a : vals)
        for (uint64_t b : vals) {
          if (!keep(0.2)) continue;
          int cmp = int(r() % 6), asel = int(r() % 7), bsel = int(r() % 7), form = int(r() % 3);
          int op2 = form == 1 ? 1 + int(r() % 3) : 0, dsel = form == 2 ? 1 + int(r() % 6) : 0;
          uint64_t c = vals[r() % vals.size()];
          i64 ta = partSelect(a, at, asel), tb = partSelect(b, bt, bsel);
          bool t = cmp == 0 ? ta == tb : cmp == 1 ? ta != tb : cmp == 2 ? ta < tb : cmp == 3 ? ta <= tb : cmp == 4 ? ta > tb : ta >= tb;
          uint64_t d;
          i64 cv = i64(c & 0xffffffff);
          if (dsel) d = optMerge(dsel, t, c);
          else if (op2 == 1) d = uint64_t(t + cv) & 0xffffffff;
          else if (op2 == 2) d = uint64_t(std::min<i64>(t, cv));
          else if (op2 == 3) d = uint64_t(std::max<i64>(t, cv));
          else d = t;
          std::string mn = std::string("vset.") + T[at] + "." + T[bt] + "." + cmps[cmp] +
                           (op2 ? std::string(".") + op2s[op2] : "") + (asel ? std::string(".asel_") + kSel[asel] : "") +
                           (bsel ? std::string(".bsel_") + kSel[bsel] : "") + (dsel ? std::string(".dsel_") + kSel[dsel] : "");
          if (form == 0) v.put(mn, {a, b}, d);
          else v.put(mn, {a, b, c}, d);
        }
  // SIMD: vop2 / vop4
  const char* sops[] = {"vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax", "vset"};
  for (int four = 0; four < 2; ++four)
    for (int k = 0; k < 7; ++k)
      for (uint64_t a : vals)
        for (uint64_t b : vals) {
          if (!keep(0.15)) continue;
          int n = four ? 4 : 2, lw = four ? 8 : 16;
          int dt = int(r() % 2), at = int(r() % 2), bt = int(r() % 2), cmp = int(r() % 6);
          int sat = k != 6 && r() % 2, add = !sat && r() % 2;
          uint64_t c = vals[r() % vals.size()];
          int asel[4], bsel[4];
          bool dflt = r() % 2;
          for (int i = 0; i < n; ++i) {
            asel[i] = dflt ? i : int(r() % (2 * n));
            bsel[i] = dflt ? n + i : int(r() % (2 * n));
          }
          unsigned mask = dflt ? (1u << n) - 1 : unsigned(r() % ((1u << n) - 1)) + 1;
          uint64_t pair = (b << 32) | a;
          i64 t[4];
          for (int i = 0; i < n; ++i) {
            uint64_t xa = (pair >> (lw * asel[i])) & ((1ull << lw) - 1), xb = (pair >> (lw * bsel[i])) & ((1ull << lw) - 1);
            i64 va = at ? sx(xa, lw) : i64(xa), vb = bt ? sx(xb, lw) : i64(xb);
            switch (k) {
              case 0: t[i] = va + vb; break;
              case 1: t[i] = va - vb; break;
              case 2: t[i] = (va + vb >= 0) ? (va + vb + 1) >> 1 : (va + vb) >> 1; break;
              case 3: t[i] = va > vb ? va - vb : vb - va; break;
              case 4: t[i] = std::min(va, vb); break;
              case 5: t[i] = std::max(va, vb); break;
              default: {
                bool rr = cmp == 0 ? va == vb : cmp == 1 ? va != vb : cmp == 2 ? va < vb : cmp == 3 ? va <= vb : cmp == 4 ? va > vb : va >= vb;
                t[i] = rr;
              }
            }
            if (sat) {
              if (k != 6 && dt) t[i] = clampv(t[i], -(i64(1) << (lw - 1)), (i64(1) << (lw - 1)) - 1);
              else t[i] = clampv(t[i], 0, (i64(1) << lw) - 1);
            }
          }
          uint64_t d;
          if (add) {
            d = c;
            for (int i = 0; i < n; ++i) d += (mask >> i) & 1 ? uint64_t(t[i]) : 0;
          } else {
            d = 0;
            for (int i = 0; i < n; ++i) {
              uint64_t x = (mask >> i) & 1 ? uint64_t(t[i]) : (c >> (lw * i));
              d |= (x & ((1ull << lw) - 1)) << (lw * i);
            }
          }
          std::string mn = std::string(sops[k]) + (four ? "4" : "2");
          if (k != 6) mn += std::string(".") + T[dt];
          mn += std::string(".") + T[at] + "." + T[bt];
          if (k == 6) mn += std::string(".") + cmps[cmp];
          if (sat) mn += ".sat";
          if (add) mn += ".add";
          if (!dflt) {
            std::string as = four ? ".asel_b" : ".asel_h", bs = four ? ".bsel_b" : ".bsel_h", ds = four ? ".dsel_b" : ".dsel_h";
            for (int i = n - 1; i >= 0; --i) as += char('0' + asel[i]), bs += char('0' + bsel[i]);
            for (int i = n - 1; i >= 0; --i)
              if ((mask >> i) & 1) ds += char('0' + i);
            mn += as + bs + ds;
          }
          v.put(mn, {a, b, c}, d & 0xffffffff);
        }
  std::printf("video.vec: %zu vectors\n", v.n);
}
