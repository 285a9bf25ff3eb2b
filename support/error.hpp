// Errors and exit codes shared by every component (front ends, semantics,
// memmodel, CLI). Depends on nothing else in the repository, so that
// memmodel can report a resource limit without seeing the parser.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace ptxcheck {

// Exit codes for the whole CLI.
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

// Thrown when a resource limit (timeout, step budget, execution cap) ends work;
// the CLI exits with kExitResourceLimit.
class LimitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ptxcheck
