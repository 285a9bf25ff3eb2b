// CAS retry loops of `ptxcheck outcomes`: the CUDA Programming Guide's
// atomicAdd for double, and any update written as
//   old = *p; do { assumed = old; old = atomicCAS(p, assumed, f(assumed)); } while (old != assumed);
// Explored with value choices, the seed load and every CAS read a chosen
// value of the location, and each failed CAS made another iteration up to
// the loop bound: 3 threads adding to a shared double ran over 120 s and
// 9 GB, 3 CTAs adding to a global word over 60 s.
//
// Shape (Shared::cas_loop_at, from the code alone):
//  (s1) the loop is one straight block [H, B]: B, the first branch after
//       the CAS, is a conditional backward bra to H; every other
//       instruction of [H, B) computes registers (computes_registers) or
//       is a weak or relaxed ld (nvcc reloads the operand of `v + assumed`
//       in every iteration when it may alias; a load of a communicating
//       location is an event, and then (d1) below fails); no branch of the
//       function (bra, brx.idx) jumps into (H, B]; the CAS is unguarded;
//  (s2) of the registers live at H (Shared::live_at), the loop writes only
//       one, x, carried from iteration to iteration: the compare register
//       cmp, set by one unguarded `mov cmp, d` after the CAS (d the CAS's
//       destination, nothing between writes d), or d itself, copied by one
//       `mov cmp, d` before the CAS (d written only by the CAS: nvcc -O3
//       lays out `max(assumed, v)` this way);
//  (s3) B's predicate is written by one unguarded setp after the CAS (and
//       before the mov in the first shape) whose two sources are cmp and
//       d, and by nothing else in the loop; on sample pairs (equal,
//       differing, +0/-0, the same NaN) B jumps back exactly when the two
//       differ in their bits, that is when the CAS failed (PTX ISA 9.7.13.5:
//       atom.cas stores its new value only if the old one equals the
//       compare operand; a failing cas writes nothing). cas_read checks it
//       again with the values of each failing CAS;
//  (s4) the seed: the code just before H, back to a load L (ld, one
//       register destination, unguarded, the CAS's size) into x, only
//       computes registers and neither reads nor writes x.
// So a failed iteration ends at H with x = the value its CAS read and every
// other register live at H as it began: the state the thread had at its
// first arrival at H had L read that value. The loop is left only by a CAS
// that succeeded, in the state its iteration began with.
//
// At run time (Hook::cas_seeded, before the CAS of such a loop reads its
// location x):
//  (d1) the thread's latest event is L's read of x: it came straight from
//       L, no failed iteration before (none is run: below);
//  (d2) L is weak or relaxed (no acquire or sc semantics) and its scope is
//       no wider than the CAS's (.gpu and .sys alike: one launch runs on
//       one GPU), so L is morally strong with no operation the CAS is not
//       (PTX ISA 8.7) and L starts no acquire pattern (8.8).
// Then the CAS makes no choice of its own:
//  - where x is a chain location (hook_chain.cpp: its writes come from one
//    CTA; Hook::cas_chain), the CAS is an update of the chain: it reads
//    the machine's value, the latest write of x executed, and
//    Hook::rmw_wait offers to park it until the next write while another
//    thread may still write x. A CAS that fails there (it read another
//    value than L did) leaves its read event, and its thread is dropped at
//    the backward jump that ends the iteration (cas_jump), as a redundant
//    spin is (hook_loop.cpp);
//  - elsewhere (x chooses values: CTAs explored apart update it, or the
//    chain broke), the CAS reads its compare value, L's: it succeeds.
// Each thread's loop then runs one iteration, the one that succeeds.
//
// Why this is exact. Soundness: every event keeps the value it read and
// the engine justifies it (8.10), as for any chain update. Completeness:
// take a consistent execution X in which the thread runs L, fails with
// C1 .. Ck (k >= 0; Ci reads u_i) and succeeds with C, which reads from
// its immediate coherence predecessor P (8.10.3 Atomicity of RMW
// operations), so val(P) = u_k, C's compare value (L's value when k = 0).
// Let X' be X without C1 .. Ck and with L reading the write W that Ck read
// (for k = 0, X' = X). X' is consistent:
//  - dropping C1 .. Ck removes reads only (a failing cas writes nothing)
//    and with them edges; every axiom of 8.10 forbids a cycle or asks for
//    an inclusion in coherence or Fence-SC order, which a restriction of
//    the execution keeps (docs/outcomes.md, "Spin loops");
//  - L reading W: L precedes Ck in program order with nothing between but
//    the dropped reads and register computations ((s1), (s4)), so every
//    operation before L in (base) causality order is before Ck too (8.9.5
//    base causality order, item 3.2); Causality 2 (8.10.6) holds for L as
//    it did for Ck, and W is not after L in causality order, else it would
//    be after Ck (Causality 1); by (d2) a cycle of 8.10.5 (Sequential
//    Consistency per Location) through L is one through Ck in X, and L
//    synchronizes with nothing, so causality order gains no edge; L's
//    value flows only into x ((s4)), read by C's iteration as Ck's value
//    was, so a cycle of rf and dependencies through L (8.10.4 No Thin Air)
//    is one through Ck in X.
// X' ends in X's final state: the thread leaves the loop in the state C's
// iteration began with ((s2): x = u_k, the other registers as at L),
// and nothing else changed. A run reaches X': L chooses u_k (a value
// choice; u_k is a value some write of x stores); with value choices C
// reads u_k, its compare value; in a chain, as hook_chain.cpp argues, the
// run that follows X''s choices for every other read and parks C until P
// has executed runs C reading P: it succeeds. So the runs in which a CAS
// fails are not needed, and leaving them out loses no final state. As for dropped spin iterations, a race in which
// only a failing CAS takes part is not reported (L's and C's are).
// PTXCHECK_OUTCOMES_NO_CAS_LOOP=1 turns this off (value choices, for
// cross-checks: tests/corpus/casloop).
#include "semantics/outcomes/hook_impl.hpp"

