// Generator for mx.vec: cvt with the PTX 8.6+ narrow formats (e2m1x2, e2m3x2,
// e3m2x2, ue8m0x2) and stochastic rounding .rs (PTX 8.7), PTX ISA 9.2
// 9.7.9.21 cvt (rules quoted in semantics/arith/cvt_narrow.cpp).
// References, independent of semantics/arith: code values decoded with ldexp
// and an exhaustive nearest-code search (ties to the even code) for the fp4/
// fp6 formats; frexp for ue8m0; for .rs the two neighbours of the input come
// from the host's round-toward-zero conversion (fesetround + _Float16, or
// dropping the low f32 bits for bf16) and the carry from the exact fraction
// (|x| - lo) / ulp computed in long double.
#include <algorithm>

#include "common.hpp"

using namespace gen;

namespace {

struct Narrow {
  const char* name;
  int ebits, mbits, lane;  // lane: bits per packed lane
};
const Narrow kNarrow[] = {{"e2m1x2", 2, 1, 4}, {"e2m3x2", 2, 3, 8}, {"e3m2x2", 3, 2, 8}};

// Value of a sign-magnitude code with no infinity/NaN (all codes finite).
long double narrow_val(const Narrow& n, unsigned code) {
  int bias = (1 << (n.ebits - 1)) - 1;
  unsigned m = code & ((1u << n.mbits) - 1), e = (code >> n.mbits) & ((1u << n.ebits) - 1);
  long double v = e == 0 ? std::ldexp((long double)m, 1 - bias - n.mbits)
                         : std::ldexp((long double)((1u << n.mbits) + m), int(e) - bias - n.mbits);
  return ((code >> (n.ebits + n.mbits)) & 1) ? -v : v;
}

// .rn.satfinite{.relu}: nearest code (ties to the even code), beyond the
// largest value the largest value; NaN -> +MAX_NORM.
unsigned to_narrow(const Narrow& n, long double x, bool relu) {
  unsigned mags = 1u << (n.ebits + n.mbits), sign = mags;
  if (std::isnan(x)) return mags - 1;
  if (relu && (x < 0 || (x == 0 && std::signbit(x)))) return 0;
  long double ax = std::fabs(x), best_d = INFINITY;
  unsigned best = 0;
  if (ax >= narrow_val(n, mags - 1)) best = mags - 1;
  else
    for (unsigned c = 0; c < mags; ++c) {
      long double d = std::fabs(narrow_val(n, c) - ax);
      if (d < best_d || (d == best_d && (c & 1) == 0)) best = c, best_d = d;
    }
  return best | (std::signbit(x) ? sign : 0);
}

uint64_t f16_of(long double v, bool relu) {
  if (relu && std::signbit(v)) return 0;
  return hbits(static_cast<_Float16>(v));  // exact for every fp4/fp6 value
}

// ue8m0: 2^(code-127); .rz largest power <= |x|, .rp smallest >= |x|.
unsigned to_ue8m0(long double x, bool rp, bool satfin) {
  if (std::isnan(x)) return 0xff;
  long double ax = std::fabs(x);
  if (std::isinf(ax)) return satfin ? 0xfe : 0xff;
  if (ax == 0) return 0;
  int e;
  long double m = std::frexp(ax, &e);  // ax = m * 2^e, m in [0.5, 1)
  int k = (rp && m != 0.5L) ? e : e - 1;
  k = std::max(k, -127);
  if (k > 127) return satfin ? 0xfe : 0xff;
  return unsigned(k + 127);
}

// Stochastic rounding of f32 a to f16 (bf=false) or bf16 with random r.
uint64_t rs_ref(uint32_t a, uint64_t r, bool bf, bool relu, bool satfin) {
  float x = bfloat(a);
  unsigned k = bf ? 16 : 13;
  r &= (1u << k) - 1;
  uint64_t nan = 0x7fff, maxm = bf ? 0x7f7f : 0x7bff, infm = bf ? 0x7f80 : 0x7c00;
  uint64_t sign = std::signbit(x) ? 0x8000 : 0;
  if (std::isnan(x)) return nan;
  long double maxv = bf ? bf16_value(uint16_t(maxm)) : (long double)bhalf(uint16_t(maxm));
  uint64_t res;
  if (std::fabs((long double)x) > maxv) {
    res = sign | (satfin ? maxm : infm);
  } else {
    uint64_t lo;  // round toward zero on the host
    if (bf) {
      lo = a >> 16;
    } else {
      std::fesetround(FE_TOWARDZERO);
      volatile float vx = x;
      volatile _Float16 h = static_cast<_Float16>(vx);
      std::fesetround(FE_TONEAREST);
      lo = hbits(h);
    }
    uint64_t mag = lo & 0x7fff;
    auto val = [&](uint64_t m) { return bf ? (long double)bf16_value(uint16_t(m)) : (long double)bhalf(uint16_t(m)); };
    long double ulp = val(mag + 1) - val(mag);  // mag + 1 is the next value away from zero
    if (mag == maxm) ulp = bf ? std::ldexp(1.0L, 120) : 32.0L;  // distance to 2^(emax+1)
    long double frac = (std::fabs((long double)x) - val(mag)) / ulp;  // exact, in [0, 1)
    auto fk = static_cast<uint64_t>(std::floor(std::ldexp(frac, int(k))));
    if (fk + r >= (1u << k)) ++mag;
    if (mag > maxm) mag = satfin ? maxm : infm;
    res = sign | mag;
  }
  if (relu && (res & 0x8000)) return 0;
  return res;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = argc > 1 ? argv[1] : ".";
  std::mt19937_64 rng(8686);
  Vec v(dir + "/mx.vec", "cvt with e2m1x2/e2m3x2/e3m2x2/ue8m0x2 and .rs, PTX ISA 9.2 9.7.9.21 (PTX 8.6-9.2 forms)");
  std::vector<uint32_t> e32 = f32_edges();
  for (float f : {0.25f, 0.2500001f, 0.75f, 1.25f, 1.75f, 2.5f, 3.0f, 3.5f, 5.0f, 6.0f, 6.5f, 7.0f, 7.5f, 8.0f,
                  28.0f, 30.0f, 32.0f, 0.0625f, 0.09375f, 0.03125f, 0.046875f, -0.7f, -5.5f, -1e-3f, 1.1e-3f,
                  0x1p-127f, 0x1.8p-127f, 0x1p-126f, 0x1.000002p-127f, 0x1p127f, 0x1.0002p127f, 0x1.fffffep127f,
                  65504.0f, 65519.0f, 65520.0f, 65535.0f, 65536.0f, 0x1p-24f, 0x1.8p-24f, 0x1p-25f, 0x1.4p-20f,
                  6.1e-5f, 3.3895314e38f, 3.3961776e38f})
    e32.push_back(fbits(f));
  for (int i = 0; i < 40; ++i) e32.push_back(rand_f32(rng));
  for (int i = 0; i < 20; ++i) e32.push_back(uint32_t(rng()) & 0xc0ffffffu);  // |x| < 8ish and tiny
  // f32 -> fp4/fp6 pairs (a in the upper lane)
  for (const Narrow& n : kNarrow)
    for (int relu = 0; relu < 2; ++relu)
      for (size_t i = 0; i < e32.size(); ++i) {
        uint32_t a = e32[i], b = e32[(i * 7 + 3) % e32.size()];
        uint64_t r = (uint64_t(to_narrow(n, bfloat(a), relu)) << n.lane) | to_narrow(n, bfloat(b), relu);
        v.put(std::string("cvt.rn.satfinite") + (relu ? ".relu." : ".") + n.name + ".f32", {a, b}, r);
      }
  // f16x2 and bf16x2 -> fp4/fp6 (PTX 9.1), upper half to the upper lane
  auto x2 = [&](std::vector<uint16_t> e, std::initializer_list<uint16_t> extra, const char* type,
                long double (*value)(uint16_t)) {
    for (uint16_t h : extra) e.push_back(h);
    for (const Narrow& n : kNarrow)
      for (int relu = 0; relu < 2; ++relu)
        for (size_t i = 0; i < e.size(); ++i) {
          uint16_t lo = e[i], hi = e[(i * 5 + 2) % e.size()];
          uint64_t r = (uint64_t(to_narrow(n, value(hi), relu)) << n.lane) | to_narrow(n, value(lo), relu);
          v.put(std::string("cvt.rn.satfinite") + (relu ? ".relu." : ".") + n.name + type,
                {uint64_t(lo) | (uint64_t(hi) << 16)}, r);
        }
  };
  x2(f16_edges(), {0x3400, 0x3a00, 0x4500, 0x4600, 0x4680, 0x4700, 0x4f00, 0x4f80, 0x2c00, 0x2e00}, ".f16x2",
     [](uint16_t b) { return (long double)bhalf(b); });
  x2(bf16_edges(), {0x3e80, 0x3f40, 0x40a0, 0x40c0, 0x40d0, 0x40e0, 0x41e0, 0x41f0, 0x3d80, 0x3dc0}, ".bf16x2",
     [](uint16_t b) { return (long double)bf16_value(b); });
  // fp4/fp6 -> f16x2 and (PTX 9.2) bf16x2: every code in each lane
  for (const Narrow& n : kNarrow) {
    unsigned codes = 1u << (1 + n.ebits + n.mbits);
    for (int relu = 0; relu < 2; ++relu)
      for (unsigned c = 0; c < codes; ++c) {
        unsigned c1 = (c * 5 + 3) % codes;
        uint64_t src = c | (uint64_t(c1) << n.lane);
        uint64_t r = f16_of(narrow_val(n, c), relu) | (f16_of(narrow_val(n, c1), relu) << 16);
        v.put(std::string("cvt.rn") + (relu ? ".relu" : "") + ".f16x2." + n.name, {src}, r);
        auto b16 = [&](long double x) -> uint64_t { return relu && std::signbit(x) ? 0 : fbits(static_cast<float>(x)) >> 16; };
        v.put(std::string("cvt.rn") + (relu ? ".relu" : "") + ".bf16x2." + n.name, {src},
              b16(narrow_val(n, c)) | (b16(narrow_val(n, c1)) << 16));
      }
  }
  // f32 / bf16x2 -> ue8m0x2
  for (int rp = 0; rp < 2; ++rp)
    for (int sf = 0; sf < 2; ++sf) {
      std::string md = std::string("cvt.") + (rp ? "rp" : "rz") + (sf ? ".satfinite" : "") + ".ue8m0x2.";
      for (size_t i = 0; i < e32.size(); ++i) {
        uint32_t a = e32[i], b = e32[(i * 11 + 5) % e32.size()];
        v.put(md + "f32", {a, b}, (uint64_t(to_ue8m0(bfloat(a), rp, sf)) << 8) | to_ue8m0(bfloat(b), rp, sf));
      }
      std::vector<uint16_t> eb = bf16_edges();
      for (uint16_t h : {0x0041, 0x0040, 0x003f, 0x7f00, 0x7f01, 0xff7f, 0x3f81, 0x8001}) eb.push_back(h);
      for (size_t i = 0; i < eb.size(); ++i) {
        uint16_t lo = eb[i], hi = eb[(i * 3 + 1) % eb.size()];
        v.put(md + "bf16x2", {uint64_t(lo) | (uint64_t(hi) << 16)},
              (uint64_t(to_ue8m0(bf16_value(hi), rp, sf)) << 8) | to_ue8m0(bf16_value(lo), rp, sf));
      }
    }
  // ue8m0x2 -> bf16x2: every code
  for (unsigned c = 0; c < 256; ++c) {
    unsigned c1 = (c * 37 + 11) & 0xff;
    auto one = [](unsigned k) -> uint64_t { return k == 0xff ? 0x7fff : fbits(std::ldexp(1.0f, int(k) - 127)) >> 16; };
    v.put("cvt.rn.bf16x2.ue8m0x2", {c | (uint64_t(c1) << 8)}, one(c) | (one(c1) << 16));
  }
  // .rs to f16x2 / bf16x2: random bits, plus the values right at the carry
  for (int bf = 0; bf < 2; ++bf)
    for (int relu = 0; relu < 2; ++relu)
      for (int sf = 0; sf < 2; ++sf) {
        std::string mn = std::string("cvt.rs") + (relu ? ".relu" : "") + (sf ? ".satfinite" : "") +
                         (bf ? ".bf16x2" : ".f16x2") + ".f32";
        for (size_t i = 0; i < e32.size(); ++i) {
          uint32_t a = e32[i], b = e32[(i * 13 + 7) % e32.size()];
          uint64_t rb = rng() & 0xffffffffu;
          if (i % 4 == 1) rb = 0;
          if (i % 4 == 2) rb = 0xffffffffu;
          v.put(mn, {a, b, rb}, (rs_ref(a, rb >> 16, bf, relu, sf) << 16) | rs_ref(b, rb & 0xffff, bf, relu, sf));
        }
        // borderline random values: the smallest r that carries, and one less
        for (int i = 0; i < 24; ++i) {
          uint32_t a = i < 12 ? rand_f32(rng) : (uint32_t(rng()) & 0x807fffffu) | 0x33000000u;  // f16-subnormal range
          uint64_t rlo = 0, rhi = (1u << (bf ? 16 : 13)) - 1;
          uint64_t base = rs_ref(a, 0, bf, false, true);
          while (rlo < rhi) {  // first r whose result differs from r = 0
            uint64_t mid = (rlo + rhi) / 2;
            if (rs_ref(a, mid, bf, false, true) != base) rhi = mid;
            else rlo = mid + 1;
          }
          for (uint64_t r : {rlo, rlo == 0 ? 0 : rlo - 1})
            v.put(mn, {a, a ^ 0x80000000u, (r << 16) | r},
                  (rs_ref(a, r, bf, relu, sf) << 16) | rs_ref(a ^ 0x80000000u, r, bf, relu, sf));
        }
      }
  std::printf("mx.vec: %zu vectors\n", v.n);
}
