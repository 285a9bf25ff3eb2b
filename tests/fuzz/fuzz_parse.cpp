// libFuzzer target: parse_module (and, on success, print + re-parse) must
// either succeed or throw InputError; anything else (crash, sanitizer report,
// other exception, round-trip mismatch) is a finding.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "parser/parse.hpp"
#include "parser/printer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  ptxcheck::ast::Module m;
  try {
    m = ptxcheck::parse_module(text, "fuzz.ptx");
  } catch (const ptxcheck::InputError&) {
    return 0;
  }
  // Accepted input: the printer must produce a module that parses back equal.
  const std::string printed = ptxcheck::print(m);
  try {
    if (!(ptxcheck::parse_module(printed, "printed.ptx") == m)) std::abort();
  } catch (const ptxcheck::InputError&) {
    std::abort();
  }
  return 0;
}
