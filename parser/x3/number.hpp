// Numeric literals of PTX ISA 4.5.1-4.5.2 as a hand-written X3 primitive:
// integers (decimal, 0x hex, leading-0 octal, 0b binary, optional U suffix)
// and floats (0fXXXXXXXX, 0dXXXXXXXXXXXXXXXX, decimal with '.' or exponent).
// Why a primitive: one scan decides the literal kind without backtracking,
// and out-of-range constants are reported at the literal.
#pragma once
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <string>

#include "parser/ast.hpp"
#include "parser/x3/config.hpp"

namespace ptxcheck::x3g {

inline bool is_idchar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$';
}

struct number_parser : x3::parser<number_parser> {
  using attribute_type = ast::Operand;
  static bool const has_attribute = true;

  template <typename Ctx, typename RCtx, typename Attr>
  bool parse(iterator_type& first, const iterator_type& last, const Ctx& ctx, RCtx&,
             Attr& attr) const {
    x3::skip_over(first, last, ctx);
    const char* p = first;
    if (p == last || *p < '0' || *p > '9') return false;
    ast::Operand op;
    const char* end = scan(p, last, op, ctx);
    if (!end || (end != last && is_idchar(*end))) return false;
    first = end;
    if constexpr (!std::is_same_v<Attr, x3::unused_type>) attr = std::move(op);
    return true;
  }

  static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  template <typename Ctx>
  static const char* scan(const char* p, const char* last, ast::Operand& op, const Ctx& ctx) {
    const size_t n = last - p;
    // 0f / 0d: hex-encoded IEEE single / double (exactly 8 / 16 digits).
    if (n >= 2 && p[0] == '0' && (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D')) {
      const bool dbl = p[1] == 'd' || p[1] == 'D';
      const size_t digits = dbl ? 16 : 8;
      if (n < 2 + digits) return nullptr;
      uint64_t bits = 0;
      for (size_t i = 0; i < digits; ++i) {
        int v = hexval(p[2 + i]);
        if (v < 0) return nullptr;
        bits = bits << 4 | v;
      }
      op.v = ast::FloatImm{bits, dbl ? ast::FloatForm::Hex64 : ast::FloatForm::Hex32};
      return p + 2 + digits;
    }
    ast::IntImm imm;
    const char* q = p;
    int radix = 10;
    if (n >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
      radix = 16, imm.base = ast::IntBase::Hex, q = p + 2;
    } else if (n >= 2 && p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) {
      radix = 2, imm.base = ast::IntBase::Bin, q = p + 2;
    } else {
      // Decimal float? digits followed by '.' or an exponent.
      const char* d = p;
      while (d != last && *d >= '0' && *d <= '9') ++d;
      if (d != last && (*d == '.' || *d == 'e' || *d == 'E')) {
        const char* e = d;
        if (*e == '.') {
          ++e;
          while (e != last && *e >= '0' && *e <= '9') ++e;
        }
        if (e != last && (*e == 'e' || *e == 'E')) {
          const char* x = e + 1;
          if (x != last && (*x == '+' || *x == '-')) ++x;
          if (x == last || *x < '0' || *x > '9') return nullptr;
          while (x != last && *x >= '0' && *x <= '9') ++x;
          e = x;
        }
        std::string text(p, e);
        double v = std::strtod(text.c_str(), nullptr);
        uint64_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        op.v = ast::FloatImm{bits, ast::FloatForm::Decimal};
        return e;
      }
      if (p[0] == '0' && d - p > 1) radix = 8, imm.base = ast::IntBase::Oct, q = p + 1;
    }
    const char* start = q;
    uint64_t value = 0;
    bool overflow = false;
    for (; q != last; ++q) {
      int v = hexval(*q);
      if (v < 0 || v >= radix) break;
      if (value > (UINT64_MAX - v) / radix) overflow = true;
      value = value * radix + v;
    }
    if (q == start) return nullptr;
    if (q != last && (*q >= '0' && *q <= '9')) return nullptr;  // 09, 0b12
    if (overflow) state(ctx).fail(p, "integer constant does not fit in 64 bits");
    if (q != last && *q == 'U') imm.is_unsigned = true, ++q;
    imm.value = value;
    op.v = imm;
    return q;
  }
};

inline constexpr number_parser number{};

}  // namespace ptxcheck::x3g
