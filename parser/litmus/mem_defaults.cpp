// PTX's memory-model defaults (see mem_defaults.hpp), cited once:
//   PTX ISA 8.4.2 volatile Operation: .volatile is a relaxed operation at
//     system scope.
//   PTX ISA 8.5 Scope: each strong operation specifies a scope; one written
//     without a scope is .sys. A scope without semantics is .relaxed.
//   PTX ISA 9.7.13.4 membar/fence: membar and a fence without .sem are
//     fence.sc (a .relaxed fence is not a memory fence; it counts as .sc).
//   PTX ISA 9.7.13.5 atom / 9.7.13.6 red: without .sem an atomic is
//     .relaxed, and without .scope it is .gpu.
#include "parser/litmus/mem_defaults.hpp"

#include "parser/litmus/instr_names.hpp"

namespace ptxcheck::litmus {

bool read_order_qualifier(std::string_view q, MemQuals& m) {
  if (q == "volatile") {
    m.is_volatile = true;
    return true;
  }
  auto o = mm::order_from_name(q);
  if (!o) return false;
  m.order = *o;
  return true;
}

bool read_scope_qualifier(std::string_view q, MemQuals& m) {
  if (q == "gl") {
    m.scope = mm::Scope::GPU;
    return true;
  }
  auto s = mm::scope_from_name(q);
  if (!s) return false;
  m.scope = *s;
  return true;
}

MemSem normalise(MemClass k, const MemQuals& q) {
  MemSem s;
  if (q.is_volatile) {
    s.order = mm::Order::Relaxed;
  } else if (q.order) {
    s.order = *q.order;
  } else if (q.scope) {
    s.order = mm::Order::Relaxed;
  }
  if (q.scope) s.scope = *q.scope;
  switch (k) {
    case MemClass::Access: break;
    case MemClass::Atomic:
      if (s.order == mm::Order::Weak) s.order = mm::Order::Relaxed;
      if (!q.scope) s.scope = mm::Scope::GPU;
      break;
    case MemClass::Fence:
      if (s.order == mm::Order::Weak || s.order == mm::Order::Relaxed) s.order = mm::Order::SC;
      break;
  }
  return s;
}

}  // namespace ptxcheck::litmus