namespace ptxcheck::outcomes {

using interp::HookAccess;
using interp::Inst;
using interp::IrOp;
using interp::Opnd;

namespace {

bool writes_reg(const Inst& in, uint32_t slot) {
  for (unsigned k = 0; k < 4; ++k)
    if (in.dst[k].kind == Opnd::Reg && in.dst[k].slot == slot) return true;
  return false;
}

bool reads_reg(const Inst& in, uint32_t slot) {
  for (unsigned k = 0; k < 4; ++k)
    if (in.src[k].kind == Opnd::Reg && in.src[k].slot == slot) return true;
  if (in.guarded && in.guard == slot) return true;
  return (in.addr.base == interp::Addr::Reg && in.addr.slot == slot) ||
         (in.addr2.base == interp::Addr::Reg && in.addr2.slot == slot);
}

int wide_rank(mm::Scope s) { return s == mm::Scope::Sys ? static_cast<int>(mm::Scope::GPU) : static_cast<int>(s); }

// (s3): B (`b`, guarded by the setp `s`) jumps back for compare value `c`
// and CAS result `d` (both masked to the CAS's size), evaluated as the
// machine evaluates them.
bool jumps_back(const Inst& s, const Inst& b, uint32_t cmp, uint64_t c, uint64_t d) {
  uint64_t src[4] = {0, 0, 0, 0};
  for (unsigned k = 0; k < 2; ++k) src[k] = s.src[k].slot == cmp ? c : d;
  uint64_t aux = 0;
  const bool p = s.fn.fn(src, &aux, s.fn.cfg) != 0;
  return p != b.guard_neg;
}

}  // namespace

const Shared::CasLoop* Shared::cas_loop_at(uint32_t func, uint32_t pc) {
  auto [it, fresh] = cas_cache.try_emplace({func, pc});
  CasLoop& L = it->second;
  if (!fresh) return L.ok ? &L : nullptr;
  const std::vector<Inst>& code = prog->code;
  const Inst& cas = code[pc];
  if (cas.op != IrOp::Atom || cas.atom != arith::AtomOp::Cas || cas.guarded || cas.dst[0].kind != Opnd::Reg ||
      cas.src[0].kind != Opnd::Reg || cas.src[0].negate || cas.addr.base == interp::Addr::Frame || cas.size == 0)
    return nullptr;
  const interp::Function& f = prog->funcs[func];
  uint32_t end = static_cast<uint32_t>(code.size());
  for (const interp::Function& g : prog->funcs)
    if (g.defined && g.entry_pc > f.entry_pc) end = std::min(end, g.entry_pc);
  const uint32_t cmp = cas.src[0].slot, d = cas.dst[0].slot;
  if (cmp == d) return nullptr;
  // (s1): the first branch after the CAS jumps back over it; the loop's
  // other instructions compute registers or load (a load of a location
  // that communicates is an event, and then (d1) fails).
  auto plain = [&](const Inst& in) {
    return computes_registers(in.op) ||
           (in.op == IrOp::Ld && (in.order == mm::Order::Weak || in.order == mm::Order::Relaxed));
  };
  uint32_t q = pc + 1;
  while (q < end && q < pc + 64 && plain(code[q])) ++q;
  if (q >= end || code[q].op != IrOp::Bra || !code[q].guarded || code[q].target > pc || code[q].target < f.entry_pc)
    return nullptr;
  const Inst& b = code[q];
  const uint32_t h = b.target;
  for (uint32_t x = h; x < q; ++x)
    if (x != pc && !plain(code[x])) return nullptr;
  for (uint32_t x = f.entry_pc; x < end; ++x) {
    const Inst& j = code[x];
    if (j.op == IrOp::Bra && j.target > h && j.target <= q) return nullptr;
    if (j.op == IrOp::BrxIdx && j.target < prog->branch_tables.size())
      for (uint32_t t : prog->branch_tables[j.target])
        if (t > h && t <= q) return nullptr;
  }
  // (s2): the register carried from one iteration to the next, `x`: cmp,
  // set by a `mov cmp, d` after the CAS (nvcc's usual shape), or d itself,
  // copied by a `mov cmp, d` before the CAS.
  const std::vector<char>* live = live_at(func, h);
  if (!live) return nullptr;
  const bool top = d < live->size() && (*live)[d];
  const uint32_t x = top ? d : cmp;
  uint32_t m = 0;
  for (uint32_t k = h; k <= q; ++k) {
    if (!writes_reg(code[k], cmp)) continue;
    const Inst& mv = code[k];
    if (m || (top ? k >= pc : k <= pc) || mv.op != IrOp::Mov || mv.guarded || mv.src[0].kind != Opnd::Reg ||
        mv.src[0].negate || mv.src[0].slot != d || mv.dst[0].slot != cmp || mv.dwidth < 8u * cas.size)
      return nullptr;
    m = k;
  }
  if (!m) return nullptr;
  for (uint32_t k = h; k <= q; ++k)
    if (k != pc && writes_reg(code[k], d) && (top || (k > pc && k < m))) return nullptr;
  for (uint32_t k = h; k <= q; ++k)
    for (unsigned e = 0; e < 4; ++e) {
      const Opnd& o = code[k].dst[e];
      if (o.kind == Opnd::Reg && o.slot != x && o.slot < live->size() && (*live)[o.slot]) return nullptr;
    }
  // (s3): the setp that decides the jump, after the CAS (and before the
  // mov that overwrites cmp). Its aux destination (setp's q, or the
  // condition code register) was checked above with the other registers
  // written in the loop.
  uint32_t s = 0;
  for (uint32_t k = pc + 1; k < q; ++k)
    if (writes_reg(code[k], b.guard)) {
      if (s || (!top && k > m)) return nullptr;
      s = k;
    }
  if (!s) return nullptr;
  const Inst& sp = code[s];
  if (sp.op != IrOp::Arith || sp.guarded || sp.fn.nsrc != 2 || sp.dst[0].slot != b.guard ||
      sp.src[0].kind != Opnd::Reg || sp.src[1].kind != Opnd::Reg || sp.src[0].negate || sp.src[1].negate)
    return nullptr;
  if (!((sp.src[0].slot == cmp && sp.src[1].slot == d) || (sp.src[0].slot == d && sp.src[1].slot == cmp)))
    return nullptr;
  const unsigned bits = 8u * cas.size;
  const uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  const uint64_t sign = 1ull << (bits - 1), nan = bits == 64 ? 0x7ff8000000000001ull : 0x7fc00001ull;
  const uint64_t samples[][2] = {{0, 0},     {1, 1},   {0, 1},       {1, 0},    {0, sign}, {sign, 0},
                                 {nan, nan}, {nan, 0}, {mask, mask}, {mask, 0}, {5, 7},    {7, 5}};
  for (const auto& sm : samples) {
    const uint64_t c = sm[0] & mask, v = sm[1] & mask;
    if (jumps_back(sp, b, cmp, c, v) != (c != v)) return nullptr;
  }
  // (s4): the seed load before the loop, into x.
  uint32_t k = h;
  while (k > f.entry_pc && computes_registers(code[k - 1].op)) {
    --k;
    if (reads_reg(code[k], x) || writes_reg(code[k], x)) return nullptr;
  }
  if (k == f.entry_pc) return nullptr;
  const Inst& ld = code[k - 1];
  if (ld.op != IrOp::Ld || ld.guarded || ld.dst[0].kind != Opnd::Reg || ld.dst[0].slot != x ||
      ld.dst[1].kind != Opnd::None || ld.size != cas.size)
    return nullptr;
  L = CasLoop{true, h, q, cmp, s, k - 1};
  return &L;
}

bool Hook::cas_chain(const ThreadRec& r, const interp::Thread& t, const HookAccess& a, int li) {
  // CTAs explored apart: the machine's memory may hold another CTA's
  // write, which a failing CAS would read without the write of its own
  // that breaks the chain (hook_chain.cpp (a)).
  const CommLoc& l = sh_.locs[static_cast<size_t>(li)];
  if (sh_.decompose && !grid_on(li) && l.writer_cta != -1 && l.writer_cta != static_cast<int64_t>(r.cta_uid))
    return false;
  uint64_t c = 0;
  return cas_seeded(r, t, a, li, c);
}

bool Hook::cas_seeded(const ThreadRec& r, const interp::Thread& t, const HookAccess& a, int li, uint64_t& c) {
  if (sh_.no_cas_loop || r.events.empty() || !r.last_in) return false;
  const uint32_t pc = static_cast<uint32_t>(a.in - sh_.prog->code.data());
  const Shared::CasLoop* L = sh_.cas_loop_at(t.func, pc);
  if (!L) return false;
  // (d1): the latest event is the seed load's read of the same location.
  const mm::Event& e = r.events.back();
  if (r.last_in != &sh_.prog->code[L->seed] || e.kind != mm::EventKind::Read || e.loc != li) return false;
  // (d2)
  const Inst& ld = *r.last_in;
  if (ld.order != mm::Order::Weak && (ld.order != mm::Order::Relaxed || wide_rank(ld.scope) > wide_rank(a.in->scope)))
    return false;
  const uint64_t mask = a.size >= 8 ? ~0ull : (1ull << (8 * a.size)) - 1;
  c = t.regs[t.reg_base + L->cmp] & mask;
  return c == (e.value & mask);
}

bool Hook::cas_read(ThreadRec& r, const interp::Thread& t, const HookAccess& a, int li, uint64_t v) {
  const uint32_t pc = static_cast<uint32_t>(a.in - sh_.prog->code.data());
  const Shared::CasLoop* L = sh_.cas_loop_at(t.func, pc);
  if (!L) return true;
  const uint64_t mask = a.size >= 8 ? ~0ull : (1ull << (8 * a.size)) - 1;
  const uint64_t c = t.regs[t.reg_base + L->cmp] & mask;
  v &= mask;
  if (c == v) return true;
  const std::vector<Inst>& code = sh_.prog->code;
  // (s3) with these values: the failed iteration goes back to H.
  if (!jumps_back(code[L->setp], code[L->back], L->cmp, c, v)) return chain_break(li);
  r.cas_fail_from = L->back;
  r.cas_fail_to = L->head;
  return true;
}

std::optional<interp::ExecHook::Jump> Hook::cas_jump(ThreadRec& r, uint32_t from, uint32_t to) {
  const bool hit = r.cas_fail_from == from && r.cas_fail_to == to;
  r.cas_fail_from = r.cas_fail_to = ~0u;
  if (!hit) return std::nullopt;
  ++subsumed, ++r.subsumed;
  killed = true;
  r.killed = true;
  return Jump::Park;
}

}  // namespace ptxcheck::outcomes
