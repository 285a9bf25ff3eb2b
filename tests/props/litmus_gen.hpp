// Random litmus tests built as cycles of PTX edges, diy7 style: the cycle
// is a sequence of communication edges (rf, fr, co; external between
// threads or internal within one) and program-order edges (po with an
// optional fence of any kind and scope, data and control dependencies, the
// rmw edge joining an atom's read and write). Threads are the stretches
// between external edges; each po edge moves to a new location (when the
// cycle has exactly one, it stays on the location: po-loc). Thread
// placement is drawn from the scope tree: each thread is in the same warp,
// same CTA, same cluster, same GPU or another GPU as an earlier thread.
// The condition asks for the values the cycle implies (reads, and final
// values of locations written twice or more); `exists` whether or not the
// cycle is forbidden, so outcome sets, not verdicts, are the useful output.
//
// Contract: generate() is a pure function of its options and the choices
// `pick(n)` returns (each in [0, n)); choice 0 is always the simplest, so
// RapidCheck shrinks toward small tests. Every result prints in the native
// format; with opt.warps = false it prints in Dat3M's dialect too.
// Not generated: address dependencies (litmus addresses are names, not
// registers), proxies and aliases, barriers, loops.
#pragma once
#include <functional>
#include <string>

#include "parser/litmus/litmus_ast.hpp"

namespace ptxcheck::props {

struct GenOptions {
  int max_threads = 4;      // 2..max_threads threads
  int max_internal = 2;     // internal edges per thread, 0..max_internal
  bool warps = true;        // place threads in warps (not expressible in Dat3M's dialect)
  bool strong = false;      // no weak accesses; scopes and fence scopes only .sys/.gpu
  std::string name_prefix;  // prepended to the edge-list name
  // Size bounds for fits(): checking cost grows with the coherence orders
  // (factorial in the writes to one location) and with the events.
  int max_writes_per_loc = 3;
  int max_accesses = 8;
};

using Pick = std::function<int(int)>;

litmus::Test generate(const GenOptions& opt, const Pick& pick);

// Whether t is within opt's size bounds (callers draw again when not).
bool fits(const litmus::Test& t, const GenOptions& opt);

}  // namespace ptxcheck::props
