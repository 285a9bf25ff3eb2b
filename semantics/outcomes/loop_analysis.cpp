// Static loop analyses of one function's IR for the spin-loop reduction of
// `ptxcheck outcomes` (hook_impl.hpp, explore.hpp; docs/outcomes.md "Spin
// loops"): the check that a loop body's failed iterations are redundant
// (Shared::pure_loop, natural loops from dominators) and where a thread may
// still write (Shared::may_write). Register and frame liveness
// (Shared::live_at, frame_live_at) are in liveness.cpp. Hook::back_jump
// (hook_loop.cpp) uses both.
#include <algorithm>
#include <map>

#include "semantics/outcomes/cfg.hpp"
#include "semantics/outcomes/hook_impl.hpp"

namespace ptxcheck::outcomes {

using interp::Inst;
using interp::IrOp;

// Forward reachability over the function's control flow (for_each_successor)
// from `pc` (included). An acquire pattern whose read is an update ends in
// the update itself (form 1, checked by the caller) or in a later acquire
// operation or fence of its thread (forms 2 and 3), which may also lie in a
// function it calls (Shared::calls_acquire) or, after a ret, in its caller
// (the caller follows the thread's frames).
int Shared::acquire_from(uint32_t func, uint32_t pc) {
  auto key = std::make_pair(func, pc);
  auto cached = acq_cache.find(key);
  if (cached != acq_cache.end()) return cached->second;
  int& found = acq_cache[key];
  found = 1;
  const interp::Function& f = prog->funcs[func];
  uint32_t begin = f.entry_pc, end = static_cast<uint32_t>(prog->code.size());
  for (const interp::Function& g : prog->funcs)
    if (g.defined && g.entry_pc > begin) end = std::min(end, g.entry_pc);
  if (pc < begin || pc >= end) return found;
  std::vector<char> seen(end - begin, 0);
  std::vector<uint32_t> work;
  auto push = [&](uint32_t q) {
    if (q >= begin && q < end && !seen[q - begin]) seen[q - begin] = 1, work.push_back(q);
  };
  push(pc);
  bool ret = false;
  while (!work.empty()) {
    const uint32_t q = work.back();
    work.pop_back();
    const Inst& in = prog->code[q];
    if (in.order == mm::Order::Acquire || in.order == mm::Order::AcqRel || in.order == mm::Order::SC) return found;
    if (in.op == IrOp::Call && calls_acquire(prog->calls[in.target].callee)) return found;
    ret = ret || (in.op == IrOp::Ret && !f.is_entry);
    for_each_successor(*prog, in, q, push);
  }
  found = ret ? 2 : 0;
  return found;
}

// Some instruction of function `callee` or of a function it calls has
// acquire, acq_rel or sc semantics (an indirect call: unknown, yes).
bool Shared::calls_acquire(uint32_t callee) {
  if (callee >= prog->funcs.size()) return true;
  auto cached = callee_acq_cache.find(callee);
  if (cached != callee_acq_cache.end()) return cached->second;
  callee_acq_cache[callee] = true;  // (a recursive call: yes)
  const interp::Function& f = prog->funcs[callee];
  if (!f.defined) return true;
  uint32_t end = static_cast<uint32_t>(prog->code.size());
  for (const interp::Function& g : prog->funcs)
    if (g.defined && g.entry_pc > f.entry_pc) end = std::min(end, g.entry_pc);
  bool acq = false;
  for (uint32_t q = f.entry_pc; q < end && !acq; ++q) {
    const Inst& in = prog->code[q];
    acq = in.order == mm::Order::Acquire || in.order == mm::Order::AcqRel || in.order == mm::Order::SC ||
          (in.op == IrOp::Call && calls_acquire(prog->calls[in.target].callee));
  }
  callee_acq_cache[callee] = acq;
  return acq;
}

bool Shared::pure_loop(uint32_t func, uint32_t head, uint32_t from) {
  auto key = std::make_tuple(func, head, from);
  auto cached = pure_cache.find(key);
  if (cached != pure_cache.end()) return cached->second;
  bool& ok = pure_cache[key];
  ok = false;
  const interp::Function& f = prog->funcs[func];
  uint32_t begin = f.entry_pc, end = static_cast<uint32_t>(prog->code.size());
  for (const interp::Function& g : prog->funcs)
    if (g.defined && g.entry_pc > begin) end = std::min(end, g.entry_pc);
  if (head < begin || from >= end || head > from) return ok;
  // The loop: the code on the paths from `head` to `from` that do not
  // come back to `head` on the way (reachable from the one, reaching the
  // other without passing `head`: an outer loop around it is not part of
  // it), at most 513 instructions.
  const uint32_t fn_size = end - begin;
  std::vector<std::vector<uint32_t>> pred(fn_size);
  for (uint32_t pc = begin; pc < end; ++pc)
    for_each_successor(*prog, prog->code[pc], pc, [&](uint32_t s) {
      if (s >= begin && s < end) pred[s - begin].push_back(pc);
    });
  std::vector<char> fwd(fn_size, 0), in_loop(fn_size, 0);
  std::vector<uint32_t> work{head};
  fwd[head - begin] = 1;
  while (!work.empty()) {
    const uint32_t pc = work.back();
    work.pop_back();
    for_each_successor(*prog, prog->code[pc], pc, [&](uint32_t s) {
      if (s >= begin && s < end && !fwd[s - begin]) fwd[s - begin] = 1, work.push_back(s);
    });
  }
  if (!fwd[from - begin]) return ok;
  std::vector<uint32_t> body;
  work.assign(1, from);
  in_loop[from - begin] = 1;
  if (!in_loop[head - begin]) in_loop[head - begin] = 1, work.push_back(head);
  while (!work.empty() && body.size() <= 513) {
    const uint32_t pc = work.back();
    work.pop_back();
    body.push_back(pc);
    if (pc == head) continue;
    for (uint32_t p : pred[pc - begin])
      if (fwd[p - begin] && !in_loop[p - begin]) in_loop[p - begin] = 1, work.push_back(p);
  }
  if (body.size() <= 513 && pure_body(func, head, from, std::move(body), in_loop, pred)) return ok = true;
  // nvcc -O3 places a poll's backoff (a %globaltimer test, nanosleep, a
  // jump back to the poll) and its counter's increment where it likes,
  // after other code: the paths from `head` to one of those jumps leave
  // out the others, whose blocks then look like loop exits that the poll
  // counter or the time decides. The natural loop around the loop's
  // header holds them all (and no outer loop: a loop's code is dominated
  // by its header).
  if (no_natural_loop) return ok;
  body = natural_loop(func, head, from);
  if (body.empty()) return ok;
  in_loop.assign(fn_size, 0);
  for (uint32_t pc : body) in_loop[pc - begin] = 1;
  ok = pure_body(func, head, from, std::move(body), in_loop, pred);
  return ok;
}

const std::vector<uint32_t>& Shared::dominators(uint32_t func) {
  auto cached = dom_cache.find(func);
  if (cached != dom_cache.end()) return cached->second;
  const interp::Function& f = prog->funcs[func];
  uint32_t begin = f.entry_pc, end = static_cast<uint32_t>(prog->code.size());
  for (const interp::Function& g : prog->funcs)
    if (g.defined && g.entry_pc > begin) end = std::min(end, g.entry_pc);
  const uint32_t n = end > begin ? end - begin : 0;
  std::vector<uint32_t>& idom = dom_cache[func];
  idom.assign(n, ~0u);
  if (n == 0) return idom;
  // Reverse postorder from the entry (iterative depth-first search), then
  // the iterative algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast
  // Dominance Algorithm", 2001) over it.
  std::vector<std::vector<uint32_t>> succ(n), pred(n);
  for (uint32_t i = 0; i < n; ++i)
    for_each_successor(*prog, prog->code[begin + i], begin + i, [&](uint32_t s) {
      if (s >= begin && s < end) succ[i].push_back(s - begin), pred[s - begin].push_back(i);
    });
  std::vector<uint32_t> order, rpo_at(n, ~0u);
  std::vector<char> state(n, 0);
  std::vector<std::pair<uint32_t, size_t>> dfs{{0, 0}};
  state[0] = 1;
  while (!dfs.empty()) {
    auto& [v, k] = dfs.back();
    if (k < succ[v].size()) {
      const uint32_t s = succ[v][k++];
      if (!state[s]) state[s] = 1, dfs.push_back({s, 0});
      continue;
    }
    order.push_back(v);
    dfs.pop_back();
  }
  std::reverse(order.begin(), order.end());
  for (uint32_t i = 0; i < order.size(); ++i) rpo_at[order[i]] = i;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (rpo_at[a] > rpo_at[b]) a = idom[a];
      while (rpo_at[b] > rpo_at[a]) b = idom[b];
    }
    return a;
  };
  idom[0] = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 1; i < order.size(); ++i) {
      const uint32_t v = order[i];
      uint32_t d = ~0u;
      for (uint32_t p : pred[v])
        if (idom[p] != ~0u) d = d == ~0u ? p : intersect(p, d);
      if (d != idom[v]) idom[v] = d, changed = true;
    }
  }
  return idom;
}

