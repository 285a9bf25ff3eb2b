// The contract between semantics/ (which turns a program into events) and
// memmodel/ (which decides which executions the PTX memory model permits).
// memmodel/ sees only what is declared here: events, locations, thread
// placement and intra-thread relations -- never PTX syntax.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ptxcheck::mm {

// The enums below and their spellings are memmodel/vocab.def
// (memmodel/names.hpp prints and parses them).

// PTX ISA 8.5 Scope.
enum class Scope : uint8_t {
#define SCOPE(id, name) id,
#include "memmodel/vocab.def"
};

// PTX ISA 8.4 Operation types. `volatile` is lowered by the front ends to
// Relaxed + Sys (8.4.2); Weak carries no scope.
enum class Order : uint8_t {
#define ORDER(id, name) id,
#include "memmodel/vocab.def"
};

// PTX ISA 8.6 Proxies: the method of access of a memory operation
// (Async is the asynchronous proxy of the bulk copies).
enum class Proxy : uint8_t {
#define PROXY(id, name) id,
#include "memmodel/vocab.def"
};

// The state space of a location, as far as a state-space-restricted proxy
// fence (fence.proxy.async.global, .shared::{cta,cluster}) needs it.
enum class StateSpace : uint8_t {
#define SPACE(id, name) id,
#include "memmodel/vocab.def"
};

// PTX ISA 8.9.1.1 Asynchronous operations.
enum class AsyncOpKind : uint8_t {
#define ASYNC_OP(id, name, proxy, issue_ordered) id,
#include "memmodel/vocab.def"
};

enum class EventKind : uint8_t {
#define EVENT_KIND(id, name) id,
#include "memmodel/vocab.def"
};

enum class ProxyFenceKind : uint8_t {
#define PROXY_FENCE(id, name) id,
#include "memmodel/vocab.def"
};

enum class BarrierOp : uint8_t { None, Sync, Arrive, Red };

// A memory location as the model sees it. Aliases (PTX ISA 8.2.2) are
// distinct virtual addresses of one physical location.
struct Location {
  std::string name;        // the litmus name (for output)
  int physical = 0;        // index of the physical location (aliases share it)
  // Virtual (generic) address id; -1 = this location's own index. A proxy
  // alias (`s @ surface aliases x`) names x's virtual address through another
  // proxy, so it shares x's id; a generic alias (`y @ generic aliases x`) is a
  // distinct virtual address of the same physical location (Dat3M's vloc).
  int vaddr = -1;
  Proxy proxy = Proxy::Generic;  // proxy through which this name is accessed
  StateSpace space = StateSpace::Global;  // for state-space-restricted proxy fences
  uint64_t init = 0;       // initial value (PTX ISA 8.2.6)
  uint32_t size = 4;       // bytes
};

// Where a thread runs: the scope tree (PTX ISA 8.5).
struct ThreadPlace {
  std::string name;  // "P0"
  int cta = 0;
  int cluster = 0;   // cluster id (threads in different CTAs of one cluster share it)
  int gpu = 0;
  int warp = -1;     // optional; the warp is not a scope (8.5) but tests may place threads
};

