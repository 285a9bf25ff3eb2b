// Lazy loads in the outcomes ExecHook (hook_impl.hpp): a plain load of a
// communicating location whose value reaches nothing observable makes no
// choice.
//
// nvcc -O3 speculates loads out of branches: `if (lane == 0) acc += s[k]`
// becomes an unconditional ld.shared in every lane, an add, and a selp (or
// a predicated store) that keeps the sum in lane 0 only (probe9j's j12n: 96
// threads load a racy slot 3 times, each load a choice over 4 values, the
// search ran out of memory). The value of such a load matters to no lane
// but 0, but its event does: the load is an access of the location, and a
// data race is a pair of conflicting accesses (PTX ISA 8.7.1), whatever
// value the load returns.
//
// The design: a load that would choose among several values is *lazy* at
// first: it reads any value (its event is marked Event::any_value, as the
// read of an atom.exch with a dead result, explore.hpp: the engines take
// any write of the location as its source) and its destination register
// is followed. A static liveness or use-def pre-pass over the IR cannot
// tell j12n's lanes apart (the sum is selected by a predicate on %tid.x
// and stored under a branch on it: statically live in every lane), and a
// per-thread pass would have to know the future of the thread (later
// loads, branches on them); the run itself knows it. So the taint is
// followed along the executed path (lazy_step), and a value that reaches
// anything observable is a *use*, which makes that load (thread gid, code
// index) eager (Shared::eager: it chooses from then on) and restarts the
// exploration, as a deterministic location that turns out to communicate
// does (Hook::restart). The set only grows (each restart adds a pair it did
// not have), so the exploration ends; in its last round no run used the
// value of a lazy load.
//
// Followed (the register-to-register flow of Hook::step, made complete
// where Hook::step may drop a dependency): an instruction that computes
// registers (computes_registers) gives its destinations the union of its
// register sources' loads; selp (PTX ISA 9.7.6.3: d = c ? a : b) only
// those of c and of the operand c selects in this lane (c is known when it
// runs), which is what makes the speculated loads of j12n dead in lanes
// 1..31; a call passes nothing (a tainted argument or function address is
// a use), its callee's registers start clean, a ret of a tainted return
// value is a use and the caller's registers that receive them are clean.
// A use is any other read of a tainted register: a guard (control, also
// where it fails), an address, a store's or an atomic's operand, a warp
// collective's operand, a call's argument, a branch index, and any operand
// of an instruction whose register traffic the IR hides (mma, tensor, tex,
// wgmma registers, an unsupported instruction: any tainted register of the
// thread); and a loop-head state comparison of the spin-loop reduction
// (Hook::record, Hook::same_state) that sees a tainted register it compares
// (the reduction would otherwise compare the placeholder value). Every
// destination another instruction writes is clean: its value came from
// memory or from sources that were not tainted (a store of a tainted value
// is a use, so memory holds none).
//
// Soundness: in the last round, take a run with lazy loads L and any
// assignment of values to them that some write of their locations stores.
// No value of L reached a guard, an address, a memory or collective operand,
// a call or a compared loop state, so the thread runs the same
// instructions with the same accesses, the same values written, the same
// dependencies (none from L: each would need a use) and the same hook
// decisions; the run with L choosing those values has the same skeleton
// but for L's event values. The any_value skeleton's executions are the
// union of those runs' executions (the engines give L any write of its
// location; a value no write stores is read in none), with the same final
// memory (registers are no output) and the same races (8.7.1: the events
// and their relations, not the values). Loads that are eager choose as
// before. The value placeholder is the location's first candidate (its
// initial value), itself a value L may read, so a run that used a lazy
// value before the restart took a path the eager search also takes.
//
// Not lazy: atomics (their write depends on the value), a cp.async's read,
// a grid counter's poll, the reads of the other rules that read the
// machine's value (Hook::read), and loads of a location an mbarrier
// operation accesses (CommLoc::mbar: hook_canon.cpp's conditions look at
// the values its reads return). PTXCHECK_OUTCOMES_NO_LAZY=1 turns lazy
// loads off (for cross-checks: tests/corpus/outcomes_lazy.py).
#include <bit>

#include "semantics/arith/fast.hpp"
#include "semantics/outcomes/hook_impl.hpp"

