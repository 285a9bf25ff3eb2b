// Polls that fail (hook_grid.cpp (g6)): before a poll P of a grid counter
// x runs (Hook::grid_step), the search chooses the write of x's chain that
// P reads, among the executed ones from P's floor to the latest, or to
// wait for the next write ((g3)). A position whose value makes P's loop go
// back is a failed iteration: grid_jump drops it and stops the launch, so
// the run it begins has no consistent execution to show and adds nothing
// (docs/outcomes.md "Spin loops": the failed iteration is redundant, and
// the choices of the other positions and of waiting cover what follows,
// (g3)). Such a position is not offered. probe9i's i19_3 (grid.sync twice,
// 3 CTAs of 32 threads) stopped about 2,000 of its 2,940 launches so.
//
// Whether P's value fails is computed from the thread's state when P is
// about to run, not learned from other runs: the same path prefix gives
// the same registers and the same chain, so the same alternatives, which
// the depth-first search's replay needs (Shared::Path stores each choice
// with its count). Hook::poll_fails runs the loop's code after P on a copy
// of the thread's registers, with P's destination set to the value, as
// the interpreter would: register computations (IrOp::Arith with register
// and immediate operands, through the same arith::OpDesc; IrOp::Mov of a
// register or an immediate) and branches (their guards, from the copy).
// P fails when the copy reaches a backward jump that grid_jump takes as
// the poll failing (a pure loop holding P: Shared::pure_loop,
// in_pure_loop). Anything else (another instruction, where grid_flush
// would push P's event; a backward jump out of such a loop; an operand
// the copy does not model; more than kPollSteps instructions) is not known
// to fail, and the position is offered as before. So a position that
// is not offered is one whose launch grid_jump would stop at P.
// PTXCHECK_OUTCOMES_NO_POLL_FILTER=1 offers every position
// (tests/corpus/outcomes_grid.py compares).
#include "semantics/outcomes/hook_impl.hpp"

namespace ptxcheck::outcomes {

using interp::Inst;
using interp::IrOp;
using interp::Opnd;

namespace {

// The most instructions after a poll that poll_fails follows.
constexpr uint32_t kPollSteps = 64;

uint64_t width_mask(uint32_t bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

}  // namespace

bool Hook::poll_fails(const interp::Thread& t, uint32_t pc, uint64_t v, uint64_t unk,
                      const std::vector<ThreadRec::RoundTok>* toks) {
  const std::vector<Inst>& code = sh_.prog->code;
  const Inst& p = code[pc];
  if (p.dst[0].kind != Opnd::Reg || p.guarded || p.size * 8u < p.dwidth) return false;
  std::vector<uint64_t> regs(t.regs.begin() + t.reg_base, t.regs.end());
  // (g7): the bits of each register that may differ (hook_round.cpp (r2), (r6)).
  std::vector<uint64_t> un(regs.size(), 0);
  if (toks)
    for (const ThreadRec::RoundTok& k : *toks)
      if (k.slot >= t.reg_base && k.slot - t.reg_base < un.size()) un[k.slot - t.reg_base] = k.unk;
  auto reg = [&](uint32_t slot) -> uint64_t* { return slot < regs.size() ? &regs[slot] : nullptr; };
  auto src = [&](const Opnd& o, uint64_t& out, uint64_t& u) {
    u = 0;
    if (o.kind == Opnd::Imm) {
      out = o.imm;
      return true;
    }
    if (o.kind != Opnd::Reg || !reg(o.slot)) return false;
    out = o.negate ? !*reg(o.slot) : *reg(o.slot);
    u = un[o.slot];
    return true;
  };
  if (!reg(p.dst[0].slot)) return false;
  *reg(p.dst[0].slot) = v & width_mask(p.dwidth);
  un[p.dst[0].slot] = unk & width_mask(p.dwidth);
  uint32_t at = pc + 1;
  for (uint32_t n = 0; n < kPollSteps && at < code.size(); ++n) {
    const Inst& in = code[at];
    bool on = true;
    if (in.guarded) {
      if (!reg(in.guard) || un[in.guard]) return false;
      on = (*reg(in.guard) != 0) != in.guard_neg;
    }
    if (in.op == IrOp::Bra) {
      if (!on) {
        ++at;
        continue;
      }
      // grid_jump: the poll failed when the loop it is in goes back.
      if (in.target <= at) return sh_.pure_loop(t.func, in.target, at) && sh_.in_pure_loop(t.func, in.target, at, pc);
      at = in.target;
      continue;
    }
    if (in.op == IrOp::Mov || in.op == IrOp::Arith) {
      uint64_t s[4] = {0, 0, 0, 0}, u[4] = {0, 0, 0, 0};
      bool any = false;
      for (unsigned k = 0; k < (in.op == IrOp::Mov ? 1u : in.nsrc) && k < 4; ++k) {
        if (!src(in.src[k], s[k], u[k])) return false;
        any = any || u[k];
      }
      const bool d0 = in.dst[0].kind == Opnd::Reg, d1 = in.ndst > 1 && in.dst[1].kind == Opnd::Reg;
      if ((d0 && !reg(in.dst[0].slot)) || (d1 && !reg(in.dst[1].slot)) || in.ndst > 2) return false;
      // (g7): a result that is the same for every value of the unknown bits,
      // or whose own unknown bits are known (unknown_bits).
      const std::optional<uint64_t> du = any ? unknown_bits(in, s, u) : std::optional<uint64_t>{0};
      if (!du || (d1 && *du)) return false;
      if (on) {
        uint64_t aux = 0;
        const uint64_t x = in.op == IrOp::Mov ? s[0] : in.fn.fn(s, &aux, in.fn.cfg);
        if (d0) *reg(in.dst[0].slot) = x & width_mask(in.dwidth), un[in.dst[0].slot] = *du;
        if (d1) *reg(in.dst[1].slot) = aux, un[in.dst[1].slot] = 0;
      }
      ++at;
      continue;
    }
    return false;  // grid_flush would push the poll's event here: it left the loop
  }
  return false;
}

std::vector<uint32_t> Hook::grid_offer(const interp::Thread& t, uint32_t pc, int li, uint32_t n, uint32_t now,
                                       uint32_t wait) {
  const GridRun& g = grid_[li];
  const uint64_t init = sh_.locs[static_cast<size_t>(li)].init;
  std::vector<uint32_t> offer;  // the latest first, as before
  for (uint32_t k = 0; k < now; ++k) {
    const uint32_t pos = n - k;
    if (sh_.no_poll_filter || !poll_fails(t, pc, pos == 0 ? init : g.vals[pos - 1])) offer.push_back(pos);
  }
  // None left and no wait: the latest, whose launch stops at the poll (as
  // every alternative's would).
  if (offer.empty() && now > 0 && wait == 0) offer.push_back(n);
  return offer;
}

}  // namespace ptxcheck::outcomes
