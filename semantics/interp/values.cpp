#include "semantics/interp/values.hpp"

#include <cfenv>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "semantics/interp/values_fmt.hpp"

namespace ptxcheck::interp {
namespace {

struct ElemInfo {
  const char* name;
  unsigned bytes;
  char kind;
};
constexpr ElemInfo kInfo[] = {
#define ELEM(name, bytes, kind) {#name, bytes, #kind[0]},
#include "semantics/interp/elem_types.def"
#undef ELEM
};
const ElemInfo& info(ElemType t) { return kInfo[static_cast<int>(t)]; }

// Exponent and mantissa widths of the small float formats.
void float_shape(ElemType t, int& eb, int& mb) {
  switch (t) {
    case ElemType::f16:
      eb = 5;
      mb = 10;
      return;
    case ElemType::bf16:
      eb = 8;
      mb = 7;
      return;
    case ElemType::f32:
      eb = 8;
      mb = 23;
      return;
    default:
      eb = 11;
      mb = 52;
      return;
  }
}

// Round a finite or special double to a binary format with eb exponent bits
// and mb mantissa bits, round to nearest even (IEEE 754 convertFormat).
uint64_t round_to_format(double x, int eb, int mb) {
  uint64_t sign = std::signbit(x) ? 1ull << (eb + mb) : 0;
  uint64_t exp_all = ((1ull << eb) - 1) << mb;
  if (std::isnan(x)) return exp_all | ((1ull << mb) - 1);
  double ax = std::fabs(x);
  if (std::isinf(ax)) return sign | exp_all;
  if (ax == 0) return sign;
  int bias = (1 << (eb - 1)) - 1, emin = 1 - bias, emax = bias;
  int e;
  std::frexp(ax, &e);
  int E = e - 1;
  bool sub = E < emin;
  int qexp = (sub ? emin : E) - mb;
  double q = std::ldexp(ax, -qexp);  // exact: power-of-two scaling
  double r = std::nearbyint(q);      // default mode: ties to even
  uint64_t m = static_cast<uint64_t>(r);
  if (sub) return sign | m;  // m == 2^mb encodes the smallest normal
  if (m == (2ull << mb)) {
    ++E;
    m >>= 1;
  }
  if (E > emax) return sign | exp_all;
  return sign | (static_cast<uint64_t>(E + bias) << mb) | (m - (1ull << mb));
}

double decode_format(uint64_t bits, int eb, int mb) {
  bool neg = (bits >> (eb + mb)) & 1;
  uint64_t ex = (bits >> mb) & ((1ull << eb) - 1);
  uint64_t man = bits & ((1ull << mb) - 1);
  int bias = (1 << (eb - 1)) - 1;
  double v;
  if (ex == (1ull << eb) - 1)
    v = man ? std::nan("") : INFINITY;
  else if (ex == 0)
    v = std::ldexp(static_cast<double>(man), 1 - bias - mb);
  else
    v = std::ldexp(static_cast<double>(man | (1ull << mb)), static_cast<int>(ex) - bias - mb);
  return neg ? -v : v;
}

bool parse_hex(std::string_view s, uint64_t& out) {
  if (s.size() < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || s.size() > 18) return false;
  out = 0;
  auto r = std::from_chars(s.data() + 2, s.data() + s.size(), out, 16);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool is_decimal_spelling(std::string_view s) {
  // JSON-like number: -?digits(.digits)?([eE][+-]?digits)?, also "+", ".5" forbidden.
  size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  size_t d0 = i;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  if (i == d0) return false;
  if (i < s.size() && s[i] == '.') {
    ++i;
    size_t d1 = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (i == d1) return false;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    size_t d2 = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (i == d2) return false;
  }
  return i == s.size();
}

// strtod under a given rounding mode (glibc honours the dynamic mode).
double strtod_mode(const std::string& s, int mode) {
  int old = std::fegetround();
  std::fesetround(mode);
  volatile double d = std::strtod(s.c_str(), nullptr);
  std::fesetround(old);
  return d;
}

// Exact integer spelling ([-]digits) into a 128-bit value; false on overflow.
bool parse_exact_int(std::string_view s, __int128& out) {
  bool neg = !s.empty() && s[0] == '-';
  size_t i = neg ? 1 : 0;
  if (i >= s.size()) return false;
  unsigned __int128 v = 0;
  for (; i < s.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    v = v * 10 + static_cast<unsigned>(s[i] - '0');
    if (v > (static_cast<unsigned __int128>(1) << 65)) return false;
  }
  out = neg ? -static_cast<__int128>(v) : static_cast<__int128>(v);
  return true;
}

}  // namespace

std::optional<ElemType> elem_type_from(std::string_view name) {
  for (size_t i = 0; i < std::size(kInfo); ++i)
    if (name == kInfo[i].name) return static_cast<ElemType>(i);
  return std::nullopt;
}
const char* elem_name(ElemType t) { return info(t).name; }
unsigned elem_size(ElemType t) { return info(t).bytes; }
bool elem_is_float(ElemType t) { return info(t).kind == 'F'; }
bool elem_is_signed(ElemType t) { return info(t).kind == 'S'; }

uint64_t canonical_nan(ElemType t) {
  int eb, mb;
  float_shape(t, eb, mb);
  return (1ull << (eb + mb)) - 1;
}

uint64_t mask_to(uint64_t bits, ElemType t) {
  unsigned n = elem_size(t) * 8;
  return n == 64 ? bits : bits & ((1ull << n) - 1);
}

uint64_t double_to_float_bits(double x, ElemType t) {
  int eb, mb;
  float_shape(t, eb, mb);
  if (std::isnan(x)) return canonical_nan(t);
  return round_to_format(x, eb, mb);
}

double float_bits_to_double(uint64_t bits, ElemType t) {
  int eb, mb;
  float_shape(t, eb, mb);
  if (t == ElemType::f64) {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  return decode_format(bits, eb, mb);
}

std::optional<uint64_t> decimal_to_float_bits(std::string_view text, ElemType t) {
  uint64_t h;
  if (parse_hex(text, h)) {
    if (elem_size(t) < 8 && (h >> (elem_size(t) * 8))) return std::nullopt;
    return h;
  }
  if (text == "nan" || text == "NaN") return canonical_nan(t);
  if (text == "-nan") return canonical_nan(t) | (1ull << (elem_size(t) * 8 - 1));
  int eb, mb;
  float_shape(t, eb, mb);
  uint64_t inf = ((1ull << eb) - 1) << mb;
  uint64_t signbit = 1ull << (eb + mb);
  if (text == "inf" || text == "Infinity" || text == "+inf") return inf;
  if (text == "-inf" || text == "-Infinity") return inf | signbit;
  if (!is_decimal_spelling(text)) return std::nullopt;
  bool neg = text[0] == '-';
  std::string mag(text.substr(text[0] == '-' || text[0] == '+' ? 1 : 0));
  uint64_t bits;
  if (t == ElemType::f64) {
    double d = strtod_mode(mag, FE_TONEAREST);
    std::memcpy(&bits, &d, 8);
  } else if (t == ElemType::f32) {
    int old = std::fegetround();
    std::fesetround(FE_TONEAREST);
    volatile float f = std::strtof(mag.c_str(), nullptr);
    std::fesetround(old);
    uint32_t b;
    float ff = f;
    std::memcpy(&b, &ff, 4);
    bits = b;
  } else {
    // Round to odd at double precision, then to nearest even at the target:
    // exact because 53 >= 2 * 11 + 2 (Boldo & Melquiond, "round to odd").
    double lo = strtod_mode(mag, FE_TOWARDZERO);
    double hi = strtod_mode(mag, FE_UPWARD);
    if (lo != hi && std::isfinite(lo)) {
      uint64_t b;
      std::memcpy(&b, &lo, 8);
      b |= 1;
      std::memcpy(&lo, &b, 8);
    }
    bits = round_to_format(lo, eb, mb);
  }
  return neg ? bits | signbit : bits;
}

uint64_t read_value(const JNode& node, ElemType t, const std::string& file) {
  const std::string tn = elem_name(t);
  if (node.kind != JNode::Kind::Number && node.kind != JNode::Kind::String)
    throw InputError(file, node.pos,
                     "expected a " + tn + " value (a number or a string), got " + JNode::kind_name(node.kind));
  if (elem_is_float(t)) {
    auto b = decimal_to_float_bits(node.text, t);
    if (!b) throw InputError(file, node.pos, "'" + node.text + "' is not a valid " + tn + " value");
    return *b;
  }
  unsigned bitsz = elem_size(t) * 8;
  uint64_t h;
  if (node.is_string() && parse_hex(node.text, h)) {
    if (bitsz < 64 && (h >> bitsz))
      throw InputError(file, node.pos, "hex value '" + node.text + "' does not fit " + tn);
    return h;
  }
  __int128 v;
  if (!parse_exact_int(node.text, v)) {
    // Integral decimals such as 1e3 or 4.0 are accepted when exact.
    if (is_decimal_spelling(node.text)) {
      long double d = std::strtold(node.text.c_str(), nullptr);
      if (std::isfinite(d) && d == std::nearbyintl(d) && std::fabs(d) < 0x1p64L) {
        v = static_cast<__int128>(d);
        goto range;
      }
    }
    throw InputError(file, node.pos, "'" + node.text + "' is not a valid " + tn + " integer");
  }
range:
  __int128 lo = elem_is_signed(t) ? -(static_cast<__int128>(1) << (bitsz - 1)) : 0;
  __int128 hi =
      elem_is_signed(t) ? (static_cast<__int128>(1) << (bitsz - 1)) - 1 : (static_cast<__int128>(1) << bitsz) - 1;
  if (t == ElemType::b8) lo = -128;  // untyped bytes accept either reading
  if (v < lo || v > hi) throw InputError(file, node.pos, "value " + node.text + " is out of range for " + tn);
  return mask_to(static_cast<uint64_t>(v), t);
}

size_t format_value_to(char* buf, uint64_t bits, ElemType t) {
  char* const end = buf + kValueChars;
  if (t == ElemType::f32) {  // the common case, without the double
    float f;
    const uint32_t u = static_cast<uint32_t>(bits);
    std::memcpy(&f, &u, 4);
    if (std::isfinite(f) && !(f == 0 && std::signbit(f)))
      return static_cast<size_t>(std::to_chars(buf, end, f).ptr - buf);
  }
  bits = mask_to(bits, t);
  auto put = [&](const char* s) {
    const size_t n = std::strlen(s);
    std::memcpy(buf, s, n);
    return n;
  };
  if (!elem_is_float(t)) {
    unsigned n = elem_size(t) * 8;
    if (elem_is_signed(t)) {
      int64_t v = n == 64 ? static_cast<int64_t>(bits) : static_cast<int64_t>(bits << (64 - n)) >> (64 - n);
      return static_cast<size_t>(std::to_chars(buf, end, v).ptr - buf);
    }
    return static_cast<size_t>(std::to_chars(buf, end, bits).ptr - buf);
  }
  double d = float_bits_to_double(bits, t);
  if (std::isnan(d)) {
    if (bits == canonical_nan(t)) return put("\"nan\"");
    buf[0] = '"';
    buf[1] = '0';
    buf[2] = 'x';
    char* p = std::to_chars(buf + 3, end - 1, bits, 16).ptr;
    *p++ = '"';
    return static_cast<size_t>(p - buf);
  }
  if (std::isinf(d)) return put(d > 0 ? "\"inf\"" : "\"-inf\"");
  // Negative zero keeps a fraction so that JSON readers that map integer
  // spellings to integers (Python's json: `-0` is int 0) keep the sign.
  if (d == 0 && std::signbit(d)) return put("-0.0");
  if (t == ElemType::f64) return static_cast<size_t>(std::to_chars(buf, end, d).ptr - buf);
  if (t == ElemType::f32) return static_cast<size_t>(std::to_chars(buf, end, static_cast<float>(d)).ptr - buf);
  // f16/bf16: the shortest precision whose spelling reads back to the bits.
  for (int p = 1; p <= 17; ++p) {
    auto r = std::to_chars(buf, end, d, std::chars_format::general, p);
    auto back = decimal_to_float_bits(std::string_view(buf, static_cast<size_t>(r.ptr - buf)), t);
    if (back && *back == bits) return static_cast<size_t>(r.ptr - buf);
  }
  return static_cast<size_t>(std::to_chars(buf, end, d).ptr - buf);
}

std::string format_value(uint64_t bits, ElemType t) {
  char buf[kValueChars];
  return std::string(buf, format_value_to(buf, bits, t));
}

}  // namespace ptxcheck::interp