std::vector<uint32_t> Shared::natural_loop(uint32_t func, uint32_t head, uint32_t from) {
  const interp::Function& f = prog->funcs[func];
  uint32_t begin = f.entry_pc, end = static_cast<uint32_t>(prog->code.size());
  for (const interp::Function& g : prog->funcs)
    if (g.defined && g.entry_pc > begin) end = std::min(end, g.entry_pc);
  if (head < begin || from >= end || head > from) return {};
  const std::vector<uint32_t>& idom = dominators(func);
  const uint32_t n = end - begin;
  if (idom[head - begin] == ~0u || idom[from - begin] == ~0u) return {};
  auto dominates = [&](uint32_t a, uint32_t b) {  // indices from begin
    for (;;) {
      if (a == b) return true;
      if (b == 0) return false;
      b = idom[b];
    }
  };
  std::vector<std::vector<uint32_t>> pred(n);
  for (uint32_t i = 0; i < n; ++i)
    if (idom[i] != ~0u)
      for_each_successor(*prog, prog->code[begin + i], begin + i, [&](uint32_t s) {
        if (s >= begin && s < end) pred[s - begin].push_back(i);
      });
  for (uint32_t h = head - begin;; h = idom[h]) {
    // The natural loop of h: the code that reaches a jump back to h (from
    // code h dominates) without passing h.
    std::vector<char> in(n, 0);
    std::vector<uint32_t> body{h}, work;
    in[h] = 1;
    for (uint32_t p : pred[h])
      if (dominates(h, p) && !in[p]) in[p] = 1, work.push_back(p);
    while (!work.empty() && body.size() <= 513) {
      const uint32_t v = work.back();
      work.pop_back();
      body.push_back(v);
      for (uint32_t p : pred[v])
        if (!in[p]) in[p] = 1, work.push_back(p);
    }
    if (body.size() > 513) return {};
    if (in[from - begin] && in[head - begin]) {
      for (uint32_t& v : body) v += begin;
      return body;
    }
    if (h == 0) return {};
  }
}

