// A small JSON reader that keeps the source position of every value and key
// and the raw text of every number, so that launch specs and expected files
// can (a) report errors at the offending key and (b) read numbers by value
// (correctly rounded decimals, integers beyond 2^53) rather than through a
// double. Contract: parse_json throws ptxcheck::InputError(file, pos, msg) on
// malformed text (RFC 8259 grammar; duplicate keys are an error).
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parser/diagnostic.hpp"

namespace ptxcheck::interp {

struct JNode {
  enum class Kind { Null, Bool, Number, String, Array, Object };
  Kind kind = Kind::Null;
  SourcePos pos;
  bool boolean = false;
  std::string text;  // String: decoded value; Number: raw spelling
  std::vector<JNode> items;                          // Array
  std::vector<std::pair<std::string, JNode>> members;  // Object (in order)
  std::vector<SourcePos> key_pos;                    // Object: position of each key

  // Declared here, defaulted in json_pos.cpp: with the implicit ones, clang
  // (libstdc++ 12) instantiates pair<string, JNode> while JNode is incomplete.
  JNode();
  JNode(const JNode&);
  JNode(JNode&&) noexcept;
  JNode& operator=(const JNode&);
  JNode& operator=(JNode&&) noexcept;
  ~JNode();

  bool is_object() const { return kind == Kind::Object; }
  bool is_array() const { return kind == Kind::Array; }
  bool is_string() const { return kind == Kind::String; }
  bool is_number() const { return kind == Kind::Number; }
  // Member lookup; nullptr when absent (or not an object).
  const JNode* find(std::string_view key) const;
  // Position of the key `key` when present, else this node's position.
  SourcePos key_position(std::string_view key) const;
  static const char* kind_name(Kind k);
};

// Parses `text` (the contents of `file`); nesting deeper than 256 is refused.
JNode parse_json(const std::string& file, std::string_view text);

// Reads a whole file; throws InputError(file, {}, ...) when unreadable.
std::string read_file_text(const std::string& path);

}  // namespace ptxcheck::interp
