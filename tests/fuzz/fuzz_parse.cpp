// libFuzzer target `parse`: parse_module (what `ptxcheck parse` runs) and,
// on success, print + re-parse must either succeed or throw InputError with
// a position; anything else (crash, sanitizer report, other exception,
// round-trip mismatch) is a finding.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "parser/parse.hpp"
#include "parser/printer.hpp"
#include "tests/fuzz/fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  ptxcheck::ast::Module m;
  try {
    m = ptxcheck::parse_module(text, "fuzz.ptx");
  } catch (const ptxcheck::InputError& e) {
    ptxcheck::fuzz::require_position(e);
    return 0;
  }
  // Accepted input: the printer must produce a module that parses back equal.
  const std::string printed = ptxcheck::print(m);
  try {
    if (!(ptxcheck::parse_module(printed, "printed.ptx") == m))
      ptxcheck::fuzz::finding("print/parse round trip changed the module", printed);
  } catch (const ptxcheck::InputError& e) {
    ptxcheck::fuzz::finding("printed module does not parse", e.what() + std::string("\n") + printed);
  }
  return 0;
}
