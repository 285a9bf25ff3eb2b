// Shared oracle of the libFuzzer targets (tests/fuzz/fuzz_*.cpp): what
// counts as a clean rejection. A front end may reject an input only with
// InputError carrying a position (the CLI prints `file:line:col: message`)
// or with LimitError (exit 3); any other exception escapes the target, and
// libFuzzer reports it as a crash.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>

#include "parser/diagnostic.hpp"

namespace ptxcheck::fuzz {

// A parse error without line:col breaks the diagnostics contract.
inline void require_position(const InputError& e) {
  if (e.pos().line == 0 || e.pos().col == 0) {
    std::fprintf(stderr, "InputError without line:col: %s: %s\n", e.file().c_str(), e.what());
    std::abort();
  }
}

[[noreturn]] inline void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz finding: %s\n%s\n", what, detail.c_str());
  std::abort();
}

}  // namespace ptxcheck::fuzz
