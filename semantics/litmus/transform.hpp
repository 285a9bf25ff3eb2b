// Small program changes to litmus Tests, for mutation testing (MC-Mutants
// style) and for monotonicity properties of the memory model.
// Contract:
//  * mutations(t, k) lists every place where change k applies, in thread
//    order then instruction order (then scope, narrowest first). Each entry
//    can be passed to apply(t, m), which returns a new Test (t is not
//    modified) whose name is t.name + "+" + a tag naming the change
//    (letters, digits, '.', '-' only: valid in both dialects).
//  * thread/instr index Test::threads[thread].code[instr]; for
//    InsertFenceSc, instr is the insertion index (0..code.size()) and the
//    new fence.sc comes before the instruction now at that index.
//  * scope is the new scope (NarrowScope, WidenScope, InsertFenceSc);
//    ignored by the other changes.
//  * weakens(k): a weakening change can only make a test's permitted
//    outcome set grow under the PTX model (PTX ISA 8.8-8.10: it removes
//    release/acquire patterns, morally strong pairs, or Fence-SC order
//    constraints); a strengthening one (WidenScope, InsertFenceSc) can only
//    make it shrink. Whether that holds is what tests/props checks.
// What each change does (PTX ISA sections: 8.4 operation types, 8.5 scope,
// 9.7.13.4 fence):
//  DropFence         removes a fence.{sc,acq_rel,acquire,release} (not fence.proxy)
//  AcquireToRelaxed  ld.acquire -> ld.relaxed; atom.acquire -> .relaxed;
//                    atom.acq_rel -> .release (the read half loses acquire)
//  ReleaseToRelaxed  st.release -> st.relaxed; red/atom.release -> .relaxed;
//                    atom.acq_rel -> .acquire (the write half loses release)
//  NarrowScope       a strong access or fence gets a narrower scope
//  WidenScope        a strong access or fence gets a wider scope
//  InsertFenceSc     inserts fence.sc.<scope>
//  StrongToWeak      ld/st .relaxed/.acquire/.release -> weak (no scope)
#pragma once
#include <string>
#include <vector>

#include "parser/litmus/litmus_ast.hpp"

namespace ptxcheck::litmus {

#define PTXCHECK_CHANGES(X) \
  X(DropFence, "drop-fence", true) \
  X(AcquireToRelaxed, "acq-to-rlx", true) \
  X(ReleaseToRelaxed, "rel-to-rlx", true) \
  X(NarrowScope, "narrow", true) \
  X(WidenScope, "widen", false) \
  X(InsertFenceSc, "fence-sc", false) \
  X(StrongToWeak, "weak", true)

enum class Change {
#define PTXCHECK_CHANGE_ENUM(name, tag, weak) name,
  PTXCHECK_CHANGES(PTXCHECK_CHANGE_ENUM)
#undef PTXCHECK_CHANGE_ENUM
};

struct Mutation {
  Change kind = Change::DropFence;
  int thread = 0;
  int instr = 0;
  mm::Scope scope = mm::Scope::Sys;
  // "narrow T1:2 ld.acquire.gpu -> cta" style, for reports.
  std::string describe() const;
};

// All changes, in declaration order.
const std::vector<Change>& all_changes();
const char* change_name(Change k);  // the tag: "drop-fence", "narrow", ...

std::vector<Mutation> mutations(const Test& t, Change kind);
// Throws std::invalid_argument when m does not apply to t.
Test apply(const Test& t, const Mutation& m);
bool weakens(Change kind);

}  // namespace ptxcheck::litmus
