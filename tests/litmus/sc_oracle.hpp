// A brute-force sequential-consistency engine for tests only: an oracle
// independent of memmodel/ that checks semantics/litmus's skeletons.
// Candidates: rf by value (not from the RMW's own write), co as every
// permutation of each location's writes after its initial write.
// Consistent iff acyclic(po | rf | co | fr) and no write intervenes
// in co between an RMW's read source and its write (RMW atomicity).
#pragma once
#include "memmodel/engine.hpp"

namespace ptxcheck::testing {

class ScOracle : public mm::Engine {
 public:
  std::string name() const override { return "sc-oracle"; }
  mm::EngineStats enumerate(const mm::Skeleton& s, const mm::Model& m, const mm::Limits& lim,
                            const mm::Visitor& visit) override;
};

}  // namespace ptxcheck::testing
