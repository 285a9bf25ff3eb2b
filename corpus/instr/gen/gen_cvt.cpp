// Generator for cvt.vec: conversions between all integer and float types
// (PTX ISA 9.2 9.7.9.21 cvt). References: long double/__int128 values,
// host conversions under fesetround (float, double, _Float16), bit-level
// bf16/tf32 rounding, and nearest-value search over all 256 codes of
// e4m3/e5m2. Float-to-integer NaN follows PTX ISA 9.0 (see cvt.cpp).
#include <algorithm>

#include "common.hpp"

using namespace gen;
using i128 = __int128;

namespace {

struct T {
  const char* name;
  int w;
  char k;  // 'u' 's' 'f'
};
const T kInts[] = {{"u8", 8, 'u'},  {"u16", 16, 'u'}, {"u32", 32, 'u'}, {"u64", 64, 'u'},
                   {"s8", 8, 's'},  {"s16", 16, 's'}, {"s32", 32, 's'}, {"s64", 64, 's'}};
const T kFloats[] = {{"f16", 16, 'f'}, {"bf16", 16, 'h'}, {"f32", 32, 'f'}, {"f64", 64, 'f'}};

uint64_t M(int w) { return w == 64 ? ~0ull : (1ull << w) - 1; }
i128 ival(uint64_t x, const T& t) {
  x &= M(t.w);
  if (t.k == 's' && t.w < 64 && ((x >> (t.w - 1)) & 1)) return i128(x) - (i128(1) << t.w);
  if (t.k == 's' && t.w == 64) return i128(int64_t(x));
  return i128(x);
}
i128 imin(const T& t) { return t.k == 's' ? -(i128(1) << (t.w - 1)) : 0; }
i128 imax(const T& t) { return t.k == 's' ? (i128(1) << (t.w - 1)) - 1 : i128(M(t.w)); }

long double fval(uint64_t b, const T& t) {
  if (t.k == 'h') return bf16_value(uint16_t(b));
  if (t.w == 16) return static_cast<long double>(bhalf(uint16_t(b)));
  if (t.w == 32) return bfloat(uint32_t(b));
  return bdouble(b);
}
uint64_t canon(const T& t) { return t.w == 64 ? 0x7fffffffffffffffull : t.w == 32 ? 0x7fffffffu : 0x7fffu; }

// x rounded to F under host mode fe; volatile keeps the conversion between
// the fesetround calls.
template <class F> F host_round(long double x, int fe) {
  std::fesetround(fe);
  volatile long double vx = x;
  volatile F r = static_cast<F>(vx);
  std::fesetround(FE_TONEAREST);
  return r;
}

// Round an exact long double to float type t under host mode fe.
uint64_t fround(long double x, const T& t, int fe) {
  if (std::isnan(x)) return canon(t);
  if (t.w == 64) return dbits(host_round<double>(x, fe));
  if (t.w == 32) return fbits(host_round<float>(x, fe));
  double o = odd_double(x);
  if (t.k == 'h') {
    float of = odd_float(o);
    return f32_to_bf16(fbits(of), fe);
  }
  std::fesetround(fe);
  volatile double vo = o;
  volatile _Float16 h = static_cast<_Float16>(vo);
  std::fesetround(FE_TONEAREST);
  return hbits(h);
}

std::vector<uint64_t> fedges(const T& t, std::mt19937_64& r) {
  std::vector<uint64_t> v;
  if (t.k == 'h') for (auto x : bf16_edges()) v.push_back(x);
  else if (t.w == 16) for (auto x : f16_edges()) v.push_back(x);
  else if (t.w == 32) for (auto x : f32_edges()) v.push_back(x);
  else for (auto x : f64_edges()) v.push_back(x);
  // halfway and near-limit values
  for (double d : {0.5, 1.5, 2.5, -2.5, -0.5, 127.5, 255.5, -128.5, 32767.5, 65535.0, 65536.0, -32768.5,
                   2147483647.5, 2147483648.0, 4294967295.5, 4294967296.0, -2147483648.5,
                   9223372036854775808.0, 18446744073709551616.0, -9223372036854775808.0, 1e30, -1e30,
                   0.1, -0.7, 3.75}) {
    uint64_t b = t.w == 64 ? dbits(d) : t.w == 32 ? fbits(static_cast<float>(d))
               : t.k == 'h' ? (fbits(static_cast<float>(d)) >> 16) : hbits(static_cast<_Float16>(d));
    v.push_back(b);
  }
  for (int i = 0; i < 6; ++i) v.push_back(r() & M(t.w));
  return v;
}

// ---- fp8 by exhaustive search ----

long double e4m3(uint8_t c) {
  int e = (c >> 3) & 15, m = c & 7;
  if (e == 15 && m == 7) return NAN;
  long double v = e == 0 ? std::ldexp((long double)m, -9) : std::ldexp((long double)(8 + m), e - 10);
  return (c & 0x80) ? -v : v;
}
long double e5m2(uint8_t c) {
  int e = (c >> 2) & 31, m = c & 3;
  if (e == 31) return m ? NAN : ((c & 0x80) ? -INFINITY : INFINITY);
  long double v = e == 0 ? std::ldexp((long double)m, -16) : std::ldexp((long double)(4 + m), e - 17);
  return (c & 0x80) ? -v : v;
}

// RN with .satfinite: nearest finite code, ties to the even code; beyond the
// largest finite value (incl. infinity) the largest finite value.
uint8_t to_fp8(long double x, bool is_e4m3, bool relu) {
  if (std::isnan(x)) return 0x7f;
  if (relu && (x < 0 || (x == 0 && std::signbit(x)))) return 0;
  auto val = is_e4m3 ? e4m3 : e5m2;
  uint8_t best = 0;
  long double bestd = INFINITY;
  long double ax = std::fabs(x);
  long double maxv = is_e4m3 ? 448.0L : 57344.0L;
  if (ax >= maxv) return (is_e4m3 ? 0x7e : 0x7b) | (std::signbit(x) ? 0x80 : 0);
  for (int c = 0; c < 128; ++c) {
    long double v = val(uint8_t(c));
    if (std::isnan(v) || std::isinf(v)) continue;
    long double d = std::fabs(v - ax);
    if (d < bestd || (d == bestd && (c & 1) == 0)) best = uint8_t(c), bestd = d;
  }
  return best | (std::signbit(x) ? 0x80 : 0);
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = argc > 1 ? argv[1] : ".";
  std::mt19937_64 r(99);
  Vec v(dir + "/cvt.vec", "cvt between all types, PTX ISA 9.2 9.7.9.21 (+ PTX 9.0 NaN and fp8/tf32 rules)");
  // int -> int, with and without .sat
  for (const T& s : kInts) {
    std::vector<uint64_t> vals = {0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000,
                                  0xffffffff, 0x7fffffffffffffffull, 0x8000000000000000ull, ~0ull};
    for (int i = 0; i < 3; ++i) vals.push_back(r());
    for (const T& d : kInts)
      for (uint64_t a0 : vals) {
        uint64_t a = a0 & M(s.w);
        i128 x = ival(a, s);
        std::string mn = std::string(".") + d.name + "." + s.name;
        v.put("cvt" + mn, {a}, uint64_t(x) & M(d.w));
        // .sat exists only where the source range exceeds the destination's
        if (!(imin(d) <= imin(s) && imax(s) <= imax(d)))
          v.put("cvt.sat" + mn, {a}, uint64_t(std::clamp(x, imin(d), imax(d))) & M(d.w));
      }
    // int -> float in every mode
    for (const T& d : kFloats)
      for (const Mode& m : kModes)
        for (uint64_t a0 : vals) {
          uint64_t a = a0 & M(s.w);
          v.put(std::string("cvt.") + m.name + "." + d.name + "." + s.name, {a},
                fround(static_cast<long double>(ival(a, s)), d, m.fe));
        }
  }
  const char* irnd[] = {"rni", "rzi", "rmi", "rpi"};
  for (const T& s : kFloats) {
    auto vals = fedges(s, r);
    // float -> int in every integer rounding, saturating, NaN per PTX 9.0
    for (const T& d : kInts)
      for (int k = 0; k < 4; ++k)
        for (uint64_t a : vals) {
          long double x = fval(a, s);
          uint64_t res;
          if (std::isnan(x)) {
            res = (s.w == 64 && s.k == 'f') || d.w == 64 ? (1ull << (d.w - 1)) : 0;
          } else {
            std::fesetround(kModes[k].fe);
            volatile long double vx = x;
            long double ri = std::nearbyint(vx);
            std::fesetround(FE_TONEAREST);
            if (ri < static_cast<long double>(imin(d))) res = uint64_t(imin(d)) & M(d.w);
            else if (ri > static_cast<long double>(imax(d))) res = uint64_t(imax(d)) & M(d.w);
            else res = uint64_t(i128(ri)) & M(d.w);
          }
          v.put(std::string("cvt.") + irnd[k] + "." + d.name + "." + s.name, {a}, res);
          if (s.w == 32 && s.k == 'f' && k == 1) {  // .ftz on an f32 source
            uint32_t fa = ftz32(uint32_t(a));
            long double fx = bfloat(fa);
            if (!std::isnan(fx) && std::fabs(fx) < 1) v.put(std::string("cvt.rzi.ftz.") + d.name + ".f32", {a}, 0);
          }
        }
    // float -> float in every mode; same-type integer rounding
    for (const T& d : kFloats)
      for (int k = 0; k < 4; ++k)
        for (uint64_t a : vals) {
          long double x = fval(a, s);
          std::string mn = std::string(".") + d.name + "." + s.name;
          // a float rounding modifier exists only on narrowing conversions
          bool narrowing = d.w < s.w || (d.w == 16 && s.w == 16 && d.k != s.k);
          // f64 NaN to a narrower format: sign and top payload bits kept,
          // quiet bit set, as an H200 (the ISA fixes no payload; docs/approx.md)
          auto narrow = [&](uint64_t r) -> uint64_t {
            if (s.w != 64 || !std::isnan(x)) return r;
            unsigned mb = d.w == 32 ? 23 : d.k == 'h' ? 7 : 10, eb = d.w - 1 - mb;
            uint64_t m = ((a >> (52 - mb)) & ((1ull << mb) - 1)) | (1ull << (mb - 1));
            return ((a >> 63) << (d.w - 1)) | (((1ull << eb) - 1) << mb) | m;
          };
          if (narrowing) v.put(std::string("cvt.") + kModes[k].name + mn, {a}, narrow(fround(x, d, kModes[k].fe)));
          else if (k == 0) v.put("cvt" + mn, {a}, fround(x, d, FE_TONEAREST));
          if (&d == &s) {
            long double ri = x;
            if (std::isfinite(x)) {
              std::fesetround(kModes[k].fe);
              volatile long double vx = x;
              ri = std::nearbyint(vx);
              std::fesetround(FE_TONEAREST);
            }
            v.put(std::string("cvt.") + irnd[k] + mn, {a}, fround(ri, d, FE_TONEAREST));
          }
          if (s.w == 32 && s.k == 'f' && d.w == 32) {  // .ftz and .sat on f32
            uint32_t fa = ftz32(uint32_t(a));
            v.put(std::string("cvt.ftz.f32.f32"), {a}, std::isnan(bfloat(fa)) ? 0x7fffffffu : fa);
            float fx = bfloat(uint32_t(a));
            uint32_t sat = std::isnan(fx) || (a >> 31) ? 0u : fx > 1.0f ? 0x3f800000u : uint32_t(a);
            v.put(std::string("cvt.sat.f32.f32"), {a}, sat);
          }
          if (s.w == 32 && s.k == 'f' && d.w == 16 && k < 2) {  // .relu / .satfinite
            uint64_t rr = fround(x, d, kModes[k].fe);
            bool nan = std::isnan(x);
            uint64_t relu = nan ? 0x7fff : (rr & 0x8000) ? 0 : rr;
            uint64_t maxf = d.k == 'h' ? 0x7f7f : 0x7bff;
            uint64_t satf = nan ? 0x7fff : ((rr & 0x7fff) == (d.k == 'h' ? 0x7f80u : 0x7c00u)) ? (maxf | (rr & 0x8000)) : rr;
            v.put(std::string("cvt.") + kModes[k].name + ".relu" + mn, {a}, relu);
            v.put(std::string("cvt.") + kModes[k].name + ".satfinite" + mn, {a}, satf);
          }
        }
  }
  // packed f16x2 / bf16x2 from two f32 (a -> upper half), .rn/.rz, .relu
  auto e32 = f32_edges();
  for (int i = 0; i < 20; ++i) e32.push_back(rand_f32(r));
  for (const T& d : {kFloats[0], kFloats[1]})
    for (int k = 0; k < 2; ++k)
      for (size_t i = 0; i < e32.size(); ++i) {
        uint32_t a = e32[i], b = e32[(i * 7 + 3) % e32.size()];
        uint64_t ha = fround(bfloat(a), d, kModes[k].fe), hb = fround(bfloat(b), d, kModes[k].fe);
        std::string x2 = std::string(d.name) + "x2";
        v.put(std::string("cvt.") + kModes[k].name + "." + x2 + ".f32", {a, b}, (ha << 16) | hb);
        auto relu = [](uint64_t h) { return h == 0x7fff ? h : (h & 0x8000) ? 0 : h; };
        v.put(std::string("cvt.") + kModes[k].name + ".relu." + x2 + ".f32", {a, b}, (relu(ha) << 16) | relu(hb));
      }
  // tf32, bit-level
  for (uint32_t a : e32)
    for (int mode = 0; mode < 3; ++mode)
      for (int sf = 0; sf < 2; ++sf) {
        if (mode == 0 && false) continue;
        uint32_t res;
        if (std::isnan(bfloat(a))) {  // .rna/.rz as an H200 (docs/approx.md)
          res = sf || mode == 1 ? 0x7fffffff : mode == 0 ? a & 0xffffe000u : 0x7fffe000u;
        } else if ((a & 0x7fffffff) == 0x7f800000) {
          res = sf ? ((a & 0x80000000) | 0x7f7fe000) : a;
        } else {
          uint32_t low = a & 0x1fff, t = a & ~0x1fffu;
          bool inc = mode == 0 ? low >= 0x1000 : mode == 1 ? (low > 0x1000 || (low == 0x1000 && (a & 0x2000))) : false;
          res = t + (inc ? 0x2000 : 0);
          if ((res & 0x7fffffff) == 0x7f800000 && sf) res = (a & 0x80000000) | 0x7f7fe000;
        }
        const char* mn = mode == 0 ? "rna" : mode == 1 ? "rn" : "rz";
        v.put(std::string("cvt.") + mn + (sf ? ".satfinite" : "") + ".tf32.f32", {a}, res);
      }
  // fp8
  for (int e4 = 0; e4 < 2; ++e4) {
    std::string F = e4 ? "e4m3x2" : "e5m2x2";
    for (int relu = 0; relu < 2; ++relu) {
      std::string md = relu ? ".relu" : "";
      for (size_t i = 0; i < e32.size(); ++i) {
        uint32_t a = e32[i], b = e32[(i * 5 + 1) % e32.size()];
        uint64_t res = (uint64_t(to_fp8(bfloat(a), e4, relu)) << 8) | to_fp8(bfloat(b), e4, relu);
        v.put("cvt.rn.satfinite" + md + "." + F + ".f32", {a, b}, res);
      }
      for (uint16_t h0 : f16_edges()) {
        uint16_t h1 = uint16_t(r());
        uint64_t res = (uint64_t(to_fp8(static_cast<long double>(bhalf(h1)), e4, relu)) << 8) |
                       to_fp8(static_cast<long double>(bhalf(h0)), e4, relu);
        v.put("cvt.rn.satfinite" + md + "." + F + ".f16x2", {uint64_t(h0) | (uint64_t(h1) << 16)}, res);
      }
      for (int c = 0; c < 256; ++c) {
        uint8_t c1 = uint8_t(c * 37 + 11);
        auto up = [&](uint8_t x) -> uint64_t {
          long double val = e4 ? e4m3(x) : e5m2(x);
          if (std::isnan(val)) return 0x7fff;
          if (relu && std::signbit(val)) return 0;
          return hbits(static_cast<_Float16>(val));
        };
        v.put("cvt.rn" + md + ".f16x2." + F, {uint64_t(c) | (uint64_t(c1) << 8)}, up(uint8_t(c)) | (up(c1) << 16));
        // PTX ISA 9.2: .bf16x2 destinations (exact; NaN -> canonical 0x7fff)
        auto upb = [&](uint8_t x) -> uint64_t {
          long double val = e4 ? e4m3(x) : e5m2(x);
          if (std::isnan(val)) return 0x7fff;
          if (relu && std::signbit(val)) return 0;
          return fbits(static_cast<float>(val)) >> 16;
        };
        v.put("cvt.rn" + md + ".bf16x2." + F, {uint64_t(c) | (uint64_t(c1) << 8)}, upb(uint8_t(c)) | (upb(c1) << 16));
      }
      // PTX ISA 9.1: from .bf16x2, upper half to the upper byte
      for (uint16_t b0 : bf16_edges()) {
        uint16_t b1 = uint16_t(r());
        uint64_t res = (uint64_t(to_fp8(bf16_value(b1), e4, relu)) << 8) | to_fp8(bf16_value(b0), e4, relu);
        v.put("cvt.rn.satfinite" + md + "." + F + ".bf16x2", {uint64_t(b0) | (uint64_t(b1) << 16)}, res);
      }
    }
  }
  // cvt.pack.sat (9.7.9.22 cvt.pack): clamp a and b, td = {ta, tb}, c fills the rest
  const struct { const char* n; int w; bool s; } narrow[] = {
      {"u16", 16, false}, {"s16", 16, true}, {"u8", 8, false}, {"s8", 8, true},
      {"u4", 4, false},   {"s4", 4, true},   {"u2", 2, false}, {"s2", 2, true}};
  std::vector<uint64_t> pv = {0, 1, 2, 3, 7, 8, 15, 16, 127, 128, 255, 256, 32767, 32768, 65535, 65536,
                              0xffffffff, 0xfffffffe, 0xfffffff8, 0xffffff80, 0xffff8000, 0x80000000, 0x7fffffff};
  for (const auto& t : narrow)
    for (uint64_t a : pv)
      for (uint64_t b : pv) {
        if (!keep(0.3)) continue;
        i128 lo = t.s ? -(i128(1) << (t.w - 1)) : 0, hi = t.s ? (i128(1) << (t.w - 1)) - 1 : (i128(1) << t.w) - 1;
        auto clampi = [&](uint64_t x) { return uint64_t(std::clamp<i128>(i128(int32_t(uint32_t(x))), lo, hi)) & M(t.w); };
        uint64_t td = clampi(b) | (clampi(a) << t.w);
        std::string mn = std::string("cvt.pack.sat.") + t.n + ".s32";
        if (t.w == 16) {
          v.put(mn, {a, b}, td);
        } else {
          uint64_t c = pv[(a + 3 * b) % pv.size()];
          uint64_t d = td;
          for (int i = 2 * t.w; i <= 31; ++i) d |= ((c >> (i - 2 * t.w)) & 1) << i;
          v.put(mn + ".b32", {a, b, c}, d);
        }
      }
  std::printf("cvt.vec: %zu vectors\n", v.n);
}
