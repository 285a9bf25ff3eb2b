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
    case Proxy::Generic: return "generic";
    case Proxy::Texture: return "texture";
    case Proxy::Surface: return "surface";
    case Proxy::Constant: return "constant";
  }
  return "?";
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
