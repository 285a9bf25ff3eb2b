// Lowering of barriers (PTX ISA 9.7.13.1 bar, barrier), warp collectives
// (shfl.sync, vote, match, redux, activemask, elect, bar.warp.sync) and the
// asynchronous copies with their mbarrier objects (cp.async, cp.async.bulk,
// mbarrier.*): the instructions whose execution needs other threads.
#include <algorithm>
#include <initializer_list>

#include "semantics/interp/lower_insn.hpp"
#include "semantics/interp/warp_sync.hpp"

namespace ptxcheck::interp {

void InsnLowering::bar() {
  // bar{.cta}.sync / barrier{.cta}.sync{.aligned} a{, b}; bar.arrive a, b;
  // bar.red.op.type d, a{, b}, {!}c   (PTX ISA 9.7.13.1 bar, barrier)
  size_t k = 0;
  if (has(Mod::red)) {
    i.op = IrOp::BarRed;
    i.mode = has(Mod::popc) ? 0 : has(Mod::and_) ? 1 : 2;
    dests(opd(k++), 32);
  } else {
    i.op = has(Mod::arrive) ? IrOp::BarArrive : IrOp::BarSync;
  }
  i.src[0] = value(opd(k++), 32, false);
  size_t remaining = in.operands.size() - k;
  if (i.op == IrOp::BarRed) {
    if (remaining == 2) i.src[1] = value(opd(k++), 32, false);
    i.src[2] = value(opd(k++), 1, false);
  } else if (remaining >= 1) {
    i.src[1] = value(opd(k++), 32, false);
  }
  i.flags = in.op == Opcode::barrier && !has(Mod::aligned) ? 0 : 1;  // .aligned
  emit();
}

void InsnLowering::warp_op() {
  switch (in.op) {
    case Opcode::shfl: {
      // shfl.mode.b32 d[|p], a, b, c (PTX ISA 9.7.9.5 shfl (deprecated)): the
      // pseudo-code of shfl.sync over the lanes executing it; reading a lane
      // that does not execute it is unpredictable (a shfl-source warning).
      i.op = IrOp::Shfl;
      i.flags = has(Mod::sync) ? 1 : 0;
      i.mode = has(Mod::up) ? 0 : has(Mod::down) ? 1 : has(Mod::bfly) ? 2 : 3;
      const ast::Operand& d = opd(0);
      if (auto* rp = std::get_if<ast::RegPair>(&d.v)) {
        i.dst[0] = reg(rp->first, d.pos);
        i.dst[1] = reg(rp->second, d.pos);
        i.ndst = 2;
      } else {
        i.dst[0] = value(d, 32, false);
        i.ndst = 1;
      }
      i.nsrc = i.flags ? 4 : 3;
      for (int s = 0; s < i.nsrc; ++s) i.src[s] = value(opd(1 + s), 32, false);
      break;
    }
    case Opcode::vote: {
      i.op = IrOp::Vote;
      i.mode = has(Mod::all) ? 0 : has(Mod::any) ? 1 : has(Mod::uni) ? 2 : 3;
      i.dst[0] = value(opd(0), 32, false);
      i.ndst = 1;
      i.src[0] = value(opd(1), 1, false);
      if (in.operands.size() > 2) i.src[1] = value(opd(2), 32, false);
      else i.src[1] = Opnd{Opnd::Imm, SReg::zero, false, 0, 0xffffffffu};
      i.flags = has(Mod::sync) ? 1 : 0;
      break;
    }
    case Opcode::match: {
      i.op = IrOp::Match;
      i.mode = has(Mod::all) ? 1 : 0;
      i.size = static_cast<uint8_t>(tbits() / 8);
      const ast::Operand& d = opd(0);
      if (auto* rp = std::get_if<ast::RegPair>(&d.v)) {
        i.dst[0] = reg(rp->first, d.pos);
        i.dst[1] = reg(rp->second, d.pos);
        i.ndst = 2;
      } else {
        i.dst[0] = value(d, 32, false);
        i.ndst = 1;
      }
      i.src[0] = value(opd(1), tbits(), false);
      i.src[1] = value(opd(2), 32, false);
      break;
    }
    case Opcode::redux: {
      i.op = IrOp::Redux;
      Mod t = types.empty() ? Mod::u32 : types[0];
      i.nk = numkind(t);
      i.atom = has(Mod::add) ? AtomOp::Add : has(Mod::min) ? AtomOp::Min
             : has(Mod::max) ? AtomOp::Max : has(Mod::and_) ? AtomOp::And
             : has(Mod::or_) ? AtomOp::Or : AtomOp::Xor;
      if (i.nk == NumKind::F) {
        // redux.sync.{min,max}{.abs}{.NaN}.f32 (sm_100a, PTX ISA
        // 9.7.13.12 redux.sync): the min/max instruction's semantics folded over the
        // lanes, on |a| with .abs; .NaN makes any NaN input give NaN.
        AtomOp op = i.atom;
        if (op != AtomOp::Min && op != AtomOp::Max) return unsupported("redux.sync on .f32 supports min and max only");
        std::string mn = std::string(op == AtomOp::Min ? "min" : "max") + (has(Mod::NaN) ? ".NaN" : "") + ".f32";
        auto r = arith::resolve(mn);
        if (!r) return unsupported("redux.sync: '" + mn + "': " + r.error);
        i.fn = *r.desc;
        i.flags = has(Mod::abs) ? 1 : 0;
      }
      i.dst[0] = value(opd(0), 32, false);
      i.ndst = 1;
      i.src[0] = value(opd(1), 32, false);
      i.src[1] = value(opd(2), 32, false);
      break;
    }
    case Opcode::activemask:
      i.op = IrOp::Activemask;
      i.dst[0] = value(opd(0), 32, false);
      i.ndst = 1;
      break;
    case Opcode::elect: {
      i.op = IrOp::Elect;
      const ast::Operand& d = opd(0);
      if (auto* rp = std::get_if<ast::RegPair>(&d.v)) {
        if (rp->first.name != "_") i.dst[0] = reg(rp->first, d.pos);
        i.dst[1] = reg(rp->second, d.pos);
      } else {
        i.dst[1] = value(d, 1, false);
      }
      i.src[0] = value(opd(in.operands.size() - 1), 32, false);
      break;
    }
    case Opcode::bar_warp_sync:
      i.op = IrOp::WarpSync;
      i.src[0] = value(opd(0), 32, false);
      break;
    default: return unsupported("unexpected warp operation");
  }
  // "For .target sm_6x or below, all threads in membermask must execute the
  // same vote.sync instruction in convergence" (PTX ISA 9.7.13.9 vote.sync;
  // likewise 9.7.9.6 shfl.sync and 9.7.13.2 bar.warp.sync): such a module's
  // .sync collectives carry kSameInstruction, and lanes meeting at another
  // instruction get a warp-sync error (warp_ops.cpp). Where the shim chooses
  // the PTX (PTXCHECK_DEVICE), a device below sm_70 only runs such modules.
  const bool sync_form = i.op == IrOp::Match || i.op == IrOp::Redux || i.op == IrOp::Elect ||
                         i.op == IrOp::WarpSync || ((i.op == IrOp::Vote || i.op == IrOp::Shfl) && (i.flags & 1));
  if (sync_form && below_sm70(ctx.mod)) i.flags |= kSameInstruction;
  emit();
}

bool below_sm70(const ast::Module& m) {
  for (const std::string& t : m.targets) {
    // "sm_NN" or "sm_NNa"/"sm_NNf" (PTX ISA 11.2 .target); sm_1x-sm_6x.
    if (t.size() < 5 || t.compare(0, 3, "sm_") != 0) continue;
    size_t n = 3;
    unsigned v = 0;
    while (n < t.size() && t[n] >= '0' && t[n] <= '9') v = v * 10 + static_cast<unsigned>(t[n++] - '0');
    if (n > 3 && v < 70) return true;
  }
  return false;
}

void InsnLowering::async_op() {
  switch (in.op) {
    case Opcode::cp_async: {
      // cp.async.{ca,cg}.shared{::cta}.global [dst], [src], cp-size{, src-size}
      // cp.async.ca... [dst], [src], cp-size{, ignore-src}{, cache-policy}: a
      // true ignore-src predicate zero-fills the destination like src-size 0
      // (PTX ISA 9.7.9.25.3 Non-bulk copy); a .L2::cache_hint policy operand is ignored.
      i.op = IrOp::CpAsync;
      i.addr = address(opd(0));
      // Two space qualifiers (.shared.global): destination, then source.
      i.addr.space = Space::Shared;
      Addr src = address(opd(1));
      src.space = Space::Global;
      i.addr2 = src;
      i.src[0] = value(opd(2), 32, false);
      size_t nops = in.operands.size() - (has(Mod::L2_cache_hint) ? 1 : 0);
      if (nops > 3 && !std::holds_alternative<ast::Symbol>(in.operands[3].v)) {
        uint32_t w = 32;
        Opnd o = value(opd(3), 32, false, &w);
        i.src[w == 1 ? 2 : 1] = o;  // a predicate register: ignore-src; otherwise src-size
      }
      return emit();
    }
    case Opcode::cp_async_bulk: {
      // cp.async.bulk.dst.src.completion{.multicast::cluster}{.level::cache_hint}{.cp_mask}
      //   [dst], [src], size{, [mbar]}{, ctaMask}{, cache-policy}{, byteMask}
      // PTX ISA 9.7.9.25.4.1 cp.async.bulk (9.1 numbering of docs.nvidia.com
      // parallel-thread-execution). flags: 1 .multicast::cluster (ctaMask in
      // src[3]), 2 .cp_mask (byteMask in src[3]).
      if (has(Mod::cta_group_1) || has(Mod::cta_group_2)) return unsupported("cp.async.bulk .cta_group is not a PTX form (ptxas 13.0 rejects it)");
      i.op = IrOp::BulkCopy;
      std::vector<Space> sp;
      for (const auto& m : in.mods) {
        if (m.id == Mod::global) sp.push_back(Space::Global);
        if (m.id == Mod::shared_cluster) sp.push_back(Space::SharedCluster);
        if (m.id == Mod::shared_cta || m.id == Mod::shared) sp.push_back(Space::Shared);
      }
      if (sp.size() != 2) return unsupported("cp.async.bulk: expected a destination and a source space");
      i.addr = address(opd(0));
      i.addr.space = sp[0];
      i.addr2 = address(opd(1));
      i.addr2.space = sp[1];
      i.src[0] = value(opd(2), 32, false);
      size_t k = 3;
      if (k < in.operands.size() && std::holds_alternative<ast::Address>(in.operands[k].v)) {
        Addr mb = address(opd(k++));
        if (mb.base == Addr::Reg) {
          i.src[1].kind = Opnd::Reg;
          i.src[1].slot = mb.slot;
        } else {
          i.src[1].kind = Opnd::Imm;
        }
        i.src[2].kind = Opnd::Imm;
        i.src[2].imm = static_cast<uint64_t>(mb.off);
      }
      if (has(Mod::multicast_cluster)) {
        // "each bit position in the 16-bit ctaMask operand corresponds to" a
        // destination CTA of the cluster; the data and the mbarrier signal go
        // to the same CTA-relative offsets in each.
        if (sp[0] != Space::SharedCluster || sp[1] != Space::Global || i.src[1].kind == Opnd::None)
          ctx.fail(in.pos, "cp.async.bulk .multicast::cluster: expected .shared::cluster.global with [mbar]");
        i.flags = 1;
        i.src[3] = value(opd(k), 16, false);
      } else if (has(Mod::cp_mask)) {
        // "The i-th bit in the 16-bit wide byteMask operand specifies whether
        // the i-th byte of each 16-byte wide chunk of source data is copied".
        if (sp[0] != Space::Global || sp[1] != Space::Shared)
          ctx.fail(in.pos, "cp.async.bulk .cp_mask: expected .global.shared::cta");
        i.flags = 2;
        i.src[3] = value(opd(in.operands.size() - 1), 16, false);
      }
      return emit();
    }
    case Opcode::cp_reduce_async_bulk: {
      // cp.reduce.async.bulk.dst.src.completion{.level::cache_hint}.redOp{.noftz}.type
      //   [dstMem], [srcMem], size{, [mbar]}{, cache-policy}
      // PTX ISA 9.7.9.25.4.2 cp.reduce.async.bulk (docs.nvidia.com
      // parallel-thread-execution, 9.1 numbering): each element of dstMem is
      // reduced with the element of srcMem (shared::cta); .shared::cluster
      // destinations complete with complete-tx on [mbar], .global ones with
      // the bulk async-group. mode 2 of IrOp::BulkCopy (exec_async.cpp).
      i.op = IrOp::BulkCopy;
      i.mode = 2;
      if (types.size() != 1) ctx.fail(in.pos, "cp.reduce.async.bulk: expected one element type");
      AtomOp op = has(Mod::add) ? AtomOp::Add : has(Mod::inc) ? AtomOp::Inc : has(Mod::dec) ? AtomOp::Dec
                : has(Mod::min) ? AtomOp::Min : has(Mod::max) ? AtomOp::Max : has(Mod::and_) ? AtomOp::And
                : has(Mod::or_) ? AtomOp::Or : has(Mod::xor_) ? AtomOp::Xor : AtomOp::Exch;
      if (op == AtomOp::Exch) ctx.fail(in.pos, "cp.reduce.async.bulk: expected a reduction operation (.redOp)");
      std::vector<Space> sp;
      for (const auto& m : in.mods) {
        if (m.id == Mod::global) sp.push_back(Space::Global);
        if (m.id == Mod::shared_cluster) sp.push_back(Space::SharedCluster);
        if (m.id == Mod::shared_cta || m.id == Mod::shared) sp.push_back(Space::Shared);
      }
      if (sp.size() != 2 || sp[1] != Space::Shared || (sp[0] != Space::Global && sp[0] != Space::SharedCluster))
        ctx.fail(in.pos, "cp.reduce.async.bulk: expected .global.shared::cta or .shared::cluster.shared::cta");
      const bool glob = sp[0] == Space::Global;
      if (glob != has(Mod::bulk_group) || glob == has(Mod::mbarrier_complete_tx_bytes))
        ctx.fail(in.pos, glob ? "cp.reduce.async.bulk to .global completes with .bulk_group"
                              : "cp.reduce.async.bulk to .shared::cluster completes with .mbarrier::complete_tx::bytes");
      // The valid (.redOp, .type) combinations: the table of 9.7.9.25.4.2
      // (ptxas 13.0 -arch=sm_90a accepts exactly these; its example
      // `.xor.s32` is rejected by ptxas).
      const Mod t = types[0];
      auto any = [&](std::initializer_list<Mod> l) { return std::find(l.begin(), l.end(), t) != l.end(); };
      const bool half = any({Mod::f16, Mod::bf16});
      bool ok = false;
      switch (op) {
        case AtomOp::And:
        case AtomOp::Or:
        case AtomOp::Xor: ok = t == Mod::b32 || (glob && t == Mod::b64); break;
        case AtomOp::Add:
          ok = any({Mod::u32, Mod::s32, Mod::u64}) || (glob && (any({Mod::f32, Mod::f64}) || (half && has(Mod::noftz))));
          break;
        case AtomOp::Inc:
        case AtomOp::Dec: ok = t == Mod::u32; break;
        default: ok = any({Mod::u32, Mod::s32}) || (glob && (any({Mod::u64, Mod::s64}) || half)); break;
      }
      if (has(Mod::noftz) && !(op == AtomOp::Add && half)) ok = false;
      if (!ok)
        ctx.fail(in.pos, std::string("cp.reduce.async.bulk: .") + arith::atom_op_name(op) + (has(Mod::noftz) ? ".noftz" : "") +
                             std::string(table::name(t)) + " is not a form for a ." + (glob ? "global" : "shared::cluster") +
                             " destination (PTX ISA 9.7.9.25.4.2)");
      auto ty = arith::ty_from_name(table::name(t).substr(1));
      if (!ty || !arith::atom_form_error(op, *ty).empty()) return unsupported("cp.reduce.async.bulk: element type");
      i.ety = *ty;
      i.atom = op;
      i.size = static_cast<uint8_t>(table::type_bits(t) / 8);
      i.addr = address(opd(0));
      i.addr.space = sp[0];
      i.addr2 = address(opd(1));
      i.addr2.space = sp[1];
      i.src[0] = value(opd(2), 32, false);
      if (!glob) {
        Addr mb = address(opd(3));
        i.src[1].kind = mb.base == Addr::Reg ? Opnd::Reg : Opnd::Imm;
        i.src[1].slot = mb.slot;
        i.src[2].kind = Opnd::Imm;
        i.src[2].imm = static_cast<uint64_t>(mb.off);
      }
      return emit();
    }
    case Opcode::cp_async_bulk_commit_group:
    case Opcode::cp_async_bulk_wait_group:
    case Opcode::cp_async_commit_group:
    case Opcode::cp_async_wait_group:
    case Opcode::cp_async_wait_all:
      i.op = IrOp::Nop;  // the Machine completes the copies in flight it selects (exec.cpp, cp_complete)
      // For the memory model's symbolic threads (trace_exec.cpp), which keep
      // asynchronous operations pending: mode 1 bulk commit, 2 bulk wait
      // (src[0] = N, flags 1 = .read), 3 cp.async commit, 4 cp.async wait,
      // 5 cp.async.wait_all (PTX ISA 9.7.9.25.1.1 Async-group mechanism).
      i.mode = in.op == Opcode::cp_async_bulk_commit_group ? 1 : in.op == Opcode::cp_async_bulk_wait_group ? 2
             : in.op == Opcode::cp_async_commit_group ? 3 : in.op == Opcode::cp_async_wait_group ? 4 : 5;
      if ((i.mode == 2 || i.mode == 4) && !in.operands.empty()) i.src[0] = value(opd(0), 32, false);
      i.flags = has(Mod::read) ? 1 : 0;
      return emit();
    case Opcode::cp_async_mbarrier_arrive:
      // mode 6: the thread's prior cp.async operations complete here
      // (Machine::cp_complete; the arrive-on "is ordered with respect to the
      // memory operations performed by all prior cp.async operations
      // initiated by the same thread", PTX ISA 8.9.1.1).
      i.mode = 6;
      if (!has(Mod::noinc)) {
        i.op = IrOp::Nop;  // +1 pending then an arrive: no net change
        return emit();
      }
      i.op = IrOp::Mbarrier;
      i.mbar = MbarOp::Arrive;
      i.order = mm::Order::Release;  // orders the thread's prior cp.async (8.9.1.1)
      i.scope = mm::Scope::CTA;
      i.addr = address(opd(0));
      i.src[0] = Opnd{Opnd::Imm, SReg::zero, false, 0, 1};
      return emit();
    case Opcode::mbarrier_init:
    case Opcode::mbarrier_inval:
    case Opcode::mbarrier_arrive:
    case Opcode::mbarrier_arrive_drop:
    case Opcode::mbarrier_test_wait:
    case Opcode::mbarrier_try_wait:
    case Opcode::mbarrier_pending_count:
    case Opcode::mbarrier_expect_tx:
    case Opcode::mbarrier_complete_tx: {
      // Object layout (8 bytes): bits 0-30 pending arrivals, 32-62 expected
      // arrivals, 63 phase parity. PTX ISA 9.7.13.15 mbarrier.
      i.op = IrOp::Mbarrier;
      i.expect_tx = has(Mod::expect_tx);  // arrive.expect_tx: add to tx-count first
      // PTX ISA 9.7.13.15: arrive is .release and test_wait/try_wait
      // .acquire by default, both at .cta scope.
      sync_mm(in.op == Opcode::mbarrier_test_wait || in.op == Opcode::mbarrier_try_wait ? mm::Order::Acquire
                                                                                            : mm::Order::Release,
                mm::Scope::CTA);
      switch (in.op) {
        case Opcode::mbarrier_expect_tx:
        case Opcode::mbarrier_complete_tx:
          i.mbar = in.op == Opcode::mbarrier_expect_tx ? MbarOp::ExpectTx : MbarOp::CompleteTx;
          i.addr = address(opd(0));
          i.src[0] = value(opd(1), 32, false);
          break;
        case Opcode::mbarrier_init:
          i.mbar = MbarOp::Init;
          i.addr = address(opd(0));
          i.src[0] = value(opd(1), 32, false);
          break;
        case Opcode::mbarrier_inval:
          i.mbar = MbarOp::Inval;
          i.addr = address(opd(0));
          break;
        case Opcode::mbarrier_arrive:
        case Opcode::mbarrier_arrive_drop:
          i.mbar = in.op == Opcode::mbarrier_arrive ? MbarOp::Arrive : MbarOp::ArriveDrop;
          dests(opd(0), 64);
          i.addr = address(opd(1));
          i.src[0] = in.operands.size() > 2 ? value(opd(2), 32, false) : Opnd{Opnd::Imm, SReg::zero, false, 0, 1};
          break;
        case Opcode::mbarrier_pending_count:
          i.mbar = MbarOp::PendingCount;
          dests(opd(0), 32);
          i.src[0] = value(opd(1), 64, false);
          break;
        default:
          i.mbar = has(Mod::parity) ? MbarOp::WaitParity : MbarOp::Wait;
          dests(opd(0), 1);
          i.addr = address(opd(1));
          i.src[0] = value(opd(2), 64, false);
          break;
      }
      if (i.addr.space == Space::Generic && in.op != Opcode::mbarrier_pending_count) {
        // generic addressing of an mbarrier object is allowed; keep it generic
      }
      return emit();
    }
    case Opcode::st_async:
    case Opcode::red_async: {
      // st.async{.weak}.shared::cluster.mbarrier::complete_tx::bytes{.vec}.type [a], b, [mbar]
      // red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.op.type [a], b, [mbar]
      // (sm_90): a store / reduction into shared::cluster memory whose
      // completion performs complete_tx of its size on the mbarrier object.
      // Lowered as the st / red followed by that complete_tx: completing at
      // once is a permitted schedule.
      if (types.empty()) ctx.fail(in.pos, "st.async/red.async without a type");
      unsigned bits = tbits();
      if (bits > 128 || (bits == 128 && (in.op != Opcode::st_async || vec > 1)))
        return unsupported("st.async/red.async element wider than the PTX forms");
      i.size = static_cast<uint8_t>(std::max(1u, bits / 8));
      i.nk = numkind(types[0]);
      i.addr = address(opd(0));
      if (bits == 128) {  // .b128: one 16-byte store as the register's two 64-bit halves
        i.op = IrOp::St;
        i.size = 8;
        i.nk = NumKind::B;
        i.nsrc = 0;
        wide_opnds(opd(1), i.src, i.nsrc);
        if (i.nsrc != 2) ctx.fail(in.pos, "st.async .b128 takes one 128-bit operand");
      } else if (in.op == Opcode::st_async) {
        i.op = IrOp::St;
        set_mm(litmus::MemClass::Access);
        sources(opd(1), bits, i.nk == NumKind::F);
        if (vec > 1 && i.nsrc != vec) ctx.fail(in.pos, "vector width does not match the operand list");
      } else {
        i.op = IrOp::Red;
        set_mm(litmus::MemClass::Atomic);
        AtomOp op = has(Mod::inc) ? AtomOp::Inc : has(Mod::dec) ? AtomOp::Dec : has(Mod::min) ? AtomOp::Min
                  : has(Mod::max) ? AtomOp::Max : has(Mod::and_) ? AtomOp::And : has(Mod::or_) ? AtomOp::Or
                  : has(Mod::xor_) ? AtomOp::Xor : AtomOp::Add;
        if (!has(Mod::add) && op == AtomOp::Add) ctx.fail(in.pos, "red.async without an operation");
        i.atom = op;
        auto ty = arith::ty_from_name(table::name(types[0]).substr(1));
        if (!ty) return unsupported("red.async on " + std::string(table::name(types[0])) + " is not supported");
        i.ety = *ty;
        if (std::string err = arith::atom_form_error(op, *ty); !err.empty()) return unsupported(err);
        i.src[0] = value(opd(1), bits, false);
        i.nsrc = 1;
      }
      unsigned bytes = i.size * i.nsrc;
      i.async_tx = true;
      Inst tx;
      tx.op = IrOp::Mbarrier;
      tx.mbar = MbarOp::CompleteTx;
      tx.order = mm::Order::Release;  // makes the issuing thread's store visible with the phase
      tx.scope = mm::Scope::Cluster;
      tx.line = i.line;
      tx.col = i.col;
      tx.guarded = i.guarded;
      tx.guard = i.guard;
      tx.guard_neg = i.guard_neg;
      tx.addr = address(opd(2));
      tx.src[0] = Opnd{Opnd::Imm, SReg::zero, false, 0, bytes};
      emit();
      ctx.prog.code.push_back(tx);
      return;
    }
    default: return unsupported("unexpected asynchronous operation");
  }
}

}  // namespace ptxcheck::interp
