#include "memmodel/names.hpp"

namespace ptxcheck::mm {

const char* to_string(Scope s) {
  switch (s) {
    case Scope::CTA: return "cta";
    case Scope::Cluster: return "cluster";
    case Scope::GPU: return "gpu";
    case Scope::Sys: return "sys";
  }
  return "?";
}

const char* to_string(Order o) {
  switch (o) {
    case Order::Weak: return "weak";
    case Order::Relaxed: return "relaxed";
    case Order::Acquire: return "acquire";
    case Order::Release: return "release";
    case Order::AcqRel: return "acq_rel";
    case Order::SC: return "sc";
    case Order::MMIO: return "mmio";
  }
  return "?";
}

const char* to_string(Proxy p) {
  switch (p) {
#define PROXY(id, name) \
  case Proxy::id: return name;
#include "memmodel/async.def"
  }
  return "?";
}

const char* to_string(StateSpace s) {
  switch (s) {
#define SPACE(id, name) \
  case StateSpace::id: return name;
#include "memmodel/async.def"
  }
  return "?";
}

const char* to_string(AsyncOpKind k) {
  switch (k) {
#define ASYNC_OP(id, name, proxy, issue_ordered) \
  case AsyncOpKind::id: return name;
#include "memmodel/async.def"
  }
  return "?";
}

Proxy async_op_proxy(AsyncOpKind k) {
  switch (k) {
#define ASYNC_OP(id, name, proxy, issue_ordered) \
  case AsyncOpKind::id: return Proxy::proxy;
#include "memmodel/async.def"
  }
  return Proxy::Generic;
}

bool async_op_issue_ordered(AsyncOpKind k) {
  switch (k) {
#define ASYNC_OP(id, name, proxy, issue_ordered) \
  case AsyncOpKind::id: return issue_ordered;
#include "memmodel/async.def"
  }
  return true;
}

const char* to_string(EventKind k) {
  switch (k) {
    case EventKind::Init: return "init";
    case EventKind::Read: return "R";
    case EventKind::Write: return "W";
    case EventKind::Fence: return "F";
    case EventKind::ProxyFence: return "PF";
    case EventKind::Barrier: return "B";
  }
  return "?";
}

}  // namespace ptxcheck::mm
