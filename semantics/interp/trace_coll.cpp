// Warp collectives in a symbolic thread (trace_exec_impl.hpp): shfl, vote,
// match, redux and elect .sync and bar.warp.sync, whose results depend on the
// partner lanes' operands (TraceEnv::coll_values).
#include <algorithm>
#include <bit>

#include "semantics/interp/trace_exec_impl.hpp"
#include "semantics/interp/warp_coll.hpp"

namespace ptxcheck::interp::trace_detail {

static const char* coll_section(IrOp op) {
  switch (op) {
    case IrOp::Shfl: return "PTX ISA 9.7.9.6 shfl.sync";
    case IrOp::Vote: return "PTX ISA 9.7.13.9 vote.sync";
    case IrOp::Match: return "PTX ISA 9.7.13.10 match.sync";
    case IrOp::Redux: return "PTX ISA 9.7.13.12 redux.sync";
    case IrOp::Elect: return "PTX ISA 9.7.13.13 elect.sync";
    default: return "PTX ISA 9.7.13.3 bar.warp.sync";
  }
}

bool Tracer::collective(State& s, const Inst& in) {
  const uint32_t L = env_.lane(), n = env_.nlanes();
  const uint32_t lanes = n >= 32 ? ~0u : (1u << n) - 1;
  const Opnd& mo = in.op == IrOp::Shfl                               ? in.src[3]
                   : in.op == IrOp::WarpSync || in.op == IrOp::Elect ? in.src[0]
                                                                     : in.src[1];
  // As the interpreter: membermask bits of lanes the warp lacks are dropped (warp_ops.cpp).
  const uint32_t M = static_cast<uint32_t>(val(s, mo)) & lanes;
  if (!((M >> L) & 1))
    fail(in, "the executing lane " + std::to_string(L) + " is not in the membermask: undefined behaviour (" +
                 coll_section(in.op) + ")");
  TraceColl rec;
  rec.pc = s.pc;
  rec.mask = M;
  rec.lane = L;
  Deps own;
  deps_of(s, mo, own);
  CollOperands op;
  if (in.op != IrOp::WarpSync && in.op != IrOp::Elect) {
    rec.a = op.a[L] = val(s, in.src[0]);
    deps_of(s, in.src[0], rec.a_deps);
    merge(own, rec.a_deps);
  }
  if (in.op == IrOp::Shfl) {
    rec.b = op.b[L] = val(s, in.src[1]);
    rec.c = op.c[L] = val(s, in.src[2]);
    deps_of(s, in.src[1], own);
    deps_of(s, in.src[2], own);
  }
  // The lanes whose operand the result reads, and this collective's index
  // among this thread's collectives with each lane of the mask.
  uint32_t need = 0;
  uint32_t nth[32] = {};
  for (uint32_t b = M & ~(1u << L); b; b &= b - 1) {
    uint32_t w = static_cast<uint32_t>(std::countr_zero(b));
    nth[w] = s.coll_with[w]++;
    if (in.op != IrOp::WarpSync && in.op != IrOp::Elect) out_.coll_given.emplace_back(w, nth[w], rec.a);
  }
  if (in.op == IrOp::Shfl) {
    CollResult r;
    warp_collective_values(in, 1u << L, M, n, op, r);
    if (r.outside)
      fail(in, "shfl.sync reads lane " + std::to_string(r.src[L]) +
                   ", outside the membermask: an undefined value (PTX ISA 9.7.9.6 shfl.sync)");
    if (static_cast<uint32_t>(r.src[L]) != L) need = 1u << r.src[L];
  } else if (in.op != IrOp::WarpSync && in.op != IrOp::Elect) {
    need = M & ~(1u << L);
  }
  const int k = static_cast<int>(s.tr.colls.size());
  out_.most_colls = std::max(out_.most_colls, s.tr.colls.size() + 1);
  if (in.op == IrOp::WarpSync) {
    // PTX ISA 9.7.13.3 bar.warp.sync "guarantees memory ordering among
    // threads participating in barrier": a barrier of those lanes.
    mm::Event e;
    e.kind = mm::EventKind::Barrier;
    e.bar = mm::BarrierOp::Sync;
    e.scope = mm::Scope::CTA;
    e.bar_id = kWarpBarrierId;
    e.value = M;
    push(s, std::move(e), s.pc);
  }
  // The partner operands this path may meet: the product of their sets.
  std::vector<uint32_t> who;
  std::vector<const std::vector<uint64_t>*> sets;
  for (uint32_t b = need; b; b &= b - 1) {
    uint32_t w = static_cast<uint32_t>(std::countr_zero(b));
    const std::vector<uint64_t>* vs = env_.coll_values(w, L, nth[w]);
    if (!vs || vs->empty()) {
      rec.blocked = true;
      s.tr.colls.push_back(std::move(rec));
      finish(s);
      return false;
    }
    who.push_back(w);
    sets.push_back(vs);
  }
  std::set<std::pair<uint64_t, uint64_t>> results;
  std::vector<size_t> at(who.size(), 0);
  for (uint64_t combos = 0;; ++combos) {
    if (combos > lim_.max_traces)
      throw LimitError("more than " + std::to_string(lim_.max_traces) +
                       " operand combinations for one warp collective");
    for (size_t i = 0; i < who.size(); ++i) op.a[who[i]] = (*sets[i])[at[i]];
    CollResult r;
    warp_collective_values(in, M, M, n, op, r);
    results.emplace(r.d0[L], r.d1[L]);
    size_t i = 0;
    for (; i < who.size(); ++i) {
      if (++at[i] < sets[i]->size()) break;
      at[i] = 0;
    }
    if (i == who.size()) break;
  }
  Deps rd = own;
  merge(rd, Deps{-(k + 1)});
  auto apply = [&](State& f, std::pair<uint64_t, uint64_t> res) {
    TraceColl c = rec;
    c.d0 = res.first;
    c.d1 = res.second;
    f.tr.colls.push_back(std::move(c));
    switch (in.op) {
      case IrOp::Shfl:
        put(f, in.dst[0], res.first, reg_width(f, in.dst[0]), rd);
        if (in.ndst > 1) put(f, in.dst[1], res.second, reg_width(f, in.dst[1]), rd);
        break;
      case IrOp::Match:
        if (in.mode == 1 && in.ndst > 1) put(f, in.dst[1], res.second, reg_width(f, in.dst[1]), rd);
        put(f, in.dst[0], res.first, reg_width(f, in.dst[0]), rd);
        break;
      case IrOp::Elect:
        put(f, in.dst[0], res.first, reg_width(f, in.dst[0]), own);
        put(f, in.dst[1], res.second, reg_width(f, in.dst[1]), own);
        break;
      case IrOp::WarpSync: break;
      default: put(f, in.dst[0], res.first, reg_width(f, in.dst[0]), rd); break;
    }
  };
  auto last = std::prev(results.end());
  for (auto it = results.begin(); it != last; ++it) {
    State f = s;
    apply(f, *it);
    ++f.pc;
    step(std::move(f));
  }
  apply(s, *last);
  return true;
}

}  // namespace ptxcheck::interp::trace_detail
