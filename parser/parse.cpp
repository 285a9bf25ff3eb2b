// Drivers for the X3 grammar: set up the parse state and context, run the
// rule, then resolve names (resolve.cpp).
#include "parser/parse.hpp"

#include <algorithm>
#include <array>

#include "parser/resolve.hpp"
#include "parser/x3/grammar.hpp"

namespace ptxcheck {
namespace x3g {

ParseState::ParseState(std::string_view text, std::string f, SourcePos o)
    : begin(text.data()), end(text.data() + text.size()), file(std::move(f)), origin(o) {
  if (origin.line == 0) origin.line = 1;
  if (origin.col == 0) origin.col = 1;
  line_starts.push_back(0);
  for (const char* p = begin; p != end; ++p)
    if (*p == '\n') line_starts.push_back(static_cast<uint32_t>(p - begin + 1));
}

SourcePos ParseState::pos(const char* p) const {
  const auto off = static_cast<uint32_t>(std::clamp(p, begin, end) - begin);
  // Lookups mostly move forward a little: try the last line and the next
  // few before a binary search.
  size_t h = line_hint;
  const size_t n = line_starts.size();
  while (h + 1 < n && line_starts[h + 1] <= off && h < line_hint + 4) ++h;
  if (!(line_starts[h] <= off && (h + 1 == n || off < line_starts[h + 1])))
    h = std::upper_bound(line_starts.begin(), line_starts.end(), off) - line_starts.begin() - 1;
  line_hint = h;
  const auto line = static_cast<uint32_t>(h + 1);  // 1-based
  uint32_t col = off - line_starts[line - 1] + 1;
  if (line == 1) col += origin.col - 1;
  return {line + origin.line - 1, col};
}

SourcePos ParseState::pos_skipped(const char* p) const {
  const char* q = std::clamp(p, begin, end);
  skipper_parser sk;
  x3::unused_type u;
  while (sk.parse(q, end, u, u, u)) {
  }
  return pos(q);
}

void ParseState::fail(const char* p, const std::string& msg) const {
  throw InputError(file, pos_skipped(p), msg);
}

}  // namespace x3g

namespace {

// The grammar is recursive ((), {}, [] and unary operators); bound the
// nesting before parsing so that hostile input cannot exhaust the stack.
constexpr int kMaxNesting = 64;
void check_nesting(std::string_view text, const x3g::ParseState& st) {
  // Only these bytes matter; everything else resets the unary run.
  static const auto kind = [] {
    std::array<uint8_t, 256> k{};
    for (unsigned char c : std::string_view("({[")) k[c] = 1;
    for (unsigned char c : std::string_view(")}]")) k[c] = 2;
    for (unsigned char c : std::string_view("-+!~")) k[c] = 3;
    for (unsigned char c : std::string_view(" \t\r\n")) k[c] = 4;
    k['/'] = 5;
    k['"'] = 6;
    return k;
  }();
  int depth = 0, unary_run = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    switch (kind[static_cast<unsigned char>(text[i])]) {
      case 0: unary_run = 0; continue;
      case 1: ++depth, unary_run = 0; break;
      case 2: depth = depth > 0 ? depth - 1 : 0, unary_run = 0; break;
      case 3: ++unary_run; break;
      case 4: continue;
      case 5:
        if (i + 1 < text.size() && (text[i + 1] == '/' || text[i + 1] == '*')) {
          const bool line = text[i + 1] == '/';
          size_t e = line ? text.find('\n', i) : text.find("*/", i + 2);
          if (e == std::string_view::npos) return;  // the grammar reports it
          i = line ? e : e + 1;
        }
        unary_run = 0;
        continue;
      case 6: {
        size_t e = text.find_first_of("\"\n", i + 1);
        if (e == std::string_view::npos) return;
        i = e;
        unary_run = 0;
        continue;
      }
    }
    if (depth > kMaxNesting || unary_run > kMaxNesting)
      st.fail(text.data() + i, "nesting deeper than " + std::to_string(kMaxNesting) + " levels");
  }
}

template <typename Rule, typename Attr>
void run(const Rule& rule, std::string_view text, x3g::ParseState& st, Attr& attr) {
  namespace x3 = boost::spirit::x3;
  check_nesting(text, st);
  const char* first = text.data();
  const char* last = text.data() + text.size();
  x3g::phrase_context_type skip_ctx(x3g::skipper);
  auto ref = std::ref(st);
  x3g::context_type ctx(ref, skip_ctx);
  if (!rule.parse(first, last, ctx, x3::unused, attr) || first != last)
    st.fail(first, "unexpected input");
}

}  // namespace

ast::Module parse_module(std::string_view text, const std::string& file) {
  x3g::ParseState st(text, file, {1, 1});
  ast::Module m;
  run(x3g::module_rule(), text, st, m);
  m.file = file;
  resolve_module(m);
  return m;
}

std::vector<ast::Statement> parse_statements(std::string_view text, const std::string& file,
                                             SourcePos origin) {
  x3g::ParseState st(text, file, origin);
  std::vector<ast::Statement> body;
  run(x3g::statements_rule(), text, st, body);
  resolve_body(body, {});
  return body;
}

}  // namespace ptxcheck
