// Deterministic locations of `ptxcheck outcomes` (explore.hpp): the check
// of each access against the location's shadow (vector clocks over program
// order and completed barriers), and the exempt commuting updates that may
// stay unordered (Hook::commuting_rmw, exempt_combine). The rest of the
// hook: hook.cpp.
#include <algorithm>

#include "semantics/outcomes/hook_impl.hpp"

namespace ptxcheck::outcomes {

using interp::HookAccess;
using interp::HookKind;
using interp::Inst;
using interp::IrOp;

// Commuting updates. An atom/red on a location M whose result nothing
// uses, whose operation commutes with itself (add, min, max on integers;
// and, or, xor) and that starts no release pattern leaves M deterministic
// when it meets an unordered update of the same class (the same operation
// and type, the same bytes, morally strong: scopes that include both
// threads, PTX ISA 8.7), instead of making M communicating (where each
// update's read would choose among every subset sum of the updates: n
// updates gave about n! * 2^n runs). Conditions, checked in every run:
//  (a) Every two conflicting accesses of M are ordered by program order or
//      completed barriers (the vector clocks), except pairs of updates of
//      one class ("exempt" updates). The update's result register is dead
//      after it (Shared::live_at; red has none), so no thread uses what it
//      read; its operation is not a release (commuting_rmw).
//  (b) Of two exempt updates that (a) leaves unordered, none may end a
//      release pattern while an acquire pattern may start with the other's
//      read. An update may end a release pattern (PTX ISA 8.8 forms 1-3:
//      a release operation or fence before a strong write) when its thread
//      executed a release, acq_rel or sc fence or operation before it
//      (ThreadRec::released); an acquire pattern may start with its read
//      (forms 1-3: an acquire operation, or a strong read followed by an
//      acquire operation or fence) when it is .acquire or such an
//      instruction, a call or a return may follow it in its thread
//      (Shared::acquire_from). The last-block reduction's readers, which
//      run __threadfence() before adding the partials into a shared word,
//      end in no acquire after their adds and stay exempt.
// Claim: in every consistent execution X of a run whose accesses of M are
// all events (M communicating, each read choosing its value), every read
// of M that is not an exempt update returns the value the machine's memory
// holds when the machine executes it, and M's final value is the
// machine's; and X's causality order on the other locations does not
// depend on the order of the exempt updates. So the run where M is
// deterministic (no events, the machine's values) has the same final
// states and the same paths.
//  - Exempt updates are morally strong (8.7), so their writes are totally
//    ordered in coherence order (8.9.6); every other write W of M is
//    ordered by causality with each write (a), so it is in coherence order
//    too (8.10.1): coherence order on M is total and contains the clocks'
//    order.
//  - An update A reads its immediate coherence predecessor: not one before
//    a morally strong write before A (Atomicity, 8.10.3), nor one before a
//    write ordered before A by causality (Causality, 8.10.6 item 2), and
//    every write before A is one or the other. So the value after a prefix
//    of the coherence order is the value of its latest plain write (or the
//    initial value) with the updates after it applied, in any order: the
//    operations commute (integer add modulo 2^n, min, max, and, or, xor
//    are commutative and associative), so it depends only on which updates
//    follow the plain write, which the clocks fix.
//  - Another read R of M is ordered with every write (a): by 8.10.6 it
//    reads the coherence-latest of the writes ordered before it (item 2: no
//    write before one of those; item 1: none ordered after it), a prefix
//    whose plain writes are the same in every X and whose updates are
//    exactly those ordered before R, which the machine (respecting the
//    clocks) executed before R and none of the others: the machine's value.
//    The final value is the same with every write of M.
//  - The order of exempt updates is seen by other locations only through
//    observation order (8.9.2): synchronization (8.9.4 item 4) and the
//    second form of causality order (8.9.5). A release pattern on M (8.8)
//    ends in a write W of M; it synchronizes with an acquire pattern whose
//    read R observes W. If W and R are ordered by the clocks ((a) orders
//    every pair but two exempt updates, and (b) orders those of a release
//    and an acquire pattern): with W first, the synchronization adds
//    nothing to the clocks' order (the pattern's first operation precedes
//    W, which precedes R, in base causality order already); with R first,
//    R cannot observe W (8.10.6 item 1, and the updates in between read
//    their predecessors). So every synchronization through M is in the
//    clocks' order, whatever the updates' order: given a consistent
//    execution of the run without M's events, ordering the updates by
//    any linear extension of its causality order gives one of the run
//    with them (a fence.sc order that the run picked and that an
//    observation would force, docs/races.md item 7, is then the one the
//    extension follows). The second form of causality order relates a
//    write of M to accesses of M only through 8.10.1 and 8.10.6, covered
//    above, and no data race involves two morally strong updates (8.7.1).
// A run that breaks (a) makes M communicating (the restart of every other
// unordered conflict). CTAs explored apart (explore.hpp) are never ordered:
// global bytes that two of them access, in any two launches, with a write
// among the accesses become communicating, except when every access of
// each is an exempt update of one class, at .gpu scope or wider
// (Shared::DetUnits). Then no CTA reads M, each CTA's updates apply
// operands its own path fixes (ThreadRec::exempt: their combination, the
// sum for add), and by the claim above M's final value is its initial
// value with every update applied, in any order: Composer::build applies
// the picked CTAs' combined operands to it. PTXCHECK_OUTCOMES_NO_COMMUTE=1 turns
// this off (tests/corpus/commute, checked by canon_xcheck.py --env).
int64_t Hook::commuting_rmw(const interp::Thread& t, const ThreadRec&, const HookAccess& a) {
  if (sh_.no_commute || (a.kind != HookKind::RmwRead && a.kind != HookKind::RmwWrite)) return -1;
  const Inst& in = *a.in;
  if (in.op != IrOp::Atom && in.op != IrOp::Red) return -1;
  switch (in.atom) {
    case arith::AtomOp::Add:
    case arith::AtomOp::Min:
    case arith::AtomOp::Max:
    case arith::AtomOp::And:
    case arith::AtomOp::Or:
    case arith::AtomOp::Xor: break;
    default: return -1;
  }
  switch (in.ety) {
    case arith::Ty::b32:
    case arith::Ty::b64:
    case arith::Ty::u32:
    case arith::Ty::u64:
    case arith::Ty::s32:
    case arith::Ty::s64: break;
    default: return -1;  // floating-point adds do not associate
  }
  if (in.order == mm::Order::Release || in.order == mm::Order::AcqRel || in.order == mm::Order::SC) return -1;
  if (in.src[0].kind != interp::Opnd::Reg && in.src[0].kind != interp::Opnd::Imm) return -1;
  if (in.op == IrOp::Atom) {
    if (in.ndst > 1) return -1;
    if (in.dst[0].kind == interp::Opnd::Reg) {
      const uint32_t pc = static_cast<uint32_t>(a.in - sh_.prog->code.data());
      if (!result_unused(t, t.func, pc + 1, in.dst[0].slot, t.frames.size())) return -1;
    }
  }
  return int64_t{static_cast<uint8_t>(in.atom)} << 8 | static_cast<uint8_t>(in.ety);
}

// The value follows the -O0 pattern only, step by step: at `q` an unguarded
// st.param of the register to a return formal of the function (in frame
// bytes), after which the register is dead; straight-line code that leaves
// those bytes alone up to an unguarded ret; in the caller, right after the
// call, the receiving register (a register result), or an unguarded
// ld.param of exactly the receiving .param bytes into a register, after
// which those bytes are dead (Shared::frame_live_at); then the same for
// that register. do_ret copies the formal's bytes to the receiving place
// and nothing else, so every read of the value is one of these moves.
bool Hook::result_unused(const interp::Thread& t, uint32_t func, uint32_t q, uint32_t slot, size_t depth) {
  const std::vector<Inst>& code = sh_.prog->code;
  for (unsigned hop = 0; hop < 8; ++hop) {
    const std::vector<char>* live = sh_.live_at(func, q);
    if (!live || slot >= live->size()) return false;
    if (!(*live)[slot]) return true;
    const interp::Function& f = sh_.prog->funcs[func];
    if (f.is_entry || depth == 0 || q >= code.size()) return false;
    const Inst& st = code[q];
    if (st.op != IrOp::St || st.guarded || st.addr.base != interp::Addr::Frame || st.src[0].kind != interp::Opnd::Reg ||
        st.src[0].slot != slot || st.src[1].kind != interp::Opnd::None)
      return false;
    size_t k = f.rets.size();
    for (size_t i = 0; i < f.rets.size(); ++i)
      if (!f.rets[i].is_reg && int64_t{f.rets[i].frame_off} == st.addr.off && f.rets[i].size == st.size) k = i;
    if (k == f.rets.size()) return false;
    const std::vector<char>* after = sh_.live_at(func, q + 1);
    if (!after || (*after)[slot]) return false;
    uint32_t pc = q + 1;
    for (;; ++pc) {
      if (pc >= code.size()) return false;
      const Inst& in = code[pc];
      if (in.op == IrOp::Ret && !in.guarded) break;
      if (in.op == IrOp::Bra || in.op == IrOp::BrxIdx || in.op == IrOp::Call || in.op == IrOp::Ret ||
          in.op == IrOp::Exit || in.op == IrOp::Trap || in.addr.base == interp::Addr::Frame ||
          in.addr2.base == interp::Addr::Frame)
        return false;
    }
    const interp::Frame& fr = t.frames[depth - 1];
    const interp::CallSite& cs = sh_.prog->calls[fr.call];
    if (k >= cs.rets.size()) return true;  // the caller receives fewer results
    const interp::CallArg& to = cs.rets[k];
    func = fr.func;
    q = fr.ret_pc;
    --depth;
    if (!to.in_frame) {
      if (to.value.kind != interp::Opnd::Reg) return false;
      slot = to.value.slot;
      continue;
    }
    if (q >= code.size()) return false;
    const Inst& ld = code[q];
    if (ld.op != IrOp::Ld || ld.guarded || ld.addr.base != interp::Addr::Frame ||
        ld.addr.off != int64_t{to.frame_off} || ld.size != to.size || ld.ndst != 1 ||
        ld.dst[0].kind != interp::Opnd::Reg)
      return false;
    const std::vector<char>* fl = sh_.frame_live_at(func, q + 1);
    if (!fl) return false;
    for (uint32_t b = to.frame_off; b < to.frame_off + to.size; ++b)
      if (b >= fl->size() || (*fl)[b]) return false;
    slot = ld.dst[0].slot;
    ++q;
  }
  return false;
}

uint64_t exempt_combine(int64_t cls, uint64_t x, uint64_t b, unsigned size) {
  const unsigned bits = 8 * std::min(size, 8u);
  const uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  x &= mask;
  b &= mask;
  const auto ty = static_cast<arith::Ty>(cls & 0xff);
  const bool sgn = ty == arith::Ty::s32 || ty == arith::Ty::s64;
  auto sx = [&](uint64_t v) {
    return bits >= 64 ? static_cast<int64_t>(v) : static_cast<int64_t>(v << (64 - bits)) >> (64 - bits);
  };
  const bool less = sgn ? sx(b) < sx(x) : b < x;
  switch (static_cast<arith::AtomOp>(cls >> 8)) {
    case arith::AtomOp::Add: return (x + b) & mask;
    case arith::AtomOp::Xor: return x ^ b;
    case arith::AtomOp::And: return x & b;
    case arith::AtomOp::Or: return x | b;
    case arith::AtomOp::Min: return less ? b : x;
    case arith::AtomOp::Max: return less ? x : b;
    default: return x;
  }
}

// Deterministic access: check it against the shadow; an access unordered
// with a conflicting one makes the location communicating (restart), but
// for two exempt updates of one class (commuting_rmw).
bool Hook::det_access(ThreadRec& r, const HookAccess& a, bool write, int64_t rmw, const std::vector<uint32_t>* issued,
                      bool unordered) {
  if (rmw >= 0 && !write) return true;  // the write half checks the update
  const uint32_t gid = r.t->gid, ep = unordered ? ~0u : r.vc[gid];
  // An earlier access of thread g at epoch e is ordered before this one:
  // before a cp.async's issue, for the copy's accesses at its completion
  // (PTX ISA 8.9.1.1: "ordered after prior instructions in the same thread").
  auto before = [&](uint32_t g, uint32_t e) {
    return issued ? g < issued->size() && (*issued)[g] >= e : ordered(r, g, e);
  };
  const int unit = static_cast<int>(sh_.unit_of_uid(r.cta_uid));
  // Two exempt updates of one class are morally strong (8.7): each scope
  // includes the other thread.
  // Release and acquire patterns through M (condition (b)): this update
  // may end a release pattern when its thread ran a release before it; an
  // acquire pattern may start with its read when it is an acquire or an
  // acquire may follow it in its thread (Shared::acquire_from).
  const bool rel = rmw >= 0 && r.released;
  bool acq = rmw >= 0 && a.in->order == mm::Order::Acquire;
  if (rmw >= 0 && !acq) {
    int k = sh_.acquire_from(r.t->func, static_cast<uint32_t>(a.in - sh_.prog->code.data()) + 1);
    for (size_t i = r.t->frames.size(); k == 2 && i-- > 0;)
      k = sh_.acquire_from(r.t->frames[i].func, r.t->frames[i].ret_pc);
    acq = k != 0;
  }
  auto exempt = [&](const Shadow::Rmw& o) {
    if (rmw < 0 || o.cls != rmw || o.key != a.key || o.size != a.size) return false;
    if ((o.rel && acq) || (o.acq && rel)) return false;
    const mm::Scope need = o.cta == r.cta_uid       ? mm::Scope::CTA
                           : o.cluster == r.cluster ? mm::Scope::Cluster
                                                    : mm::Scope::GPU;
    return std::min(o.scope, a.in->scope) >= need;
  };
  for (uint64_t b = a.key; b < a.key + a.size; ++b) {
    Shadow& s = shadow_[b];
    bool race =
        s.w_gid >= 0 && static_cast<uint32_t>(s.w_gid) != gid && !before(static_cast<uint32_t>(s.w_gid), s.w_epoch);
    if (write)
      for (auto [g, e] : s.reads) race = race || (g != gid && !before(g, e));
    for (const Shadow::Rmw& o : s.rmws) race = race || (o.gid != gid && !before(o.gid, o.epoch) && !exempt(o));
    if (sh_.decompose && !(b & interp::kHookSharedKey)) {
      // Two units (clusters, or CTAs without clusters) are never ordered
      // (no barrier spans two clusters): a conflict in any two launches of
      // the exploration is a conflict of some launch of the whole product
      // (explore.hpp). Shared memory is accessed within its cluster only
      // (PTX ISA 5.1.7: the .shared::cluster window holds the shared memory
      // of the cluster's CTAs), so within one unit. Exempt updates of two
      // units (morally strong at .gpu scope): Composer::build applies each
      // unit's operands to the initial value.
      Shared::DetUnits& d = sh_.det_units[b];
      const bool upd = write && rmw >= 0;
      race = race || (d.w != -1 && d.w != unit) || (write && d.rd != -1 && d.rd != unit);
      if (!upd)
        race = race || (d.x != -1 && d.x != unit);
      else if (d.x != -1 && d.x != unit)
        race = race || d.xcls != rmw || std::min(d.xscope, a.in->scope) < mm::Scope::GPU;
      if (upd) race = race || (rel && d.xacq != -1 && d.xacq != unit) || (acq && d.xrel != -1 && d.xrel != unit);
      if (!race) {
        if (upd) {
          if (rel) d.xrel = d.xrel == -1 || d.xrel == unit ? unit : -2;
          if (acq) d.xacq = d.xacq == -1 || d.xacq == unit ? unit : -2;
          d.xcls = d.x == -1 || d.xcls == rmw ? rmw : -2;
          d.x = d.x == -1 || d.x == unit ? unit : -2;
          d.xscope = std::min(d.xscope, a.in->scope);
        } else if (write) {
          d.w = unit;
        } else {
          d.rd = d.rd == -1 || d.rd == unit ? unit : -2;
        }
      }
    }
    if (race) {
      const int li = sh_.promote(a.key, a.size, a.in ? a.in->line : 0);
      // A cp.async's accesses are outside program order: the arguments of
      // canonical arrives and RMW chains do not cover them (async_plain).
      if (a.async) sh_.locs[static_cast<size_t>(li)].canon = sh_.locs[static_cast<size_t>(li)].rmw_chain = false;
      // The other access may have had another size: promote it the same way
      // (promote throws on a real mixed-size overlap).
      restart = true;
      return false;
    }
    if (write && rmw >= 0) {
      // An update ordered after an earlier one that is exempt with the same
      // accesses: what is ordered after this one is after that one too, and
      // what is exempt with this one is exempt with that one.
      std::erase_if(s.rmws, [&](const Shadow::Rmw& o) {
        return o.cls == rmw && o.key == a.key && o.size == a.size && o.cta == r.cta_uid && o.cluster == r.cluster &&
               o.scope == a.in->scope && (!o.rel || rel) && (!o.acq || acq) && ordered(r, o.gid, o.epoch);
      });
      s.rmws.push_back({gid, ep, r.cta_uid, r.cluster, rmw, a.key, a.size, a.in->scope, rel, acq});
    } else if (write) {
      s.w_gid = static_cast<int>(gid);
      s.w_epoch = ep;
      s.reads.clear();
      s.rmws.clear();
    } else {
      bool found = false;
      for (auto& [g, e] : s.reads)
        if (g == gid) e = ep, found = true;
      if (!found) s.reads.emplace_back(gid, ep);
    }
  }
  return true;
}

}  // namespace ptxcheck::outcomes
