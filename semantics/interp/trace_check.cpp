// The operations a symbolic thread runs (trace_exec.hpp), and why it refuses
// the others: checked over a thread function and all it may call before
// the thread runs.
#include <algorithm>
#include <string>

#include "semantics/interp/trace_exec_impl.hpp"

namespace ptxcheck::interp {
namespace trace_detail {

const char* op_text(IrOp op) {
  switch (op) {
#define IR_OP(id) \
  case IrOp::id:  \
    return #id;
#include "semantics/interp/ir_ops.def"
#undef IR_OP
  }
  return "?";
}

Range range_of(const Program& prog, uint32_t func) {
  Range r{prog.funcs[func].entry_pc, static_cast<uint32_t>(prog.code.size())};
  for (const Function& f : prog.funcs)
    if (f.defined && f.entry_pc > r.begin) r.end = std::min(r.end, f.entry_pc);
  return r;
}

}  // namespace trace_detail

namespace {

bool supported(const Inst& in) {
  switch (in.op) {
    // mbarrier.try_wait / test_wait, and arrive{.expect_tx} / expect_tx /
    // complete_tx on a location initialised as an mbarrier (mbar_update).
    case IrOp::Mbarrier:
      return in.mbar == MbarOp::Wait || in.mbar == MbarOp::WaitParity || in.mbar == MbarOp::Arrive ||
             in.mbar == MbarOp::ExpectTx || in.mbar == MbarOp::CompleteTx;
    case IrOp::BulkCopy: return (in.mode == 0 && in.flags == 0) || in.mode == 2;
    // The deprecated shfl/vote without .sync act on the lanes that happen to
    // execute together (9.7.9.5, 9.7.13.8): not a rendezvous.
    case IrOp::Shfl:
    case IrOp::Vote: return (in.flags & 1) != 0;  // copy, reduce (not multicast / cp_mask)
    case IrOp::CpAsync: return in.src[1].kind == Opnd::None;
    case IrOp::Nop:
    case IrOp::Arith:
    case IrOp::Mov:
    case IrOp::Pack:
    case IrOp::Unpack:
    case IrOp::Ld:
    case IrOp::St:
    case IrOp::Atom:
    case IrOp::Red:
    case IrOp::Bra:
    case IrOp::Ret:
    case IrOp::Exit:
    case IrOp::Call:
    case IrOp::Alloca:
    case IrOp::StackSave:
    case IrOp::StackRestore:
    case IrOp::Fence:
    case IrOp::Cvta:
    case IrOp::Match:
    case IrOp::Redux:
    case IrOp::Elect:
    case IrOp::WarpSync:
    case IrOp::BarSync:
    case IrOp::BarArrive: return true;
    default: return false;
  }
}

// Why a form of an operation that a symbolic thread runs in other forms is refused.
const char* form_limit(IrOp op) {
  switch (op) {
    case IrOp::Mbarrier:
      return "mbarrier.init, inval, arrive_drop and pending_count are not modelled: a litmus mbarrier is "
             "initialised by its location's initial value";
    case IrOp::BulkCopy: return "cp.async.bulk .multicast::cluster and .cp_mask are not modelled";
    case IrOp::CpAsync: return "cp.async with src-size or ignore-src is not modelled";
    case IrOp::Shfl:
    case IrOp::Vote:
      return "the deprecated shfl and vote without .sync act on the lanes that happen to run converged, a "
             "scheduling choice the litmus model does not make";
    default: return nullptr;
  }
}

}  // namespace

const char* trace_limit(IrOp op) {
  switch (op) {
    case IrOp::BrxIdx: return "brx.idx needs a .branchtargets directive, which a litmus thread body cannot declare";
    case IrOp::Trap: return "trap aborts the whole launch: no final state to list";
    case IrOp::BarRed:
      return "bar.red exchanges values among the threads of a CTA at a barrier; only warp collectives exchange values";
    case IrOp::ClusterArrive:
    case IrOp::ClusterWait: return "barrier.cluster: the model's barriers are CTA barriers";
    case IrOp::Activemask:
      return "activemask is the set of lanes that happen to run converged, a scheduling choice the litmus model does "
             "not make";
    case IrOp::Isspacep:
    case IrOp::Mapa:
    case IrOp::Getctarank:
      return "isspacep, mapa and getctarank read the launch's address windows and cluster layout, which a litmus "
             "test does not have";
    case IrOp::StBulk: return "st.bulk fills a byte range; the bytes between a test's locations are not modelled";
    case IrOp::Mma:
      return "matrix instructions move fragments among the lanes of a warp and access memory for the whole warp; "
             "their accesses are not modelled as events";
    case IrOp::Tensor: return "tensor copies need a tensor map in memory, which a litmus test does not have";
    case IrOp::Tex:
      return "texture and surface instructions need a bound resource; a litmus test models the texture and surface "
             "proxies with `via texture`/`via surface` locations";
    case IrOp::Unsupported: return "the interpreter does not run it either";
    default: return nullptr;
  }
}

using trace_detail::op_text;
using trace_detail::Range;
using trace_detail::range_of;

namespace {

void check_function(const Program& prog, uint32_t func) {
  Range r = range_of(prog, func);
  for (uint32_t pc = r.begin; pc < r.end; ++pc) {
    const Inst& in = prog.code[pc];
    if (in.op == IrOp::Unsupported)
      throw InputError(prog.file, SourcePos{in.line, in.col}, "instruction not supported: " + prog.messages[in.target]);
    // The complete_tx of st.async/red.async (MbarOp::CompleteTx after the access, lower_sync.cpp)
    // belongs to that instruction; the mbarrier.complete_tx instruction alone is refused.
    const bool async_tx =
        in.op == IrOp::Mbarrier && in.mbar == MbarOp::CompleteTx && pc > r.begin && prog.code[pc - 1].async_tx;
    if (!async_tx && !supported(in)) {
      const char* why = trace_limit(in.op);
      if (!why) why = form_limit(in.op);
      throw InputError(prog.file, SourcePos{in.line, in.col},
                       std::string("instruction not supported in a symbolic thread (IR ") + op_text(in.op) + ")" +
                           (why ? std::string(": ") + why : std::string()));
    }
  }
}

}  // namespace

void trace_check(const Program& prog, uint32_t func) {
  // The function and every function it may call: direct callees, and with
  // an indirect call every defined function.
  std::vector<char> seen(prog.funcs.size(), 0);
  std::vector<uint32_t> todo{func};
  seen[func] = 1;
  while (!todo.empty()) {
    const uint32_t f = todo.back();
    todo.pop_back();
    check_function(prog, f);
    const Range r = range_of(prog, f);
    for (uint32_t pc = r.begin; pc < r.end; ++pc) {
      const Inst& in = prog.code[pc];
      if (in.op != IrOp::Call) continue;
      const uint32_t c = prog.calls[in.target].callee;
      for (uint32_t g = 0; g < prog.funcs.size(); ++g)
        if ((c == ~0u || c == g) && prog.funcs[g].defined && !seen[g]) {
          seen[g] = 1;
          todo.push_back(g);
        }
    }
  }
}

}  // namespace ptxcheck::interp
