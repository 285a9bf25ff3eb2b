// Diagnostics shared by every front end (PTX, litmus, launch specs, CLI).
// Contract: an error prints as one line `file:line:col: error: message`,
// followed by the source line and a caret when the source text is known.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ptxcheck {

// Exit codes for the whole CLI (issue: Foundation, item 5).
enum ExitCode : int {
  kExitOk = 0,
  kExitExpectationFailed = 1,
  kExitInvalidInput = 2,
  kExitResourceLimit = 3,
};

struct SourcePos {
  uint32_t line = 0;  // 1-based; 0 = unknown
  uint32_t col = 0;   // 1-based; 0 = unknown
};

// Thrown by front ends for malformed input; carries a position.
class InputError : public std::runtime_error {
 public:
  InputError(std::string file, SourcePos pos, const std::string& msg)
      : std::runtime_error(msg), file_(std::move(file)), pos_(pos) {}
  const std::string& file() const { return file_; }
  SourcePos pos() const { return pos_; }

 private:
  std::string file_;
  SourcePos pos_;
};

// Thrown when a resource limit (timeout, step budget, execution cap) ends work.
class LimitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `file:line:col: error: message` (line/col omitted when unknown).
std::string format_error(std::string_view file, SourcePos pos, std::string_view msg);

// As format_error, plus the offending source line and a caret under `col`
// when `source` (the whole file text) is given.
std::string format_error_with_source(std::string_view file, SourcePos pos, std::string_view msg,
                                     std::string_view source);

// 1-based line/column of byte offset `off` in `text`.
SourcePos position_of(std::string_view text, size_t off);

}  // namespace ptxcheck
