// Printable names of the model's vocabulary (events.hpp), for output.
#pragma once
#include "memmodel/events.hpp"

namespace ptxcheck::mm {
const char* to_string(Scope s);
const char* to_string(Order o);
const char* to_string(Proxy p);
const char* to_string(EventKind k);
const char* to_string(StateSpace s);
const char* to_string(AsyncOpKind k);
// memmodel/async.def: the proxy an asynchronous operation accesses memory
// through, and whether it is ordered after prior instructions (8.9.1.1).
Proxy async_op_proxy(AsyncOpKind k);
bool async_op_issue_ordered(AsyncOpKind k);
}  // namespace ptxcheck::mm