bool Shared::pure_body(uint32_t func, uint32_t head, uint32_t from, std::vector<uint32_t> body,
                       const std::vector<char>& in_loop, const std::vector<std::vector<uint32_t>>& pred) {
  const interp::Function& f = prog->funcs[func];
  uint32_t begin = f.entry_pc, end = static_cast<uint32_t>(prog->code.size());
  for (const interp::Function& g : prog->funcs)
    if (g.defined && g.entry_pc > begin) end = std::min(end, g.entry_pc);
  const uint32_t fn_size = end - begin;
  const bool ok = false;
  auto targets = [&](const Inst& in, auto&& fn) {
    if (in.op == IrOp::Bra) fn(in.target);
    if (in.op == IrOp::BrxIdx)
      for (uint32_t t : prog->branch_tables[in.target]) fn(t);
  };
  auto inside = [&](uint32_t pc) { return pc >= begin && pc < end && in_loop[pc - begin]; };
  // One entry: the header. Code outside the loop enters it only there (by
  // a jump or by falling into it), and the function does not start in it
  // elsewhere.
  uint32_t header = ~0u;
  for (uint32_t pc : body) {
    bool entered = pc == begin;
    for (uint32_t p : pred[pc - begin]) entered = entered || !inside(p);
    if (!entered) continue;
    if (header != ~0u && header != pc) return ok;
    header = pc;
  }
  if (header == ~0u) header = head;  // (no way in: the loop never runs)
  // Where the header is not `head`, the thread that jumps back to `head`
  // reaches the header on every path, inside the loop and through no
  // other cycle: the iteration it ends runs from the header to the header.
  if (header != head) {
    std::vector<char> state(fn_size, 0);  // 1: on the path, 2: done
    std::vector<std::pair<uint32_t, bool>> dfs{{head, false}};
    while (!dfs.empty()) {
      auto [pc, post] = dfs.back();
      dfs.pop_back();
      if (post) {
        state[pc - begin] = 2;
        continue;
      }
      if (pc == header || state[pc - begin] == 2) continue;
      if (state[pc - begin] == 1) return ok;  // a cycle that misses the header
      state[pc - begin] = 1;
      dfs.push_back({pc, true});
      bool out = false;
      for_each_successor(*prog, prog->code[pc], pc, [&](uint32_t s) {
        if (!inside(s))
          out = true;
        else
          dfs.push_back({s, false});
      });
      if (out) return ok;
    }
  }
  const std::vector<char>* live = live_at(func, header);
  if (!live) return ok;
  const size_t nr = live->size();
  // Only reads, fences and computation.
  for (uint32_t pc : body) {
    const Inst& in = prog->code[pc];
    // The operations that change only their own lanes' registers
    // (interp::own_state_only, which `run`'s spin detection uses too), but
    // activemask, whose value depends on which lanes run together; and the
    // mbarrier polls (test_wait/try_wait only read the barrier).
    if (in.op == IrOp::Mbarrier) {
      if (in.mbar != interp::MbarOp::Wait && in.mbar != interp::MbarOp::WaitParity &&
          in.mbar != interp::MbarOp::PendingCount)
        return ok;
    } else if (!interp::own_state_only(in.op) || in.op == IrOp::Activemask) {
      return ok;
    }
    if (in.wg_reg || (in.guarded && in.guard >= nr) || (in.addr.base == interp::Addr::Reg && in.addr.slot >= nr))
      return ok;
    for (unsigned k = 0; k < 4; ++k)
      if ((in.dst[k].kind == interp::Opnd::Reg && in.dst[k].slot >= nr) ||
          (in.src[k].kind == interp::Opnd::Reg && in.src[k].slot >= nr))
        return ok;
  }
  // The iteration's control flow: node 0 is the header, node n stands for
  // leaving the loop or coming back to the header (the end of the
  // iteration).
  std::sort(body.begin(), body.end());
  std::swap(*std::find(body.begin(), body.end(), header), body.front());
  std::sort(body.begin() + 1, body.end());
  const uint32_t n = static_cast<uint32_t>(body.size()), kEnd = n;
  std::vector<uint32_t> node(fn_size, kEnd);
  for (uint32_t i = 1; i < n; ++i) node[body[i] - begin] = i;
  std::vector<std::vector<uint32_t>> succ(n);
  for (uint32_t i = 0; i < n; ++i) {
    const Inst& in = prog->code[body[i]];
    // (ret, exit and trap are not in the loop: checked above)
    for_each_successor(*prog, in, body[i],
                       [&](uint32_t pc) { succ[i].push_back(pc >= begin && pc < end ? node[pc - begin] : kEnd); });
  }
  // Post-dominators (iterative, over n <= 513 nodes).
  std::vector<std::vector<char>> pdom(n + 1, std::vector<char>(n + 1, 1));
  pdom[kEnd].assign(n + 1, 0);
  pdom[kEnd][kEnd] = 1;
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = n; i-- > 0;) {
      std::vector<char> meet(n + 1, 1);
      for (uint32_t s : succ[i])
        for (uint32_t k = 0; k <= n; ++k) meet[k] = meet[k] && pdom[s][k];
      meet[i] = 1;
      if (meet != pdom[i]) pdom[i] = std::move(meet), changed = true;
    }
  }
  // Registers whose value may differ between this iteration's start and
  // its end (live at the header and written in the loop), then everything
  // they flow into, by data or by control (the code a branch on them
  // decides, up to where its paths meet again), and the time registers
  // (%clock, %globaltimer: later iterations read later values). The
  // iteration is redundant if no read, fence or exit of later iterations
  // depends on them and none is live where the loop is left: the thread
  // then goes on from its end as it would from its start.
  std::vector<char> taint(nr, 0), decided(n, 0);
  auto timed = [](const interp::Opnd& o) {
    return o.kind == interp::Opnd::Special &&
           (o.sreg == interp::SReg::clock || o.sreg == interp::SReg::clock_hi || o.sreg == interp::SReg::clock64 ||
            o.sreg == interp::SReg::globaltimer || o.sreg == interp::SReg::globaltimer_lo ||
            o.sreg == interp::SReg::globaltimer_hi);
  };
  for (uint32_t i = 0; i < n; ++i) {
    const Inst& in = prog->code[body[i]];
    for (unsigned k = 0; k < 4; ++k)
      if (in.dst[k].kind == interp::Opnd::Reg && (*live)[in.dst[k].slot]) taint[in.dst[k].slot] = 1;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = 0; i < n; ++i) {
      const Inst& in = prog->code[body[i]];
      const bool guard_t = in.guarded && taint[in.guard];
      const bool addr_t = in.addr.base == interp::Addr::Reg && taint[in.addr.slot];
      bool src_t = false;
      for (unsigned k = 0; k < 4; ++k)
        src_t = src_t || (in.src[k].kind == interp::Opnd::Reg && taint[in.src[k].slot]) || timed(in.src[k]);
      const bool reads = in.op == IrOp::Ld || in.op == IrOp::Fence || in.op == IrOp::Mbarrier;
      if (reads && (guard_t || addr_t || decided[i] || (in.op == IrOp::Mbarrier && src_t))) return ok;
      if (guard_t || src_t || addr_t || decided[i])
        for (unsigned k = 0; k < 4; ++k)
          if (in.dst[k].kind == interp::Opnd::Reg && !taint[in.dst[k].slot]) taint[in.dst[k].slot] = 1, changed = true;
      const bool branch_t = (in.op == IrOp::Bra && guard_t) || (in.op == IrOp::BrxIdx && (guard_t || src_t));
      if (!branch_t) continue;
      // A way out of the loop that they decide: the iteration's end (back
      // to the header or out) is one node below, so check the targets.
      // nvcc keeps `for (k = 0; k < 2; ++k) { v = *flag; if (v) break; }`
      // as a loop whose exit tests a first-iteration predicate; its failed
      // first iteration is not redundant (the second may leave with 0).
      bool leaves = false;
      targets(in, [&](uint32_t t) { leaves = leaves || !inside(t); });
      if (in.guarded && !inside(body[i] + 1)) leaves = true;
      if (leaves) return ok;
      // The nodes this branch decides: reachable from it before the first
      // node that post-dominates it; none may end the iteration.
      std::vector<uint32_t> todo(succ[i]);
      std::vector<char> seen(n + 1, 0);
      while (!todo.empty()) {
        const uint32_t v = todo.back();
        todo.pop_back();
        if (seen[v] || (v != i && pdom[i][v])) continue;
        seen[v] = 1;
        if (v == kEnd) return ok;
        if (!decided[v]) decided[v] = 1, changed = true;
        for (uint32_t s : succ[v]) todo.push_back(s);
      }
    }
  }
  // Nothing tainted is live where the loop is left.
  for (uint32_t i = 0; i < n; ++i) {
    const Inst& in = prog->code[body[i]];
    bool bad = false;
    auto exit_to = [&](uint32_t pc) {
      if (bad || inside(pc)) return;
      const std::vector<char>* lx = pc < end ? live_at(func, pc) : nullptr;
      if (!lx) {
        bad = true;
        return;
      }
      for (size_t k = 0; k < nr && k < lx->size(); ++k) bad = bad || (taint[k] && (*lx)[k]);
    };
    const bool jumps = in.op == IrOp::Bra || in.op == IrOp::BrxIdx;
    targets(in, exit_to);
    if (!jumps || in.guarded) exit_to(body[i] + 1);
    if (bad) return ok;
  }
  std::sort(body.begin(), body.end());
  loop_code[std::make_tuple(func, head, from)] = std::move(body);
  return true;
}

