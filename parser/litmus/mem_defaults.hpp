// The defaults of PTX's memory-model qualifiers, written once for both
// litmus front ends: what an instruction means when it leaves out its
// semantics or its scope.
// Contract: a front end collects the qualifiers an instruction spells
// (read_order_qualifier() for the .sem ones) into MemQuals and asks
// normalise() for the order and scope of the model event(s).
#pragma once
#include <optional>
#include <string_view>

#include "memmodel/events.hpp"

namespace ptxcheck::litmus {

enum class MemClass : uint8_t { Access, Atomic, Fence };  // ld/st, atom/red, fence/membar

struct MemQuals {
  std::optional<mm::Order> order;  // .weak .relaxed .acquire .release .acq_rel .sc
  bool is_volatile = false;        // .volatile
  std::optional<mm::Scope> scope;  // .cta .cluster .gpu .sys (membar .gl = .gpu)
  bool has_order() const { return order || is_volatile; }
};

struct MemSem {
  mm::Order order = mm::Order::Weak;
  mm::Scope scope = mm::Scope::Sys;
};

// Record `q` when it is an order qualifier (or .volatile) / a scope
// qualifier (or membar's .gl); false otherwise.
bool read_order_qualifier(std::string_view q, MemQuals& m);
bool read_scope_qualifier(std::string_view q, MemQuals& m);

MemSem normalise(MemClass k, const MemQuals& q);

}  // namespace ptxcheck::litmus