struct Event {
  EventKind kind = EventKind::Read;
  int thread = -1;       // index into Skeleton::threads; -1 for Init
  Order order = Order::Weak;
  Scope scope = Scope::Sys;
  Proxy proxy = Proxy::Generic;
  int loc = -1;          // index into Skeleton::locations (virtual address); -1 for fences/barriers
  uint64_t value = 0;    // value written, or value this trace assumes was read
  int rmw_pair = -1;     // for the two halves of an atom/red: the other half's event id
  // A read whose value nothing uses (ptxcheck outcomes: the read half of an
  // atom.exch with a dead result): any write of its location may be its
  // source, whatever `value` says.
  bool any_value = false;
  bool reduction = false;  // red: its read never forms an acquire pattern (8.11.1)
  ProxyFenceKind pfence = ProxyFenceKind::None;
  // A proxy fence's state-space restriction (fence.proxy.async.global: the
  // fence orders only accesses to global locations); Any = all spaces.
  StateSpace fspace = StateSpace::Any;
  // The asynchronous operation (index into Skeleton::async_ops) this event
  // belongs to; -1 for an event in its thread's program order. Events of an
  // asynchronous operation are not in program order (PTX ISA 8.9.1.1);
  // `thread` is still the issuing thread (its CTA and scopes).
  int async_op = -1;
  BarrierOp bar = BarrierOp::None;
  int bar_id = 0;        // barrier resource id
  int bar_count = -1;    // expected thread count, -1 = all threads of the CTA
  std::string label;     // instruction text for --explain/--dot ("st.relaxed.gpu x, 1")
  // Mixed-size accesses (PTX ISA 8.2.1 Overlap): a front end that splits a
  // variable into granules (the byte ranges its accesses delimit) gives an
  // access one event per granule it covers, each with the same `span`: the
  // access's whole byte range in the variable, (offset << 16) | size; 0 for
  // an access of a location that is not split. Two memory events overlap
  // completely (8.7 condition 3) only when they have one location and one
  // span: partially overlapping accesses are never morally strong.
  uint32_t span = 0;
};

// An asynchronous operation (PTX ISA 8.9.1.1): a cp.async, a bulk copy, a
// bulk reduction, ... issued by `thread`. Its events are not in any po list.
struct AsyncOp {
  AsyncOpKind kind = AsyncOpKind::Bulk;
  int thread = -1;
  // The operation is issued after the first `issued_after` events of
  // po[thread]: it is "ordered after prior instructions in the same thread"
  // (8.9.1.1; not for wgmma.mma_async, see async_op_issue_ordered).
  int issued_after = 0;
  // Its memory operations: reads (of the source) and writes (of the
  // destination; both halves of a bulk reduction's RMW). A copy reads its
  // source before it writes the destination.
  std::vector<int> mem;
  // The implicit generic-async proxy fence that follows its completion
  // (9.7.9.25.2 "Async Proxy", PTX ISA 9.1 numbering); -1 if none (cp.async
  // is generic). A ProxyFence event of kind Async.
  int fence = -1;
  // The complete-tx on the mbarrier (.mbarrier::complete_tx::bytes): a write
  // to the mbarrier location with .release semantics at .cluster scope,
  // generic proxy (9.7.9.25.4.1), "ordered only with respect to the memory
  // operations performed by the same asynchronous instruction" (8.9.1.1).
  // -1 for bulk-group completion.
  int complete_tx = -1;
};

// A wait of the issuing thread for an asynchronous operation's completion:
// cp.async.bulk.wait_group / cp.async.wait_group reaching the operation's
// group (9.7.9.25.1.1 Async-group mechanism). The operation's events precede
// po[thread][before..] ("writes ... made visible to the executing thread");
// with .read only its reads do (the source may be reused; no destination
// guarantee, cp.async.bulk.wait_group).
struct AsyncWait {
  int op = -1;
  int thread = -1;
  int before = 0;
  bool reads_only = false;
};

// One candidate combination of thread traces: all events of the program,
// init writes first, then each thread's events in program order (the
// events of asynchronous operations are in `events` but in no po list).
// Intra-thread dependencies are pairs (from, to) of event ids.
struct Skeleton {
  std::vector<Location> locations;
  std::vector<ThreadPlace> threads;
  std::vector<Event> events;
  std::vector<std::vector<int>> po;  // per thread: event ids in program order
  std::vector<std::pair<int, int>> addr, data, ctrl;
  std::vector<AsyncOp> async_ops;    // events with async_op >= 0 belong to these
  std::vector<AsyncWait> async_waits;

  int physical(int event) const { return locations[events[event].loc].physical; }
};

}  // namespace ptxcheck::mm
