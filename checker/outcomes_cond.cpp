// Conditions over final buffer states (outcomes_cond.hpp).
#include "checker/outcomes_cond.hpp"

#include <cctype>
#include <cstring>

#include "parser/diagnostic.hpp"

namespace ptxcheck::cli {

namespace {

class CondParser {
 public:
  CondParser(const std::string& t, const interp::LaunchSpec& s, const std::string& what)
      : t_(t), spec_(s), what_(what) {}

  BufCond expr() {
    BufCond l = conj();
    while (eat("\\/") || eat("||")) {
      BufCond r = conj();
      l = join(BufCond::Or, std::move(l), std::move(r));
    }
    return l;
  }
  BufCond state() {  // a; b; c  (also , and /\)
    BufCond all;
    all.kind = BufCond::And;
    while (true) {
      skip();
      if (i_ >= t_.size()) break;
      all.kids.push_back(cmp());
      if (!(eat(";") || eat(",") || eat("/\\") || eat("&&"))) break;
    }
    end();
    if (all.kids.empty()) fail("empty state");
    return all;
  }
  void end() {
    skip();
    if (i_ < t_.size()) fail("unexpected '" + t_.substr(i_, 1) + "'");
  }

 private:
  static BufCond join(BufCond::Kind k, BufCond a, BufCond b) {
    BufCond c;
    c.kind = k;
    c.kids.push_back(std::move(a));
    c.kids.push_back(std::move(b));
    return c;
  }
  BufCond conj() {
    BufCond l = unary();
    while (eat("/\\") || eat("&&")) {
      BufCond r = unary();
      l = join(BufCond::And, std::move(l), std::move(r));
    }
    return l;
  }
  BufCond unary() {
    // Parentheses and negations nest at most kMaxDepth deep: deeper input is
    // refused at its position rather than overflowing the stack.
    constexpr int kMaxDepth = 256;
    if (depth_ >= kMaxDepth) fail("condition nested deeper than " + std::to_string(kMaxDepth) + " levels");
    struct Guard {
      int& d;
      ~Guard() { --d; }
    } guard{++depth_};
    if (eat("~") || (peek('!') && !peek2('='), eat("!"))) {
      BufCond c;
      c.kind = BufCond::Not;
      c.kids.push_back(unary());
      return c;
    }
    if (eat("(")) {
      BufCond c = expr();
      if (!eat(")")) fail("expected ')'");
      return c;
    }
    if (eat_word("true")) return BufCond{};
    return cmp();
  }
  BufCond cmp() {
    skip();
    size_t at = i_;
    std::string name;
    while (i_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[i_])) || t_[i_] == '_')) name += t_[i_++];
    if (name.empty()) fail("expected a buffer element like out[0]");
    BufCond c;
    c.kind = BufCond::Cmp;
    size_t o = 0;
    for (; o < spec_.outputs.size() && spec_.outputs[o] != name; ++o) {}
    if (o == spec_.outputs.size()) fail("'" + name + "' is not an output buffer of the spec", at);
    c.out = o;
    const interp::BufferSpec& b = *spec_.buffer(name);
    std::string n = "0";
    if (eat("[")) {
      skip();
      n.clear();
      while (i_ < t_.size() && std::isdigit(static_cast<unsigned char>(t_[i_]))) n += t_[i_++];
      if (n.empty() || !eat("]")) fail("expected an element index and ']'");
      // Past the buffer either way: an index too long for 64 bits fails below.
      c.elem = n.size() > 19 ? UINT64_MAX : std::stoull(n);
    }
    if (c.elem >= b.count) fail(name + "[" + n + "] is past the buffer's " + std::to_string(b.count) + " elements", at);
    for (const char* op : {"==", "!=", "<=", ">=", "<", ">", "="})
      if (eat(op)) {
        c.op = std::strcmp(op, "=") == 0 ? "==" : op;
        break;
      }
    if (c.op.empty()) fail("expected a comparison (== != < <= > >=)");
    skip();
    size_t vs = i_;
    std::string v;
    while (i_ < t_.size() && !std::isspace(static_cast<unsigned char>(t_[i_])) && t_[i_] != ')' && t_[i_] != ';' &&
           t_[i_] != ',' && t_[i_] != '/' && t_[i_] != '\\' && t_[i_] != '&' && t_[i_] != '|')
      v += t_[i_++];
    if (v.empty()) fail("expected a value");
    interp::JNode node;
    bool quoted = !v.empty() && !(std::isdigit(static_cast<unsigned char>(v[0])) || v[0] == '-' || v[0] == '.');
    node.kind = quoted ? interp::JNode::Kind::String : interp::JNode::Kind::Number;
    node.text = v;
    node.pos = {1, static_cast<uint32_t>(vs + 1)};
    try {
      c.bits = interp::read_value(node, b.type, what_);
    } catch (const InputError& e) {
      fail(std::string("bad value '") + v + "' for " + interp::elem_name(b.type) + ": " + e.what(), vs);
    }
    return c;
  }
  void skip() {
    while (i_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[i_]))) ++i_;
  }
  bool peek(char ch) {
    skip();
    return i_ < t_.size() && t_[i_] == ch;
  }
  bool peek2(char ch) const { return i_ + 1 < t_.size() && t_[i_ + 1] == ch; }
  bool eat(const char* s) {
    skip();
    size_t n = std::strlen(s);
    if (t_.compare(i_, n, s) != 0) return false;
    i_ += n;
    return true;
  }
  bool eat_word(const char* s) {
    skip();
    size_t n = std::strlen(s);
    if (t_.compare(i_, n, s) != 0 || (i_ + n < t_.size() && std::isalnum(static_cast<unsigned char>(t_[i_ + n]))))
      return false;
    i_ += n;
    return true;
  }
  [[noreturn]] void fail(const std::string& m) { fail(m, i_); }
  [[noreturn]] void fail(const std::string& m, size_t at) {
    throw InputError(what_, {1, static_cast<uint32_t>(at + 1)}, m);
  }
  const std::string& t_;
  const interp::LaunchSpec& spec_;
  std::string what_;
  size_t i_ = 0;
  int depth_ = 0;
};

}  // namespace

