// Static analyses of one function's IR for the canonical and blocking
// mbarrier waits of `ptxcheck outcomes` (hook_canon.cpp, whose header states
// the conditions these check: (f1), (f2) for Shared::wait_redundant, and the
// spin of (h) for Shared::wait_spins; docs/outcomes.md "How the search
// scales", item 4). Hook::canon_wait and Hook::canon_block_at use them.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "semantics/outcomes/hook_impl.hpp"

namespace ptxcheck::outcomes {

using interp::IrOp;
using interp::MbarOp;

namespace {

// Instructions that only compute registers: no memory access, no
// synchronization, no control flow.
bool reg_only(const interp::Inst& in) { return (in.op == IrOp::Nop || computes_registers(in.op)) && !in.wg_reg; }

// A walk's state: the code index, the registers of known value (those the
// wait's predicate decides, and constants), the registers written since
// the wait.
struct Walk {
  uint32_t pc = 0;
  std::map<uint32_t, uint64_t> known;
  std::vector<char> mod;
};

std::optional<uint64_t> known_value(const Walk& s, const interp::Opnd& o) {
  if (o.kind == interp::Opnd::Imm) return o.imm;
  if (o.kind != interp::Opnd::Reg) return std::nullopt;
  auto it = s.known.find(o.slot);
  if (it == s.known.end()) return std::nullopt;
  return o.negate ? uint64_t{!it->second} : it->second;
}

// Whether a guarded instruction runs in state s (nullopt: not known).
std::optional<bool> runs(const Walk& s, const interp::Inst& in) {
  if (!in.guarded) return true;
  std::optional<uint64_t> g = known_value(s, interp::Opnd{interp::Opnd::Reg, interp::SReg::zero, false, in.guard, 0});
  if (!g) return std::nullopt;
  return (*g != 0) != in.guard_neg;
}

// Executes the register-only instruction `in` on the known values.
void compute(Walk& s, const interp::Inst& in) {
  const std::optional<bool> active = runs(s, in);
  std::optional<uint64_t> v, aux;
  if (active == true) {
    const uint64_t wmask = in.dwidth >= 64 ? ~0ull : (1ull << in.dwidth) - 1;
    if (in.op == IrOp::Mov) {
      if (std::optional<uint64_t> x = known_value(s, in.src[0])) v = *x & wmask;
    } else if (in.op == IrOp::Arith && in.fn.fn) {
      uint64_t src[5] = {0, 0, 0, 0, 0};
      bool all = in.nsrc <= 4;
      for (unsigned k = 0; k < in.nsrc && all; ++k) {
        std::optional<uint64_t> x = known_value(s, in.src[k]);
        all = x.has_value();
        if (all) src[k] = *x;
      }
      if (all) {
        uint64_t a = 0;
        v = in.fn.fn(src, &a, in.fn.cfg) & wmask;
        aux = a;
      }
    }
  }
  if (active == false) return;
  for (unsigned k = 0; k < 4; ++k) {
    if (in.dst[k].kind != interp::Opnd::Reg) continue;
    s.mod[in.dst[k].slot] = 1;
    s.known.erase(in.dst[k].slot);
  }
  if (in.dst[0].kind == interp::Opnd::Reg && v) s.known[in.dst[0].slot] = *v;
  if (in.ndst > 1 && in.dst[1].kind == interp::Opnd::Reg && aux) s.known[in.dst[1].slot] = *aux;
}

}  // namespace

bool Shared::wait_redundant(uint32_t func, uint32_t pc0) {
  auto key = std::make_pair(func, pc0);
  auto cached = wait_cache.find(key);
  if (cached != wait_cache.end()) return cached->second;
  bool result = false;
  const interp::Function& f = prog->funcs[func];
  uint32_t begin = f.entry_pc, end = static_cast<uint32_t>(prog->code.size());
  for (const interp::Function& g : prog->funcs)
    if (g.defined && g.entry_pc > begin) end = std::min(end, g.entry_pc);
  const std::vector<interp::Inst>& code = prog->code;
  const interp::Inst& w = code[pc0];
  const size_t nr = f.nregs;
  auto slot_ok = [&](const interp::Opnd& o) { return o.kind != interp::Opnd::Reg || o.slot < nr; };
  bool shape = w.op == IrOp::Mbarrier && (w.mbar == MbarOp::Wait || w.mbar == MbarOp::WaitParity) &&
               w.dst[0].kind == interp::Opnd::Reg && !w.guarded && pc0 >= begin && pc0 < end;
  for (uint32_t pc = begin; pc < end && shape; ++pc) {  // register operands within the frame
    const interp::Inst& in = code[pc];
    shape = !(in.guarded && in.guard >= nr) && !(in.addr.base == interp::Addr::Reg && in.addr.slot >= nr);
    for (unsigned k = 0; k < 4 && shape; ++k) shape = slot_ok(in.src[k]) && slot_ok(in.dst[k]);
  }
  if (!shape) return wait_cache[key] = false;
  // A wait equal to `w`: same operation, order, scope, object and state
  // (or parity) operand, its registers unchanged since `w`.
  auto equal = [&](const Walk& s, const interp::Inst& in) {
    if (in.op != IrOp::Mbarrier || in.mbar != w.mbar || in.guarded || in.dst[0].kind != interp::Opnd::Reg ||
        in.order != w.order || in.scope != w.scope || in.addr.space != w.addr.space || in.addr.base != w.addr.base ||
        in.addr.slot != w.addr.slot || in.addr.off != w.addr.off || in.addr.addr32 != w.addr.addr32 ||
        in.src[0].kind != w.src[0].kind || in.src[0].slot != w.src[0].slot || in.src[0].imm != w.src[0].imm)
      return false;
    if (in.addr.base == interp::Addr::Reg && s.mod[in.addr.slot]) return false;
    return in.src[0].kind != interp::Opnd::Reg || !s.mod[in.src[0].slot];
  };
  // The end of a failed iteration: a backward jump from `from` to `head`
  // that Hook::back_jump drops (a pure loop, and so is every other
  // backward jump to `head`: the thread never records an arrival there).
  auto dropped = [&](uint32_t head, uint32_t from) {
    if (!pure_loop(func, head, from)) return false;
    for (uint32_t pc = head; pc < end; ++pc) {
      const interp::Inst& in = code[pc];
      if (in.op == IrOp::Bra && in.target == head && !pure_loop(func, head, pc)) return false;
      if (in.op == IrOp::BrxIdx)
        for (uint32_t t : prog->branch_tables[in.target])
          if (t == head) return false;
    }
    return true;
  };
  // Follows the decided path from `s` (register-only code, branches on
  // known predicates), calling at(s) at each code index before executing
  // it; stops when at() returns true or the path is no longer decided.
  auto straight = [&](Walk s, auto&& at) {
    for (int n = 0; n < 256 && s.pc >= begin && s.pc < end; ++n) {
      if (at(s)) return;
      const interp::Inst& in = code[s.pc];
      if (in.op == IrOp::Bra) {
        const std::optional<bool> taken = runs(s, in);
        if (!taken) return;
        s.pc = *taken ? in.target : s.pc + 1;
        continue;
      }
      if (!reg_only(in)) return;
      compute(s, in);
      ++s.pc;
    }
  };
  Walk start;
  start.mod.assign(nr, 0);
  start.mod[w.dst[0].slot] = 1;
  // The path of the wait's success, with the registers written on it.
  std::map<uint32_t, std::vector<char>> success;
  {
    Walk s = start;
    s.pc = pc0 + 1;
    s.known[w.dst[0].slot] = 1;
    straight(s, [&](const Walk& x) { return !success.emplace(x.pc, x.mod).second; });
  }
  // Every path of its failure: dropped, or an equal wait succeeds and
  // meets the success path where no register live there was written on
  // either path.
  std::vector<Walk> work;
  {
    Walk s = start;
    s.pc = pc0 + 1;
    s.known[w.dst[0].slot] = 0;
    work.push_back(std::move(s));
  }
  int budget = 4096;
  bool ok = true;
  std::vector<std::pair<uint32_t, uint32_t>>& backs = wait_backs[key];
  backs.clear();
  while (ok && !work.empty()) {
    Walk s = std::move(work.back());
    work.pop_back();
    for (;;) {
      if (--budget < 0 || s.pc < begin || s.pc >= end) {
        ok = false;
        break;
      }
      const interp::Inst& in = code[s.pc];
      if (equal(s, in)) {
        const uint32_t p = in.dst[0].slot;
        s.mod[p] = 1;
        Walk t = s;
        t.pc = s.pc + 1;
        t.known[p] = 1;
        bool met = false;
        straight(t, [&](const Walk& x) {
          auto it = success.find(x.pc);
          if (it == success.end()) return false;
          const std::vector<char>* live = live_at(func, x.pc);
          met = live != nullptr;
          for (size_t k = 0; k < nr && met; ++k) met = !((*live)[k] && (x.mod[k] || it->second[k]));
          return true;
        });
        if (!met) {
          ok = false;
          break;
        }
        s.known[p] = 0;
        ++s.pc;
        continue;
      }
      if (in.op == IrOp::Bra) {
        const std::optional<bool> taken = runs(s, in);
        const bool back = in.target <= s.pc;
        if (!taken || *taken) {
          if (back) {
            if (!dropped(in.target, s.pc)) {
              ok = false;
              break;
            }
            backs.emplace_back(in.target, s.pc);
            if (taken) break;  // the path ends here
          } else if (taken) {
            s.pc = in.target;
            continue;
          } else {
            Walk j = s;
            j.pc = in.target;
            work.push_back(std::move(j));
          }
        }
        ++s.pc;
        continue;
      }
      if (!reg_only(in)) {
        ok = false;
        break;
      }
      compute(s, in);
      ++s.pc;
    }
  }
  result = ok;
  return wait_cache[key] = result;
}

bool Shared::wait_spins(uint32_t func, uint32_t pc0) {
  auto key = std::make_pair(func, pc0);
  auto cached = spin_cache.find(key);
  if (cached != spin_cache.end()) return cached->second;
  bool ok = wait_redundant(func, pc0);
  const std::vector<interp::Inst>& code = prog->code;
  const interp::Inst& w = code[pc0];
  // A wait equal to `w` in its operands (registers: checked below).
  auto equal = [&](const interp::Inst& in) {
    return in.op == IrOp::Mbarrier && in.mbar == w.mbar && !in.guarded && in.dst[0].kind == interp::Opnd::Reg &&
           in.order == w.order && in.scope == w.scope && in.addr.space == w.addr.space && in.addr.base == w.addr.base &&
           in.addr.slot == w.addr.slot && in.addr.off == w.addr.off && in.addr.addr32 == w.addr.addr32 &&
           in.src[0].kind == w.src[0].kind && in.src[0].slot == w.src[0].slot && in.src[0].imm == w.src[0].imm;
  };
  // Each loop the failed waits jump back into (the pure loop of the
  // backward jump, wherever its code lies: Shared::loop_code; wait_redundant
  // checked that each is one): registers only, and every path from its
  // head reaches a wait with the same operands inside it (that it polls
  // the same object and phase is checked as it runs: Hook::canon_block).
  for (auto [head, from] : ok ? wait_backs[key] : std::vector<std::pair<uint32_t, uint32_t>>{}) {
    auto lc = loop_code.find(std::make_tuple(func, head, from));
    if (lc == loop_code.end()) {
      ok = false;
      break;
    }
    const std::vector<uint32_t>& body = lc->second;
    for (uint32_t pc : body) {
      const interp::Inst& in = code[pc];
      ok = ok && (in.op == IrOp::Bra || reg_only(in) || equal(in));
    }
    std::set<uint32_t> seen;
    std::vector<uint32_t> work{head};
    while (ok && !work.empty()) {
      const uint32_t pc = work.back();
      work.pop_back();
      if (!std::binary_search(body.begin(), body.end(), pc)) {
        ok = false;
        break;
      }
      if (!seen.insert(pc).second) continue;
      const interp::Inst& in = code[pc];
      if (equal(in)) continue;
      if (in.op == IrOp::Bra) {
        if (in.guarded) work.push_back(pc + 1);
        work.push_back(in.target);
        continue;
      }
      work.push_back(pc + 1);
    }
  }
  return spin_cache[key] = ok;
}

}  // namespace ptxcheck::outcomes