bool Shared::in_pure_loop(uint32_t func, uint32_t head, uint32_t from, uint32_t pc) const {
  auto it = loop_code.find(std::make_tuple(func, head, from));
  return it != loop_code.end() && std::binary_search(it->second.begin(), it->second.end(), pc);
}

namespace {

// One instruction of Shared::may_write: it may write memory of the space
// (`shared` or global) but by a covering update (`other`), or lets other
// code run (a call, a return to a caller from a function that is not the
// kernel, `entry`); `ncl`: CTAs per cluster.
bool writes_space(const Inst& in, bool entry, bool shared, bool other, uint32_t ncl) {
  switch (in.op) {
    case IrOp::St:
    case IrOp::Atom:
    case IrOp::Red: {
      const interp::Space sp = in.addr.space;
      if (sp == interp::Space::Local || sp == interp::Space::Param || sp == interp::Space::Const) return false;
      if (sp == interp::Space::Global && shared) return false;
      if ((sp == interp::Space::Shared || sp == interp::Space::SharedCluster) && !shared) return false;
      // (other): an update of a scope that includes every thread that may
      // access the location (PTX ISA 8.5, 5.1.7).
      return !(other && in.op != IrOp::St && in.atom != arith::AtomOp::Cas && in.atom != arith::AtomOp::Exch &&
               in.ety != arith::Ty::f16x2 && in.ety != arith::Ty::bf16x2 &&
               (in.scope == mm::Scope::GPU || in.scope == mm::Scope::Sys ||
                (shared && (in.scope == mm::Scope::Cluster || ncl == 1))));
    }
    case IrOp::Ret: return !entry;  // the caller goes on
    case IrOp::BarSync:
    case IrOp::BarArrive:
    case IrOp::BarRed:
    case IrOp::ClusterArrive:
    case IrOp::ClusterWait:
    case IrOp::WarpSync:
    case IrOp::Shfl:
    case IrOp::Vote:
    case IrOp::Match:
    case IrOp::Redux:
    case IrOp::Elect:
    case IrOp::Exit:
    case IrOp::Trap:
    case IrOp::Alloca:
    case IrOp::StackSave:
    case IrOp::StackRestore: return false;
    default: return !interp::own_state_only(in.op) && !computes_registers(in.op);  // a call, mbarrier, copy, ...
  }
}

}  // namespace

