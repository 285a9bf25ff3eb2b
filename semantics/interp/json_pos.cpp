#include "semantics/interp/json_pos.hpp"

#include <fstream>
#include <sstream>

namespace ptxcheck::interp {

JNode::JNode() = default;
JNode::JNode(const JNode&) = default;
JNode::JNode(JNode&&) noexcept = default;
JNode& JNode::operator=(const JNode&) = default;
JNode& JNode::operator=(JNode&&) noexcept = default;
JNode::~JNode() = default;

const JNode* JNode::find(std::string_view key) const {
  for (const auto& m : members)
    if (m.first == key) return &m.second;
  return nullptr;
}

SourcePos JNode::key_position(std::string_view key) const {
  for (size_t i = 0; i < members.size(); ++i)
    if (members[i].first == key) return key_pos[i];
  return pos;
}

const char* JNode::kind_name(Kind k) {
  switch (k) {
    case Kind::Null: return "null";
    case Kind::Bool: return "a boolean";
    case Kind::Number: return "a number";
    case Kind::String: return "a string";
    case Kind::Array: return "an array";
    case Kind::Object: return "an object";
  }
  return "?";
}

namespace {

class Reader {
 public:
  Reader(const std::string& file, std::string_view t) : file_(file), t_(t) {}

  JNode document() {
    skip_ws();
    JNode n = value(0);
    skip_ws();
    if (i_ < t_.size()) fail("unexpected text after the JSON value");
    return n;
  }

 private:
  [[noreturn]] void fail(const std::string& msg) { throw InputError(file_, here(), msg); }
  SourcePos here() const { return SourcePos{line_, col_}; }

  void advance() {
    if (t_[i_] == '\n') {
      ++line_;
      col_ = 1;
    } else if ((static_cast<unsigned char>(t_[i_]) & 0xC0) != 0x80) {
      ++col_;  // columns count characters, not UTF-8 continuation bytes
    }
    ++i_;
  }
  bool eof() const { return i_ >= t_.size(); }
  char peek() const { return eof() ? '\0' : t_[i_]; }

  void skip_ws() {
    while (!eof() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) advance();
  }

  void expect_word(std::string_view w) {
    for (char c : w) {
      if (peek() != c) fail("invalid literal; expected '" + std::string(w) + "'");
      advance();
    }
  }

  JNode value(int depth) {
    if (depth > 256) fail("JSON nested too deeply");
    if (eof()) fail("unexpected end of input; expected a value");
    JNode n;
    n.pos = here();
    char c = peek();
    if (c == '{') {
      n.kind = JNode::Kind::Object;
      advance();
      skip_ws();
      if (peek() == '}') {
        advance();
        return n;
      }
      for (;;) {
        skip_ws();
        if (peek() != '"') fail("expected a string key");
        SourcePos kp = here();
        std::string key = string_lit();
        for (const auto& m : n.members)
          if (m.first == key) throw InputError(file_, kp, "duplicate key \"" + key + "\"");
        skip_ws();
        if (peek() != ':') fail("expected ':' after key");
        advance();
        skip_ws();
        JNode v = value(depth + 1);
        n.members.emplace_back(std::move(key), std::move(v));
        n.key_pos.push_back(kp);
        skip_ws();
        if (peek() == ',') {
          advance();
          continue;
        }
        if (peek() == '}') {
          advance();
          return n;
        }
        fail("expected ',' or '}' in object");
      }
    }
    if (c == '[') {
      n.kind = JNode::Kind::Array;
      advance();
      skip_ws();
      if (peek() == ']') {
        advance();
        return n;
      }
      for (;;) {
        skip_ws();
        n.items.push_back(value(depth + 1));
        skip_ws();
        if (peek() == ',') {
          advance();
          continue;
        }
        if (peek() == ']') {
          advance();
          return n;
        }
        fail("expected ',' or ']' in array");
      }
    }
    if (c == '"') {
      n.kind = JNode::Kind::String;
      n.text = string_lit();
      return n;
    }
    if (c == 't') {
      expect_word("true");
      n.kind = JNode::Kind::Bool;
      n.boolean = true;
      return n;
    }
    if (c == 'f') {
      expect_word("false");
      n.kind = JNode::Kind::Bool;
      return n;
    }
    if (c == 'n') {
      expect_word("null");
      return n;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      n.kind = JNode::Kind::Number;
      n.text = number();
      return n;
    }
    fail(std::string("unexpected character '") + c + "'; expected a value");
  }

  static bool digit(char c) { return c >= '0' && c <= '9'; }

  std::string number() {
    size_t start = i_;
    if (peek() == '-') advance();
    if (peek() == '0') {
      advance();
    } else if (digit(peek())) {
      while (digit(peek())) advance();
    } else {
      fail("invalid number");
    }
    if (peek() == '.') {
      advance();
      if (!digit(peek())) fail("invalid number: digits expected after '.'");
      while (digit(peek())) advance();
    }
    if (peek() == 'e' || peek() == 'E') {
      advance();
      if (peek() == '+' || peek() == '-') advance();
      if (!digit(peek())) fail("invalid number: digits expected in exponent");
      while (digit(peek())) advance();
    }
    return std::string(t_.substr(start, i_ - start));
  }

  unsigned hex4() {
    unsigned v = 0;
    for (int k = 0; k < 4; ++k) {
      char c = peek();
      int d = digit(c) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
      if (d < 0) fail("invalid \\u escape");
      v = v * 16 + static_cast<unsigned>(d);
      advance();
    }
    return v;
  }

  static void utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  std::string string_lit() {
    advance();  // opening quote
    std::string out;
    for (;;) {
      if (eof()) fail("unterminated string");
      char c = peek();
      if (c == '"') {
        advance();
        return out;
      }
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in string");
      if (c != '\\') {
        out += c;
        advance();
        continue;
      }
      advance();
      char e = peek();
      if (eof()) fail("unterminated string");
      advance();
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xD800 && cp < 0xDC00) {
            if (peek() != '\\') fail("unpaired surrogate in \\u escape");
            advance();
            if (peek() != 'u') fail("unpaired surrogate in \\u escape");
            advance();
            unsigned lo = hex4();
            if (lo < 0xDC00 || lo >= 0xE000) fail("invalid low surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          utf8(out, cp);
          break;
        }
        default: fail(std::string("invalid escape '\\") + e + "'");
      }
    }
  }

  const std::string& file_;
  std::string_view t_;
  size_t i_ = 0;
  uint32_t line_ = 1, col_ = 1;
};

}  // namespace

JNode parse_json(const std::string& file, std::string_view text) { return Reader(file, text).document(); }

std::string read_file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, {}, "cannot open file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace ptxcheck::interp