BufCond parse_buf_cond(const std::string& text, const interp::LaunchSpec& spec, const std::string& what) {
  CondParser p(text, spec, what);
  if (what == "--state") return p.state();
  BufCond c = p.expr();
  p.end();
  return c;
}

bool eval_buf_cond(const BufCond& c, const interp::LaunchSpec& spec, const std::vector<std::vector<uint8_t>>& bufs) {
  switch (c.kind) {
    case BufCond::True: return true;
    case BufCond::Not: return !eval_buf_cond(c.kids[0], spec, bufs);
    case BufCond::And:
      for (const auto& k : c.kids)
        if (!eval_buf_cond(k, spec, bufs)) return false;
      return true;
    case BufCond::Or:
      for (const auto& k : c.kids)
        if (eval_buf_cond(k, spec, bufs)) return true;
      return false;
    case BufCond::Cmp: {
      const interp::BufferSpec& b = *spec.buffer(spec.outputs[c.out]);
      unsigned sz = interp::elem_size(b.type);
      uint64_t v = 0;
      std::memcpy(&v, &bufs[c.out][c.elem * sz], sz);
      if (c.op == "==") return v == c.bits;
      if (c.op == "!=") return v != c.bits;
      int cmp;
      if (interp::elem_is_float(b.type)) {
        double x = interp::float_bits_to_double(v, b.type), y = interp::float_bits_to_double(c.bits, b.type);
        if (x != x || y != y) return false;
        cmp = x < y ? -1 : x > y ? 1 : 0;
      } else if (interp::elem_is_signed(b.type)) {
        unsigned sh = 64 - 8 * sz;
        int64_t x = static_cast<int64_t>(v << sh) >> sh, y = static_cast<int64_t>(c.bits << sh) >> sh;
        cmp = x < y ? -1 : x > y ? 1 : 0;
      } else {
        cmp = v < c.bits ? -1 : v > c.bits ? 1 : 0;
      }
      if (c.op == "<") return cmp < 0;
      if (c.op == "<=") return cmp <= 0;
      if (c.op == ">") return cmp > 0;
      return cmp >= 0;
    }
  }
  return false;
}

}  // namespace ptxcheck::cli