namespace ptxcheck::outcomes {

using interp::Inst;
using interp::IrOp;
using interp::Opnd;

namespace {

void add_pcs(std::vector<uint32_t>& to, const std::vector<uint32_t>& from) {
  if (from.empty()) return;
  std::vector<uint32_t> u;
  u.reserve(to.size() + from.size());
  std::set_union(to.begin(), to.end(), from.begin(), from.end(), std::back_inserter(u));
  to = std::move(u);
}

// The IR hides which registers these read and write (liveness.cpp).
bool hides_registers(const Inst& in) {
  return in.op == IrOp::Mma || in.op == IrOp::Tensor || in.op == IrOp::Tex || in.op == IrOp::Unsupported || in.wg_reg;
}

}  // namespace

bool Shared::is_selp(uint32_t pc) {
  if (selp_at.size() != prog->code.size()) selp_at.assign(prog->code.size(), -1);
  int8_t& s = selp_at[pc];
  if (s < 0) {
    const Inst& in = prog->code[pc];
    s = in.op == IrOp::Arith && in.fn.fn && in.nsrc == 3 && arith::fast::form_of(in.fn).op == arith::fast::Op::selp;
  }
  return s > 0;
}

bool Hook::lazy_load(const ThreadRec& r, const interp::HookAccess& a, int li) {
  const CommLoc& l = sh_.locs[static_cast<size_t>(li)];
  if (sh_.no_lazy || a.kind != interp::HookKind::Load || a.in->op != IrOp::Ld || a.async || l.grid == 1 || l.mbar ||
      !r.t)
    return false;
  const uint32_t pc = static_cast<uint32_t>(a.in - sh_.prog->code.data());
  if (sh_.eager.count({r.t->gid, pc})) return false;
  lazy_locs_.insert(li);
  return true;
}

bool Hook::mbar_loc(int li) {
  CommLoc& l = sh_.locs[static_cast<size_t>(li)];
  if (l.mbar) return true;
  l.mbar = true;
  if (!lazy_locs_.count(li)) return true;
  restart = true;
  return false;
}

void Hook::lazy_dst(ThreadRec& r, const interp::Thread& t, const Opnd* dst, uint32_t pc) {
  if (!r.lazy) r.lazy = true, ++lazy_;
  if (!dst || dst->kind != Opnd::Reg) return;  // (ld into a sink)
  const size_t k = t.reg_base + dst->slot;
  if (r.lazy_regs.size() < t.regs.size()) r.lazy_regs.resize(t.regs.size());
  if (k < r.lazy_regs.size()) r.lazy_regs[k] = {pc};
}

void Hook::lazy_use(const ThreadRec& r, const std::vector<uint32_t>& pcs) {
  if (!r.t) return;
  for (uint32_t pc : pcs)
    if (sh_.eager.insert({r.t->gid, pc}).second) restart = true;
}

bool Hook::lazy_cmp(const ThreadRec& r, const interp::Thread& t, uint32_t head) {
  if (!r.lazy) return false;
  // The registers Hook::same_state compares: the current frame's live at
  // the head (all without liveness) and every register of the callers.
  const std::vector<char>* live = sh_.live_at(t.func, head);
  std::vector<uint32_t> used;
  for (size_t k = 0; k < r.lazy_regs.size() && k < t.regs.size(); ++k) {
    if (r.lazy_regs[k].empty()) continue;
    const bool cur = k >= t.reg_base && k - t.reg_base < (live ? live->size() : 0);
    if (!cur || (*live)[k - t.reg_base]) add_pcs(used, r.lazy_regs[k]);
  }
  if (used.empty()) return false;
  lazy_use(r, used);
  return true;
}

void Hook::lazy_step(interp::Thread* lanes, const Inst& in, uint32_t group, uint32_t exec) {
  const uint32_t pc = static_cast<uint32_t>(&in - sh_.prog->code.data());
  for (uint32_t b = group; b; b &= b - 1) {
    const uint32_t l = static_cast<uint32_t>(std::countr_zero(b));
    const interp::Thread& t = lanes[l];
    if (t.gid >= th.size() || !th[t.gid].lazy) continue;
    ThreadRec& r = th[t.gid];
    std::vector<std::vector<uint32_t>>& lr = r.lazy_regs;
    if (lr.size() < t.regs.size()) lr.resize(t.regs.size());
    const size_t base = t.reg_base;
    auto at = [&](uint32_t slot) -> std::vector<uint32_t>* {
      return base + slot < lr.size() ? &lr[base + slot] : nullptr;
    };
    auto of = [&](const Opnd& o) -> std::vector<uint32_t>* { return o.kind == Opnd::Reg ? at(o.slot) : nullptr; };
    std::vector<uint32_t> used;
    auto use = [&](const std::vector<uint32_t>* p) {
      if (p) add_pcs(used, *p);
    };
    auto clear_dst = [&]() {
      for (const Opnd& d : in.dst)
        if (std::vector<uint32_t>* p = of(d)) p->clear();
    };
    if (in.guarded) use(at(in.guard));  // control, whether the guard holds or not
    if (exec >> l & 1) {
      if (hides_registers(in)) {
        for (size_t k = base; k < lr.size(); ++k) use(&lr[k]);
      } else if (computes_registers(in.op)) {
        std::vector<uint32_t> d;
        if (sh_.is_selp(pc) && !in.src[2].negate && in.src[2].kind != Opnd::Special &&
            in.src[2].kind != Opnd::FrameAddr) {
          // selp d, a, b, c: d = c ? a : b (PTX ISA 9.7.6.3).
          const uint64_t c = in.src[2].kind == Opnd::Reg
                                 ? (base + in.src[2].slot < t.regs.size() ? t.regs[base + in.src[2].slot] : 1)
                                 : in.src[2].imm;
          if (const auto* p = of(in.src[2])) add_pcs(d, *p);
          if (const auto* p = of(in.src[(c & 1) != 0 ? 0 : 1])) add_pcs(d, *p);
        } else {
          for (const Opnd& s : in.src)
            if (const auto* p = of(s)) add_pcs(d, *p);
        }
        for (const Opnd& o : in.dst)
          if (std::vector<uint32_t>* p = of(o)) *p = d;
      } else if (in.op == IrOp::Call) {
        const interp::CallSite& cs = sh_.prog->calls[in.target];
        const interp::Function* callee = cs.callee != ~0u ? &sh_.prog->funcs[cs.callee] : nullptr;
        use(of(cs.fnptr));
        for (size_t k = 0; k < cs.args.size(); ++k) {
          const interp::CallArg& a = cs.args[k];
          if (a.in_frame) continue;
          use(of(a.value));
          // The high half of a .b128 formal (any callee, if indirect).
          if (a.value.kind == Opnd::Reg && (!callee || (k < callee->params.size() && callee->params[k].width == 128)))
            use(at(a.value.slot + 1));
        }
        lr.resize(t.regs.size());  // the callee's registers, above these, start clean
      } else if (in.op == IrOp::Ret) {
        if (!t.frames.empty()) {
          // The return values: a use if tainted; the caller's registers
          // that receive them are clean (Machine::do_ret copies them).
          const interp::Function& f = sh_.prog->funcs[t.func];
          const interp::Frame& fr = t.frames.back();
          const interp::CallSite& cs = sh_.prog->calls[fr.call];
          for (const interp::Formal& fm : f.rets)
            if (fm.is_reg) use(at(fm.slot)), use(fm.width == 128 ? at(fm.slot + 1) : nullptr);
          if (!used.empty()) lazy_use(r, used), used.clear();
          lr.resize(std::min(lr.size(), base));
          for (size_t k = 0; k < f.rets.size() && k < cs.rets.size(); ++k) {
            const interp::CallArg& a = cs.rets[k];
            if (a.in_frame || a.value.kind != Opnd::Reg) continue;
            for (uint32_t h = 0; h < (f.rets[k].is_reg && f.rets[k].width == 128 ? 2u : 1u); ++h)
              if (fr.reg_base + a.value.slot + h < lr.size()) lr[fr.reg_base + a.value.slot + h].clear();
          }
        }
      } else {
        for (const Opnd& s : in.src) use(of(s));
        if (in.addr.base == interp::Addr::Reg) use(at(in.addr.slot));
        if (in.addr2.base == interp::Addr::Reg) use(at(in.addr2.slot));
        clear_dst();  // (a lazy load sets its destination in Hook::read)
      }
    }
    if (!used.empty()) lazy_use(r, used);
  }
}

}  // namespace ptxcheck::outcomes
