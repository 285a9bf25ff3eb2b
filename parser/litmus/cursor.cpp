// Scanner and final-condition grammar shared by both litmus dialects.
#include "parser/litmus/cursor.hpp"

#include <cctype>
#include <fstream>
#include <sstream>

namespace ptxcheck::litmus {

namespace {
bool id_start(char ch) { return std::isalpha(static_cast<unsigned char>(ch)) || ch == '_' || ch == '%' || ch == '$'; }
bool id_char(char ch) { return id_start(ch) || std::isdigit(static_cast<unsigned char>(ch)) || ch == '.'; }
}  // namespace

void Cursor::skip_ws() {
  while (off_ < text_.size()) {
    char ch = text_[off_];
    if (std::isspace(static_cast<unsigned char>(ch))) {
      ++off_;
    } else if (text_.compare(off_, 2, "(*") == 0) {
      size_t end = text_.find("*)", off_ + 2);
      if (end == std::string_view::npos) fail("unterminated comment");
      off_ = end + 2;
    } else if (text_.compare(off_, 2, "//") == 0) {
      size_t end = text_.find('\n', off_);
      off_ = end == std::string_view::npos ? text_.size() : end;
    } else {
      break;
    }
  }
}

bool Cursor::accept(std::string_view s) {
  skip_ws();
  if (text_.compare(off_, s.size(), s) != 0) return false;
  off_ += s.size();
  return true;
}

bool Cursor::accept_word(std::string_view s) {
  skip_ws();
  if (text_.compare(off_, s.size(), s) != 0) return false;
  size_t end = off_ + s.size();
  if (end < text_.size() && id_char(text_[end])) return false;
  off_ = end;
  return true;
}

void Cursor::expect(std::string_view s) {
  if (!accept(s)) fail("expected '" + std::string(s) + "'");
}

bool Cursor::at_ident() {
  skip_ws();
  return off_ < text_.size() && id_start(text_[off_]);
}

std::string Cursor::ident(const char* what) {
  if (!at_ident()) fail(std::string("expected ") + what);
  size_t start = off_;
  while (off_ < text_.size() && id_char(text_[off_])) ++off_;
  return std::string(text_.substr(start, off_ - start));
}

bool Cursor::at_number() {
  skip_ws();
  if (off_ >= text_.size()) return false;
  char ch = text_[off_];
  if (ch == '-' && off_ + 1 < text_.size()) ch = text_[off_ + 1];
  return std::isdigit(static_cast<unsigned char>(ch));
}

uint64_t Cursor::number() {
  if (!at_number()) fail("expected a number");
  bool neg = text_[off_] == '-';
  if (neg) ++off_;
  size_t start = off_;
  uint64_t v = 0;
  bool hex = text_.compare(off_, 2, "0x") == 0 || text_.compare(off_, 2, "0X") == 0;
  if (hex) off_ += 2;
  int base = hex ? 16 : 10;
  bool any = false;
  while (off_ < text_.size() && std::isxdigit(static_cast<unsigned char>(text_[off_]))) {
    char ch = text_[off_];
    int d = std::isdigit(static_cast<unsigned char>(ch)) ? ch - '0' : (std::tolower(ch) - 'a' + 10);
    if (d >= base) break;
    uint64_t nv = v * base + d;
    if (nv / base != v) fail_at(start, "number out of range");
    v = nv;
    any = true;
    ++off_;
  }
  if (!any) fail_at(start, "expected a number");
  if (off_ < text_.size() && id_char(text_[off_])) fail_at(start, "malformed number");
  return neg ? uint64_t{0} - v : v;
}

void Cursor::fail_at(size_t at, const std::string& msg) const {
  throw InputError(file_, position_of(text_, std::min(at, text_.size())), msg);
}

std::string reg_operand(Cursor& c, const RegSyntax& syntax) {
  size_t at = c.off();
  std::string id = c.ident("register");
  if (!syntax.is_reg(id))
    c.fail_at(at, std::string("expected a register (") + syntax.shape + "), got '" + id + "'");
  return id;
}

Operand value_operand(Cursor& c, const RegSyntax& syntax) {
  Operand o;
  if (c.at_number()) {
    o.imm = c.number();
    return o;
  }
  size_t at = c.off();
  std::string id = c.ident("register or constant");
  if (!syntax.is_reg(id))
    c.fail_at(at, std::string("expected a register (") + syntax.shape + ") or a constant, got '" + id + "'");
  o.is_reg = true;
  o.reg = id;
  return o;
}

std::vector<std::string> split_dots(const std::string& m) {
  std::vector<std::string> parts;
  size_t s = 0;
  while (true) {
    size_t d = m.find('.', s);
    parts.push_back(m.substr(s, d == std::string::npos ? d : d - s));
    if (d == std::string::npos) break;
    s = d + 1;
  }
  return parts;
}

int thread_index(std::string_view s) {
  if (!s.empty() && (s[0] == 'P' || s[0] == 'T')) s.remove_prefix(1);
  if (s.empty() || s.size() > 6) return -1;
  int v = 0;
  for (char ch : s) {
    if (!std::isdigit(static_cast<unsigned char>(ch))) return -1;
    v = v * 10 + (ch - '0');
  }
  return v;
}

// ---- condition grammar ----------------------------------------------------

namespace {

Cond parse_or(Cursor& c, int depth);

[[noreturn]] void unknown_thread(Cursor& c, size_t at, uint64_t n) {
  c.fail_at(at, "condition names unknown thread " + std::to_string(n) + " (the test has " +
                    std::to_string(c.known_threads) + ")");
}

CondValue parse_value(Cursor& c) {
  CondValue v;
  if (c.at_number()) {
    size_t save = c.off();
    uint64_t n = c.number();
    // `1:r0` (herd style): a thread number followed by ':'.
    if (c.accept(":")) {
      if (c.known_threads >= 0 && n >= static_cast<uint64_t>(c.known_threads)) unknown_thread(c, save, n);
      v.kind = CondValue::Reg;
      v.thread = static_cast<int>(n);
      v.name = c.ident("register name");
      return v;
    }
    v.kind = CondValue::Const;
    v.value = n;
    return v;
  }
  size_t at = c.off();
  std::string id = c.ident("register, location or constant");
  if (c.peek() == ':' ) {
    int t = thread_index(id);
    if (t < 0) c.fail_at(at, "expected a thread name like P0 before ':'");
    if (c.known_threads >= 0 && t >= c.known_threads) unknown_thread(c, at, static_cast<uint64_t>(t));
    c.expect(":");
    v.kind = CondValue::Reg;
    v.thread = t;
    v.name = c.ident("register name");
    return v;
  }
  v.kind = CondValue::Loc;
  v.name = id;
  return v;
}

Cond parse_atom(Cursor& c, int depth) {
  if (depth > kMaxCondDepth) c.fail("condition nested deeper than " + std::to_string(kMaxCondDepth) + " levels");
  if (c.accept("~") || c.accept_word("not")) {
    Cond n;
    n.kind = Cond::Not;
    n.kids.push_back(parse_atom(c, depth + 1));
    return n;
  }
  if (c.accept("(")) {
    Cond inner = parse_or(c, depth + 1);
    // `a => b` is allowed inside parentheses and at top level.
    if (c.accept("=>")) {
      Cond imp;
      imp.kind = Cond::Implies;
      imp.kids.push_back(std::move(inner));
      imp.kids.push_back(parse_or(c, depth + 1));
      inner = std::move(imp);
    }
    c.expect(")");
    return inner;
  }
  if (c.accept_word("true")) return Cond{};
  if (c.accept_word("false")) {
    Cond n;
    n.kind = Cond::Not;
    n.kids.push_back(Cond{});
    return n;
  }
  Cond a;
  a.kind = Cond::Cmp;
  a.lhs = parse_value(c);
  if (c.accept("==")) a.cmp = CmpOp::Eq;
  else if (c.accept("!=")) a.cmp = CmpOp::Ne;
  else if (c.accept("<=")) a.cmp = CmpOp::Le;
  else if (c.accept(">=")) a.cmp = CmpOp::Ge;
  else if (c.accept("<")) a.cmp = CmpOp::Lt;
  else if (c.accept(">")) a.cmp = CmpOp::Gt;
  else if (c.accept("=")) a.cmp = CmpOp::Eq;
  else c.fail("expected a comparison (==, !=, <, <=, >, >=)");
  a.rhs = parse_value(c);
  return a;
}

Cond parse_and(Cursor& c, int depth) {
  Cond first = parse_atom(c, depth);
  if (c.peek() != '/' && c.peek() != '&') return first;
  Cond n;
  n.kind = Cond::And;
  n.kids.push_back(std::move(first));
  while (c.accept("/\\") || c.accept("&&")) n.kids.push_back(parse_atom(c, depth));
  return n;
}

Cond parse_or(Cursor& c, int depth) {
  Cond first = parse_and(c, depth);
  if (c.peek() != '\\' && c.peek() != '|') return first;
  Cond n;
  n.kind = Cond::Or;
  n.kids.push_back(std::move(first));
  while (c.accept("\\/") || c.accept("||")) n.kids.push_back(parse_and(c, depth));
  return n;
}

}  // namespace

int place_id(Cursor& c, size_t at, const std::string& lvl, uint64_t n) {
  // A CTA without a cluster is the cluster cta + 1000 * gpu (the front
  // ends), so CTA and GPU ids stay under 1000; the others are bounded to
  // fit an int.
  const uint64_t most = lvl == "cta" || lvl == "gpu" ? 999 : 999999;
  if (n > most) c.fail_at(at, lvl + " id " + std::to_string(n) + " out of range (at most " + std::to_string(most) + ")");
  return static_cast<int>(n);
}

void check_reg_inits(Cursor& c, const Test& t, const std::vector<size_t>& init_at) {
  for (size_t i = 0; i < t.reg_inits.size() && i < init_at.size(); ++i)
    if (t.reg_inits[i].thread >= static_cast<int>(t.threads.size()))
      c.fail_at(init_at[i], "register init for unknown thread " + std::to_string(t.reg_inits[i].thread) +
                                " (the test has " + std::to_string(t.threads.size()) + ")");
}

void parse_condition(Cursor& c, Test& t) {
  if (c.accept("~")) {
    if (!c.accept_word("exists")) c.fail("expected 'exists' after '~'");
    t.quant = Quant::NotExists;
  } else if (c.accept_word("exists")) {
    t.quant = Quant::Exists;
  } else if (c.accept_word("forall")) {
    t.quant = Quant::Forall;
  } else {
    c.fail("expected 'exists', '~exists' or 'forall'");
  }
  c.known_threads = static_cast<int>(t.threads.size());
  t.cond = parse_or(c, 0);
  if (c.accept("=>")) {
    Cond imp;
    imp.kind = Cond::Implies;
    imp.kids.push_back(std::move(t.cond));
    imp.kids.push_back(parse_or(c, 0));
    t.cond = std::move(imp);
  }
  if (!c.eof()) c.fail("unexpected text after the condition");
  for (size_t i = 0; i < t.threads.size(); ++i) (void)i;
}

// ---- printing and dispatch ------------------------------------------------

std::string to_string(const CondValue& v) {
  switch (v.kind) {
    case CondValue::Reg: return std::to_string(v.thread) + ":" + v.name;
    case CondValue::Loc: return v.name;
    case CondValue::Const: return std::to_string(static_cast<int64_t>(v.value));
  }
  return "?";
}

std::string to_string(const Cond& c) {
  auto join = [&](const char* sep) {
    std::string s = "(";
    for (size_t i = 0; i < c.kids.size(); ++i) s += (i ? sep : "") + to_string(c.kids[i]);
    return s + ")";
  };
  switch (c.kind) {
    case Cond::True: return "true";
    case Cond::Cmp: return to_string(c.lhs) + " " + to_string(c.cmp) + " " + to_string(c.rhs);
    case Cond::And: return join(" /\\ ");
    case Cond::Or: return join(" \\/ ");
    case Cond::Not: return "~" + (c.kids[0].kind == Cond::Cmp ? "(" + to_string(c.kids[0]) + ")" : to_string(c.kids[0]));
    case Cond::Implies: return join(" => ");
  }
  return "?";
}

const char* quant_name(Quant q) {
  switch (q) {
    case Quant::Exists: return "exists";
    case Quant::NotExists: return "~exists";
    case Quant::Forall: return "forall";
  }
  return "?";
}

const char* Test::kind_name() const {
  switch (quant) {
    case Quant::Exists: return "Allowed";
    case Quant::NotExists: return "Forbidden";
    case Quant::Forall: return "Required";
  }
  return "?";
}

namespace {
// The offset of the first `ch` at or after `from` that is outside doc
// strings ("..."), (* comments *) and // comments, or npos. A doc string may
// hold braces and newlines (`"a {}\nb"`), which must not decide the dialect.
size_t find_code(std::string_view text, char ch, size_t from) {
  for (size_t i = from; i < text.size(); ++i) {
    char c = text[i];
    if (c == ch) return i;
    size_t end = std::string_view::npos;
    if (c == '"') {
      end = text.find('"', i + 1);
    } else if (text.compare(i, 2, "(*") == 0) {
      end = text.find("*)", i + 2);
      if (end != std::string_view::npos) ++end;
    } else if (text.compare(i, 2, "//") == 0) {
      end = text.find('\n', i);
    } else {
      continue;
    }
    if (end == std::string_view::npos) return end;  // unterminated: the parser reports it
    i = end;
  }
  return std::string_view::npos;
}
}  // namespace

Test parse_litmus_text(std::string_view text, const std::string& file) {
  // The native format declares threads as blocks: a line `P0@... {` or
  // `T0 ... {`, or a PTX prelude of `.func` definitions first; Dat3M's
  // dialect has a header row of `|`-separated columns.
  size_t brace = find_code(text, '{', 0);
  size_t close = brace == std::string_view::npos ? brace : find_code(text, '}', brace);
  if (close != std::string_view::npos) {
    size_t line_end = text.find('\n', close);
    std::string_view rest = text.substr(line_end == std::string_view::npos ? text.size() : line_end);
    size_t nl = rest.find_first_not_of(" \t\r\n");
    if (nl != std::string_view::npos) {
      size_t eol = rest.find('\n', nl);
      std::string_view first = rest.substr(nl, eol == std::string_view::npos ? eol : eol - nl);
      if ((first.find('{') != std::string_view::npos || first[0] == '.') && first.find('|') == std::string_view::npos)
        return parse_native(text, file);
    }
  }
  return parse_dat3m(text, file);
}

Test parse_litmus_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, {}, "cannot read file");
  std::ostringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  return parse_litmus_text(text, path);
}

}  // namespace ptxcheck::litmus
