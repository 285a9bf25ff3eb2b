// Drivers for the X3 grammar: set up the parse state and context, run the
// rule, then resolve names (resolve.cpp).
#include "parser/parse.hpp"

#include <algorithm>

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

template <typename Rule, typename Attr>
void run(const Rule& rule, std::string_view text, x3g::ParseState& st, Attr& attr) {
  namespace x3 = boost::spirit::x3;
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
