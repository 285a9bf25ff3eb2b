// Spellings of the model's vocabulary (memmodel/vocab.def): printers for
// output and parsers for the front ends, all generated from the one table.
// Header-only, so that the litmus front ends use it without linking memmodel
// (tests/layering.py lets parser see memmodel/events.hpp and this header).
#pragma once
#include <optional>
#include <string_view>

#include "memmodel/events.hpp"

namespace ptxcheck::mm {

// X-macro expansions, one line per row: clang-format would join the
// #include into the #define's continuation.
// clang-format off

inline const char* to_string(Scope v) {
  switch (v) {
#define SCOPE(id, name) case Scope::id: return name;
#include "memmodel/vocab.def"
  }
  return "?";
}

// The Scope spelled `s`; nullopt for a name outside the table.
inline std::optional<Scope> scope_from_name(std::string_view s) {
#define SCOPE(id, name) if (s == name) return Scope::id;
#include "memmodel/vocab.def"
  return std::nullopt;
}

inline const char* to_string(Order v) {
  switch (v) {
#define ORDER(id, name) case Order::id: return name;
#include "memmodel/vocab.def"
  }
  return "?";
}

// The Order spelled `s`; nullopt for a name outside the table.
inline std::optional<Order> order_from_name(std::string_view s) {
#define ORDER(id, name) if (s == name) return Order::id;
#include "memmodel/vocab.def"
  return std::nullopt;
}

inline const char* to_string(Proxy v) {
  switch (v) {
#define PROXY(id, name) case Proxy::id: return name;
#include "memmodel/vocab.def"
  }
  return "?";
}

// The Proxy spelled `s`; nullopt for a name outside the table.
inline std::optional<Proxy> proxy_from_name(std::string_view s) {
#define PROXY(id, name) if (s == name) return Proxy::id;
#include "memmodel/vocab.def"
  return std::nullopt;
}

inline const char* to_string(ProxyFenceKind v) {
  switch (v) {
#define PROXY_FENCE(id, name) case ProxyFenceKind::id: return name;
#include "memmodel/vocab.def"
  }
  return "?";
}

// The ProxyFenceKind spelled `s`; nullopt for a name outside the table (or empty).
inline std::optional<ProxyFenceKind> proxy_fence_from_name(std::string_view s) {
#define PROXY_FENCE(id, name) if (name[0] != 0 && s == name) return ProxyFenceKind::id;
#include "memmodel/vocab.def"
  return std::nullopt;
}

inline const char* to_string(StateSpace v) {
  switch (v) {
#define SPACE(id, name) case StateSpace::id: return name;
#include "memmodel/vocab.def"
  }
  return "?";
}

inline const char* to_string(EventKind v) {
  switch (v) {
#define EVENT_KIND(id, name) case EventKind::id: return name;
#include "memmodel/vocab.def"
  }
  return "?";
}

inline const char* to_string(AsyncOpKind k) {
  switch (k) {
#define ASYNC_OP(id, name, proxy, issue_ordered) case AsyncOpKind::id: return name;
#include "memmodel/vocab.def"
  }
  return "?";
}

// The proxy an asynchronous operation accesses memory through, and whether
// it is ordered after prior instructions (PTX ISA 8.9.1.1 Asynchronous
// operations).
inline Proxy async_op_proxy(AsyncOpKind k) {
  switch (k) {
#define ASYNC_OP(id, name, proxy, issue_ordered) case AsyncOpKind::id: return Proxy::proxy;
#include "memmodel/vocab.def"
  }
  return Proxy::Generic;
}

inline bool async_op_issue_ordered(AsyncOpKind k) {
  switch (k) {
#define ASYNC_OP(id, name, proxy, issue_ordered) case AsyncOpKind::id: return issue_ordered;
#include "memmodel/vocab.def"
  }
  return true;
}

// clang-format on

}  // namespace ptxcheck::mm
