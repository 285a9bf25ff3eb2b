// The enumeration engine with its reductions selectable, for the tests and
// benchmarks that compare a reduction with the path without it. Everything
// else uses make_enum_engine() / make_enum_perm_engine() (engine.hpp).
#pragma once
#include <memory>
#include <vector>

#include "memmodel/engine.hpp"

namespace ptxcheck::mm {

struct EnumOptions {
  // Try every Fence-SC order instead of searching for one (make_enum_perm_engine).
  bool permutations = false;
  // Reads of a location no two threads share read from the write the
  // axioms force (docs/model-notes.md "Locations no two threads share").
  bool private_locations = true;
};

std::unique_ptr<Engine> make_enum_engine(const EnumOptions& opt);

// Per event of s: for a read of a location no two threads share, the write
// it reads from in every consistent execution (-1: none, so the trace
// combination has no execution); -2 for every other event.
std::vector<int> private_read_sources(const Skeleton& s, const Model& m);

}  // namespace ptxcheck::mm
