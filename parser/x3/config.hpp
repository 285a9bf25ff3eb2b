// X3 configuration shared by the grammar definition and its one instantiating
// unit (parser/x3/grammar.cpp): iterator, skipper and context types, and the
// parse state (line index for positions, file name for errors).
#pragma once
#include <boost/spirit/home/x3.hpp>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "parser/diagnostic.hpp"

namespace ptxcheck::x3g {
namespace x3 = boost::spirit::x3;

using iterator_type = const char*;

// Whitespace and // or /* */ comments (PTX ISA 4.1, 4.2). An unterminated
// block comment is not skipped, so the parser reports an error at "/*".
struct skipper_parser : x3::parser<skipper_parser> {
  using attribute_type = x3::unused_type;
  static bool const has_attribute = false;
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It& first, const It& last, const Ctx&, RCtx&, Attr&) const {
    const It start = first;
    while (first != last) {
      char c = *first;
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        ++first;
      } else if (c == '/' && last - first >= 2 && first[1] == '/') {
        while (first != last && *first != '\n') ++first;
      } else if (c == '/' && last - first >= 2 && first[1] == '*') {
        It p = first + 2;
        while (p != last && !(*p == '*' && p + 1 != last && p[1] == '/')) ++p;
        if (p == last) break;  // unterminated: leave it for an error
        first = p + 2;
      } else {
        break;
      }
    }
    return first != start;
  }
};
using skipper_type = skipper_parser;
inline constexpr skipper_parser skipper{};

// Positions: byte pointer -> line:col, shifted by an origin (parse_statements).
struct ParseState {
  const char* begin = nullptr;
  const char* end = nullptr;
  std::string file;
  SourcePos origin{1, 1};
  std::vector<uint32_t> line_starts;  // byte offsets of line beginnings
  mutable size_t line_hint = 0;       // index into line_starts of the last lookup
  int depth = 0;                      // current nesting, see depth_directive

  ParseState(std::string_view text, std::string f, SourcePos o);
  SourcePos pos(const char* p) const;        // exact position of p
  SourcePos pos_skipped(const char* p) const;  // of the first non-blank char at/after p
  [[noreturn]] void fail(const char* p, const std::string& msg) const;
};
struct state_tag;

using phrase_context_type = x3::phrase_parse_context<skipper_type>::type;
using context_type =
    x3::context<state_tag, std::reference_wrapper<ParseState>, phrase_context_type>;

template <typename Ctx>
ParseState& state(const Ctx& ctx) {
  return x3::get<state_tag>(ctx).get();
}

}  // namespace ptxcheck::x3g