bool Shared::may_write(uint32_t func, uint32_t pc, bool shared, bool other) {
  auto key = std::make_tuple(func, pc, shared, other);
  if (auto it = write_cache.find(key); it != write_cache.end()) return it->second;
  const interp::Function& f = prog->funcs[func];
  uint32_t begin = f.entry_pc, end = static_cast<uint32_t>(prog->code.size());
  for (const interp::Function& g : prog->funcs)
    if (g.defined && g.entry_pc > begin) end = std::min(end, g.entry_pc);
  auto writes = [&](const Inst& in) { return writes_space(in, f.is_entry, shared, other, cl[0] * cl[1] * cl[2]); };
  bool found = false;
  std::vector<char> seen(end > begin ? end - begin : 0, 0);
  std::vector<uint32_t> work{pc};
  while (!work.empty() && !found) {
    const uint32_t p = work.back();
    work.pop_back();
    if (p < begin || p >= end) {
      found = true;  // outside the function: not followed
      break;
    }
    if (seen[p - begin]) continue;
    seen[p - begin] = 1;
    const Inst& in = prog->code[p];
    if (writes(in)) {
      found = true;
      break;
    }
    for_each_successor(*prog, in, p, [&](uint32_t q) { work.push_back(q); });
  }
  write_cache[key] = found;
  return found;
}

