// Body of the litmus fuzz targets `litmus_native` and `litmus_dat3m`: the
// dialect's parser (what `ptxcheck FILE.litmus` reaches through
// parse_litmus_file's dispatch) must accept the input or throw InputError with
// line:col. An accepted test must print in its own dialect and parse back
// equivalent (parser/litmus/print.hpp: print_X throws InputError only for
// what the dialect cannot express); the other dialect's printer is held to
// the same contract.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "parser/litmus/litmus_ast.hpp"
#include "parser/litmus/print.hpp"
#include "tests/fuzz/fuzz_check.hpp"

namespace ptxcheck::fuzz {

enum class Dialect { Native, Dat3m };

inline litmus::Test parse_dialect(Dialect d, std::string_view text, const std::string& file) {
  return d == Dialect::Native ? litmus::parse_native(text, file) : litmus::parse_dat3m(text, file);
}

// print_X(t) parses back (in dialect X) to a test equivalent to t.
inline void round_trip(Dialect d, const litmus::Test& t) {
  std::string printed;
  try {
    printed = d == Dialect::Native ? litmus::print_native(t) : litmus::print_dat3m(t);
  } catch (const InputError&) {
    return;  // not expressible in this dialect (print.hpp lists what)
  }
  litmus::Test back;
  try {
    back = parse_dialect(d, printed, "printed.litmus");
  } catch (const InputError& e) {
    finding("printed litmus test does not parse", e.what() + std::string("\n") + printed);
  }
  std::string diff = litmus::test_difference(t, back);
  if (!diff.empty()) finding("print/parse round trip changed the test", diff + "\n" + printed);
}

inline int fuzz_litmus(Dialect d, const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  litmus::Test t;
  try {
    t = parse_dialect(d, text, "fuzz.litmus");
  } catch (const InputError& e) {
    require_position(e);
    return 0;
  }
  (void)litmus::to_string(t.cond);
  round_trip(d, t);
  round_trip(d == Dialect::Native ? Dialect::Dat3m : Dialect::Native, t);
  return 0;
}

}  // namespace ptxcheck::fuzz
