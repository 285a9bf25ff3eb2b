// Generator for f32.vec, f64.vec, half.vec, cmp.vec and approx.vec.
// References: the host FPU under fesetround (f32/f64 + - * / sqrt, fma),
// round-to-odd in double followed by the host's _Float16 conversion or a
// bit-level bf16 rounding (half types), C comparison operators, and libm in
// double for the .approx policy of docs/approx.md.
#include <algorithm>

#include "common.hpp"

using namespace gen;

namespace {

// ---- f32 / f64 through the host FPU ----

uint32_t sat32(uint32_t b) {
  float x = bfloat(b);
  if (std::isnan(x) || (b >> 31)) return 0;
  return x > 1.0f ? 0x3f800000u : b;
}

// One f32/f64 operation in rounding mode fe. volatile keeps the compiler
// from moving the arithmetic across the fesetround calls.
template <class F> F host_op(char op, F a, F b, F c, int fe) {
  volatile F x = a, y = b, z = c;
  std::fesetround(fe);
  volatile F r = 0;
  switch (op) {
    case '+': r = x + y; break;
    case '-': r = x - y; break;
    case '*': r = x * y; break;
    case '/': r = x / y; break;
    case 'f': r = std::fma(static_cast<F>(x), static_cast<F>(y), static_cast<F>(z)); break;
    case 's': r = std::sqrt(static_cast<F>(x)); break;
    case 'r': r = F(1) / x; break;
  }
  std::fesetround(FE_TONEAREST);
  return r;
}

uint32_t ref32(char op, uint32_t a, uint32_t b, uint32_t c, int fe, bool ftz, bool sat) {
  if (ftz) a = ftz32(a), b = ftz32(b), c = ftz32(c);
  float r = host_op<float>(op, bfloat(a), bfloat(b), bfloat(c), fe);
  uint32_t rb = fbits(r);
  if (std::isnan(r)) rb = 0x7fffffff;  // canonical NaN
  else if (ftz && f32_is_sub(rb)) rb &= 0x80000000u;
  return sat ? sat32(rb) : rb;
}

uint64_t ref64(char op, uint64_t a, uint64_t b, uint64_t c, int fe) {
  double r = host_op<double>(op, bdouble(a), bdouble(b), bdouble(c), fe);
  if (std::isnan(r)) return 0x7fffffffffffffffull;
  return dbits(r);
}

const char* opname(char op) {
  switch (op) {
    case '+': return "add";
    case '-': return "sub";
    case '*': return "mul";
    case '/': return "div";
    case 'f': return "fma";
    case 's': return "sqrt";
    default: return "rcp";
  }
}

// min/max from the ISA text: NaN ignored unless both NaN or .NaN; -0 < +0.
template <typename Bits>
Bits ref_minmax(bool mx, Bits a, Bits b, bool nan_mode, bool xorsign, double va, double vb,
                bool na, bool nb, Bits signbit, Bits canon) {
  if ((na && nb) || (nan_mode && (na || nb))) return canon;
  if (na || nb) {
    Bits r = na ? b : a;
    return xorsign ? Bits((r & ~signbit) | ((a ^ b) & signbit)) : r;
  }
  if (xorsign) {
    double ma = std::fabs(va), mb = std::fabs(vb);
    Bits r = (mx ? (ma >= mb) : (ma <= mb)) ? Bits(a & ~signbit) : Bits(b & ~signbit);
    return Bits(r | ((a ^ b) & signbit));
  }
  if (va < vb) return mx ? b : a;
  if (vb < va) return mx ? a : b;
  // equal values: only the zero signs can differ
  bool a_neg = (a & signbit) != 0;
  return mx ? (a_neg ? b : a) : (a_neg ? a : b);
}

void gen_f32(Vec& v, std::mt19937_64& rng) {
  auto e = f32_edges();
  std::vector<uint32_t> vals = e;
  for (int i = 0; i < 12; ++i) vals.push_back(rand_f32(rng));
  for (const Mode& m : kModes)
    for (int ftz = 0; ftz < 2; ++ftz)
      for (int sat = 0; sat < 2; ++sat) {
        if (sat && m.fe != FE_TONEAREST && ftz) continue;
        std::string sfx = std::string(".") + m.name + (ftz ? ".ftz" : "") + (sat ? ".sat" : "") + ".f32";
        for (uint32_t a : vals)
          for (uint32_t b : vals) {
            if (!keep(m.fe == FE_TONEAREST && !sat ? 0.3 : 0.1)) continue;
            for (char op : {'+', '-', '*'}) v.put(std::string(opname(op)) + sfx, {a, b}, ref32(op, a, b, 0, m.fe, ftz, sat));
            uint32_t c = vals[(a * 31 + b) % vals.size()];
            v.put("fma" + sfx, {a, b, c}, ref32('f', a, b, c, m.fe, ftz, sat));
            if (!sat) v.put("div" + sfx, {a, b}, ref32('/', a, b, 0, m.fe, ftz, false));
          }
        if (!sat)
          for (uint32_t a : vals) {
            v.put("sqrt" + sfx, {a}, ref32('s', a, 0, 0, m.fe, ftz, false));
            v.put("rcp" + sfx, {a}, ref32('r', a, 0, 0, m.fe, ftz, false));
          }
      }
  // random operands, mostly .rn, for the rounding paths
  for (int i = 0; i < 2000; ++i) {
    uint32_t a = rand_f32(rng), b = rand_f32(rng), c = rand_f32(rng);
    const Mode& m = kModes[i % 4];
    std::string sfx = std::string(".") + m.name + ".f32";
    v.put("add" + sfx, {a, b}, ref32('+', a, b, 0, m.fe, false, false));
    v.put("fma" + sfx, {a, b, c}, ref32('f', a, b, c, m.fe, false, false));
    v.put("mad" + sfx, {a, b, c}, ref32('f', a, b, c, m.fe, false, false));
    v.put("div" + sfx, {a, b}, ref32('/', a, b, 0, m.fe, false, false));
  }
  for (uint32_t a : vals) {
    float x = bfloat(a);
    for (int ftz = 0; ftz < 2; ++ftz) {
      uint32_t fa = ftz ? ftz32(a) : a;
      std::string f = ftz ? ".ftz" : "";
      // NaN: unspecified in the ISA; canonical NaN as an H200 (docs/approx.md)
      bool nan = (fa & 0x7fffffff) > 0x7f800000;
      v.put("abs" + f + ".f32", {a}, nan ? 0x7fffffff : fa & 0x7fffffff);
      v.put("neg" + f + ".f32", {a}, nan ? 0x7fffffff : fa ^ 0x80000000);
    }
    v.put("testp.finite.f32", {a}, std::isfinite(x));
    v.put("testp.infinite.f32", {a}, std::isinf(x));
    v.put("testp.number.f32", {a}, !std::isnan(x));
    v.put("testp.notanumber.f32", {a}, std::isnan(x));
    v.put("testp.normal.f32", {a}, std::isnormal(x) || x == 0);  // zeros count as normal (9.7.3.1)
    v.put("testp.subnormal.f32", {a}, std::fpclassify(x) == FP_SUBNORMAL);
    for (uint32_t b : vals) {
      if (!keep(0.3)) continue;
      v.put("copysign.f32", {a, b}, (b & 0x7fffffff) | (a & 0x80000000));
      for (int ftz = 0; ftz < 2; ++ftz)
        for (int nan = 0; nan < 2; ++nan)
          for (int xs = 0; xs < 2; ++xs) {
            uint32_t fa = ftz ? ftz32(a) : a, fb = ftz ? ftz32(b) : b;
            std::string md = std::string(ftz ? ".ftz" : "") + (nan ? ".NaN" : "") + (xs ? ".xorsign.abs" : "");
            for (int mx = 0; mx < 2; ++mx)
              v.put(std::string(mx ? "max" : "min") + md + ".f32", {a, b},
                    ref_minmax<uint32_t>(mx, fa, fb, nan, xs, bfloat(fa), bfloat(fb), std::isnan(bfloat(fa)),
                                         std::isnan(bfloat(fb)), 0x80000000u, 0x7fffffffu));
          }
    }
  }
}

void gen_f64(Vec& v, std::mt19937_64& rng) {
  std::vector<uint64_t> vals = f64_edges();
  for (int i = 0; i < 10; ++i) vals.push_back(rand_f64(rng));
  for (const Mode& m : kModes) {
    std::string sfx = std::string(".") + m.name + ".f64";
    for (uint64_t a : vals) {
      for (uint64_t b : vals) {
        if (!keep(0.5)) continue;
        for (char op : {'+', '-', '*', '/'}) v.put(std::string(opname(op)) + sfx, {a, b}, ref64(op, a, b, 0, m.fe));
        uint64_t c = vals[(a * 31 + b) % vals.size()];
        v.put("fma" + sfx, {a, b, c}, ref64('f', a, b, c, m.fe));
      }
      v.put("sqrt" + sfx, {a}, ref64('s', a, 0, 0, m.fe));
      v.put("rcp" + sfx, {a}, ref64('r', a, 0, 0, m.fe));
    }
  }
  for (int i = 0; i < 1000; ++i) {
    uint64_t a = rand_f64(rng), b = rand_f64(rng), c = rand_f64(rng);
    const Mode& m = kModes[i % 4];
    std::string sfx = std::string(".") + m.name + ".f64";
    v.put("add" + sfx, {a, b}, ref64('+', a, b, 0, m.fe));
    v.put("mul" + sfx, {a, b}, ref64('*', a, b, 0, m.fe));
    v.put("fma" + sfx, {a, b, c}, ref64('f', a, b, c, m.fe));
    v.put("div" + sfx, {a, b}, ref64('/', a, b, 0, m.fe));
    v.put("sqrt" + sfx, {a}, ref64('s', a, 0, 0, m.fe));
  }
  for (uint64_t a : vals) {
    double x = bdouble(a);
    // NaN: abs passes it unchanged (ISA); neg quiets it, sign kept (H200)
    bool nan = (a & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
    v.put("abs.f64", {a}, nan ? a : a & 0x7fffffffffffffffull);
    v.put("neg.f64", {a}, nan ? a | (1ull << 51) : a ^ 0x8000000000000000ull);
    v.put("testp.normal.f64", {a}, std::isnormal(x) || x == 0);
    v.put("testp.subnormal.f64", {a}, std::fpclassify(x) == FP_SUBNORMAL);
    v.put("testp.notanumber.f64", {a}, std::isnan(x));
    for (uint64_t b : vals) {
      double y = bdouble(b);
      for (int mx = 0; mx < 2; ++mx)
        v.put(std::string(mx ? "max" : "min") + ".f64", {a, b},
              ref_minmax<uint64_t>(mx, a, b, false, false, x, y, std::isnan(x), std::isnan(y),
                                   0x8000000000000000ull, 0x7fffffffffffffffull));
    }
  }
}

// ---- half types: round-to-odd in double, then one final rounding ----

template <typename F>
double odd(F f) {
  std::fesetround(FE_TOWARDZERO);
  std::feclearexcept(FE_INEXACT);
  volatile double r = f();
  bool inexact = std::fetestexcept(FE_INEXACT) != 0;
  std::fesetround(FE_TONEAREST);
  double d = r;
  return inexact ? bdouble(dbits(d) | 1) : d;
}

bool is_bf;  // current half format
double hval(uint16_t b) { return is_bf ? bf16_value(b) : static_cast<double>(bhalf(b)); }
bool hsub(uint16_t b) { return is_bf ? (b & 0x7f80) == 0 && (b & 0x7f) : f16_is_sub(b); }
uint16_t hround(double odd_value) {  // RN from a round-to-odd double
  if (std::isnan(odd_value)) return 0x7fff;
  if (!is_bf) return hbits(static_cast<_Float16>(odd_value));
  return f32_to_bf16(fbits(odd_float(odd_value)), FE_TONEAREST);
}

uint16_t ref16(char op, uint16_t a, uint16_t b, uint16_t c, bool ftz, bool sat, bool relu) {
  if (ftz) a = ftz16(a), b = ftz16(b), c = ftz16(c);
  double x = hval(a), y = hval(b), z = hval(c);
  double o = odd([&] {
    volatile double vx = x, vy = y, vz = z;
    switch (op) {
      case '+': return vx + vy;
      case '-': return vx - vy;
      case '*': return vx * vy;
      default: return std::fma(static_cast<double>(vx), static_cast<double>(vy), static_cast<double>(vz));
    }
  });
  uint16_t r = hround(o);
  if (r == 0x7fff) return sat ? 0 : r;
  if (ftz && hsub(r)) r &= 0x8000;
  if (sat) {
    if (r & 0x8000) return 0;
    uint16_t one = is_bf ? 0x3f80 : 0x3c00;
    return hval(r) > 1.0 ? one : r;
  }
  if (relu && (r & 0x8000)) return 0;
  return r;
}

void gen_half(Vec& v, std::mt19937_64& rng) {
  for (int bf = 0; bf < 2; ++bf) {
    is_bf = bf;
    auto vals = bf ? bf16_edges() : f16_edges();
    for (int i = 0; i < 8; ++i) vals.push_back(static_cast<uint16_t>(rng()));
    std::string T = bf ? ".bf16" : ".f16", T2 = bf ? ".bf16x2" : ".f16x2";
    for (int ftz = 0; ftz < (bf ? 1 : 2); ++ftz)
      for (int sat = 0; sat < (bf ? 1 : 2); ++sat) {
        std::string md = std::string(".rn") + (ftz ? ".ftz" : "") + (sat ? ".sat" : "");
        for (uint16_t a : vals)
          for (uint16_t b : vals) {
            if (!keep(0.35)) continue;
            uint16_t c = vals[(a * 7 + b) % vals.size()];
            for (char op : {'+', '-', '*'}) v.put(std::string(opname(op)) + md + T, {a, b}, ref16(op, a, b, 0, ftz, sat, false));
            v.put("fma" + md + T, {a, b, c}, ref16('f', a, b, c, ftz, sat, false));
            if (!sat && !ftz) v.put("fma.rn.relu" + T, {a, b, c}, ref16('f', a, b, c, false, false, true));
          }
        // packed: random lane pairs
        for (int i = 0; i < 200; ++i) {
          uint16_t a0 = vals[rng() % vals.size()], a1 = vals[rng() % vals.size()];
          uint16_t b0 = vals[rng() % vals.size()], b1 = vals[rng() % vals.size()];
          uint16_t c0 = vals[rng() % vals.size()], c1 = vals[rng() % vals.size()];
          uint64_t A = a0 | (uint64_t(a1) << 16), B = b0 | (uint64_t(b1) << 16), C = c0 | (uint64_t(c1) << 16);
          for (char op : {'+', '*', 'f'})
            v.put(std::string(opname(op)) + md + T2, op == 'f' ? std::initializer_list<uint64_t>{A, B, C} : std::initializer_list<uint64_t>{A, B},
                  ref16(op, a0, b0, c0, ftz, sat, false) | (uint64_t(ref16(op, a1, b1, c1, ftz, sat, false)) << 16));
        }
      }
    for (uint16_t a : vals) {
      // NaN: unspecified in the ISA; canonical NaN as an H200 (docs/approx.md)
      bool nan = std::isnan(hval(a));
      v.put("neg" + T, {a}, nan ? 0x7fff : a ^ 0x8000);
      v.put("abs" + T, {a}, nan ? 0x7fff : a & 0x7fff);
      for (uint16_t b : vals)
        if (keep(0.3))
        for (int nan = 0; nan < 2; ++nan)
          for (int xs = 0; xs < 2; ++xs)
            for (int mx = 0; mx < 2; ++mx) {
              double x = hval(a), y = hval(b);
              std::string md = std::string(nan ? ".NaN" : "") + (xs ? ".xorsign.abs" : "");
              v.put(std::string(mx ? "max" : "min") + md + T, {a, b},
                    ref_minmax<uint16_t>(mx, a, b, nan, xs, x, y, std::isnan(x), std::isnan(y), 0x8000, 0x7fff));
            }
    }
  }
}

}  // namespace

void gen_cmp(Vec& v, std::mt19937_64& rng);
void gen_approx(Vec& v, std::mt19937_64& rng);

int main(int argc, char** argv) {
  std::mt19937_64 rng(777);
  write_all(argc > 1 ? argv[1] : ".", rng,
            {{"f32.vec", "f32 arithmetic, PTX ISA 9.2 9.7.3 (all roundings, .ftz, .sat, min/max, testp)", gen_f32},
             {"f64.vec", "f64 arithmetic, PTX ISA 9.2 9.7.3 (all roundings)", gen_f64},
             {"half.vec", "f16/bf16 and x2 arithmetic, PTX ISA 9.2 9.7.4", gen_half},
             {"cmp.vec", "setp/set/slct, PTX ISA 9.2 9.7.7 (all compare operators and BoolOps)", gen_cmp},
             {"approx.vec", "approx instructions: the deterministic policy of docs/approx.md", gen_approx}});
}

#include "gen_cmp_approx.inc"