// hook_grid.cpp (f6), hook_latest.cpp (f) for a location of global memory:
// may_write(func, pc, false) knows no address, and nearly every
// kernel stores its results to global memory after a barrier. A write
// whose address register no path from pc writes has, when it runs, the
// address that the thread's registers at pc give (Hook::stuck_at).
const Shared::GlobalWrites& Shared::global_writes(uint32_t func, uint32_t pc) {
  auto [it, fresh] = gwrite_cache.try_emplace({func, pc});
  GlobalWrites& g = it->second;
  if (!fresh) return g;
  const interp::Function& f = prog->funcs[func];
  uint32_t begin = f.entry_pc, end = static_cast<uint32_t>(prog->code.size());
  for (const interp::Function& h : prog->funcs)
    if (h.defined && h.entry_pc > begin) end = std::min(end, h.entry_pc);
  std::vector<uint32_t> reach;
  std::vector<char> seen(end > begin ? end - begin : 0, 0);
  std::vector<uint32_t> work{pc};
  while (!work.empty()) {
    const uint32_t p = work.back();
    work.pop_back();
    if (p < begin || p >= end) {
      g.unknown = true;  // outside the function: not followed
      continue;
    }
    if (seen[p - begin]) continue;
    seen[p - begin] = 1;
    reach.push_back(p);
    for_each_successor(*prog, prog->code[p], p, [&](uint32_t q) { work.push_back(q); });
  }
  // Per register: 0 not written from pc on, 1 written, 2 + s only copied
  // from register s by unguarded 64-bit movs and cvtas of global addresses.
  std::map<uint32_t, uint32_t> written;
  for (uint32_t p : reach) {
    const Inst& in = prog->code[p];
    if (in.ndst > 4 || in.wg_reg) g.unknown = true;  // (registers not in dst)
    const bool copy = (in.op == IrOp::Mov || (in.op == IrOp::Cvta && in.addr.space == interp::Space::Global)) &&
                      !in.guarded && in.dwidth >= 64 && in.src[0].kind == interp::Opnd::Reg && !in.src[0].negate;
    for (unsigned k = 0; k < 4; ++k)
      if (in.dst[k].kind == interp::Opnd::Reg) {
        const uint32_t v = copy && k == 0 ? 2 + in.src[0].slot : 1;
        auto [w, fresh] = written.try_emplace(in.dst[k].slot, v);
        if (!fresh && w->second != v) w->second = 1;
      }
  }
  for (uint32_t p : reach) {
    const Inst& in = prog->code[p];
    if (!writes_space(in, f.is_entry, false, false, cl[0] * cl[1] * cl[2])) continue;
    const bool cover = !writes_space(in, f.is_entry, false, true, cl[0] * cl[1] * cl[2]);
    const bool access = in.op == IrOp::St || in.op == IrOp::Atom || in.op == IrOp::Red;
    if (access && (in.addr.space == interp::Space::Shared || in.addr.space == interp::Space::SharedCluster)) continue;
    if (access && in.addr.base == interp::Addr::Abs) {
      g.sites.emplace_back(&in, ~0u, cover);
      continue;
    }
    auto w = written.find(in.addr.slot);
    if (!access || in.addr.base != interp::Addr::Reg || (w != written.end() && w->second < 2)) {
      g.unknown = true;  // (an address not known; a call, a return, another writing instruction)
      continue;
    }
    g.sites.emplace_back(&in, in.addr.slot, cover);  // (the value at pc, on a path that does not copy it)
    if (w != written.end()) {
      const uint32_t src = w->second - 2;
      if (written.count(src)) g.unknown = true;
      g.sites.emplace_back(&in, src, cover);
    }
  }
  return g;
}

}  // namespace ptxcheck::outcomes
