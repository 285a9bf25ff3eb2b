// Threads kept between the launches of a process (docs/interpreter.md,
// "CTAs on all cores"): the CTA workers of a parallel launch, the spec
// reader's large buffers and the report's formatting run their parts on
// them instead of starting a thread per part and per launch.
#pragma once

#include <functional>

namespace ptxcheck::interp {

// Runs job(i) for every i in [0, n): job(0) on the caller's thread, the
// others on threads of the process's pool (made when none is idle, kept
// afterwards), and returns when all have returned. A job the pool cannot
// start a thread for runs on the caller's thread after job(0), in order.
// Jobs must not throw. Several callers may run at once (each gets threads
// of its own).
void run_jobs(unsigned n, const std::function<void(unsigned)>& job);

}  // namespace ptxcheck::interp
