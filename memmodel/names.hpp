// Printable names of the model's vocabulary (events.hpp), for output.
#pragma once
#include "memmodel/events.hpp"

namespace ptxcheck::mm {
const char* to_string(Scope s);
const char* to_string(Order o);
const char* to_string(Proxy p);
const char* to_string(EventKind k);
}  // namespace ptxcheck::mm
