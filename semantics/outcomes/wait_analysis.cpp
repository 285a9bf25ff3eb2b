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

// Unrolled polls. libcu++'s generic cuda::barrier (one with a completion
// function) waits with __cccl_thread_poll_with_backoff: 16 polls of the
// phase word that nvcc unrolls into straight-line code (ld.acquire, the
// exit test, a branch out), then a backoff loop. A straight-line poll is no
// loop: Hook::back_jump never sees its failure, so each poll was a choice
// between failing and succeeding values (probe9j's j14: 2 threads ran out
// of 3 GB). Shared::poll_unrolled gives such a poll P (a strong scalar ld
// of a communicating location M, unguarded, run by a thread with frame
// registers s0) only the values that end its wait, when:
//  (u1) every value of M's set either fails, that is, the path from P with
//       that value in P's destination, computing registers from s0 (the
//       registers live at P; no memory access, fence, barrier, call or
//       exit; nanosleep is none of these), reaches a poll Q equal to P
//       (ld with the same size, type, width, order, scope, state space and
//       address operand, its address register unchanged since P) at
//       another code index, or succeeds: it does not reach one while the
//       path is decided (S, the succeeding values; both kinds present);
//  (u2) from each such Q, for every value x of M's set, every path (both
//       ways at a branch the registers do not decide: a time register's
//       value is not known) computes registers until it reaches an equal
//       poll (explored the same way; one at P itself with every register
//       live at P unchanged is P's start again) or meets the decided path
//       of P's success with the same x at a code index where no register
//       live there was written on either path since P (so x is in S).
// Claim: a run R_f where P reads a failing value f adds no final state to
// the runs where P reads a value of S. In R_f the thread, after P, only
// computes registers and reads M with equal polls, each reading a value
// of M's set (as P does in the same round), so its path is one of those
// (u2) explored. If it never leaves them, the thread does not end and R_f
// has no final state. Otherwise let Q read x last before it leaves: it
// meets the path of P reading x with the registers live there as at P in
// both, and x is in S. Let R_t be the run where P reads x, with R_f's other
// choices: from the meeting point on, the thread runs as in R_f. For a
// consistent execution X of R_f, remove the events of the polls from P up
// to before Q and take Q's event as P's (same instruction semantics, at
// the same place among the thread's other events, 8.9.1 Program Order):
// an execution of R_t, consistent because removing reads removes
// observation, synchronizes-with, causality and communication edges and
// adds none (8.9.2-8.9.7), and each axiom of 8.10 forbids a cycle or asks
// for an inclusion that a restriction keeps; the registers live at the
// meeting point carry the dependencies they had before P, and the later
// events depend on Q's read as in R_f (8.10.4 No Thin Air: R_t has no
// dependency edge R_f lacks). Same final state. R_f's thread writes
// nothing between P and the meeting point, so R_f adds no value to the
// value sets either (the rest as for canonical waits, hook_wait.cpp, with
// (g): a run with a reduced poll that stops on an error turns the
// reduction off for M and restarts). As with the dropped spin iterations
// (docs/outcomes.md "Spin loops"), a data race that only a removed failed
// poll takes part in is not reported; P is strong, so it races only with
// a weak write of M.
// The failed polls of one loop (Q at P's own index) are left to
// Hook::back_jump: with (u1) asking for another index, this changes nothing
// for loops. PTXCHECK_OUTCOMES_NO_POLL_UNROLL=1 turns it off.
bool Shared::poll_unrolled(uint32_t func, uint32_t pc0, const uint64_t* regs, const std::vector<uint64_t>& values,
                           std::vector<uint32_t>& cand) {
  const interp::Function& f = prog->funcs[func];
  uint32_t begin = f.entry_pc, end = static_cast<uint32_t>(prog->code.size());
  for (const interp::Function& g : prog->funcs)
    if (g.defined && g.entry_pc > begin) end = std::min(end, g.entry_pc);
  const std::vector<interp::Inst>& code = prog->code;
  const size_t nr = f.nregs;
  if (pc0 < begin || pc0 >= end || values.size() < 2) return false;
  const interp::Inst& w = code[pc0];
  auto slot_ok = [&](const interp::Opnd& o) { return o.kind != interp::Opnd::Reg || o.slot < nr; };
  auto slots_ok = [&](const interp::Inst& in) {
    bool ok = !(in.guarded && in.guard >= nr) && !(in.addr.base == interp::Addr::Reg && in.addr.slot >= nr);
    for (unsigned k = 0; k < 4 && ok; ++k) ok = slot_ok(in.src[k]) && slot_ok(in.dst[k]);
    return ok;
  };
  if (w.op != IrOp::Ld || w.guarded || w.ndst > 1 || w.dst[0].kind != interp::Opnd::Reg ||
      w.dst[1].kind != interp::Opnd::None || w.order == mm::Order::Weak || !slots_ok(w))
    return false;
  const std::vector<char>* live0 = live_at(func, pc0);
  if (!live0 || live0->size() < nr) return false;
  Walk start;
  start.mod.assign(nr, 0);
  std::vector<uint64_t> key{func, pc0};
  for (uint32_t k = 0; k < nr; ++k)
    if ((*live0)[k]) {
      start.known[k] = regs[k];
      key.push_back(k);
      key.push_back(regs[k]);
    }
  key.push_back(~0ull);
  key.insert(key.end(), values.begin(), values.end());
  if (auto c = unroll_cache.find(key); c != unroll_cache.end()) {
    if (c->second) cand = *c->second;
    return c->second.has_value();
  }
  std::optional<std::vector<uint32_t>>& result = unroll_cache[key];
  // The value P's destination receives (as Machine::exec_ldst writes it).
  auto conv = [&](uint64_t v) {
    if (w.nk == interp::NumKind::S && w.size < 8) {
      const unsigned b = w.size * 8u;
      v &= (1ull << b) - 1;
      if (v >> (b - 1) & 1) v |= ~0ull << b;
    }
    return w.dwidth >= 64 ? v : v & ((1ull << w.dwidth) - 1);
  };
  auto equal = [&](const Walk& s, const interp::Inst& in) {
    return in.op == IrOp::Ld && !in.guarded && in.ndst == w.ndst && in.dst[0].kind == interp::Opnd::Reg &&
           in.dst[0].slot < nr && in.dst[1].kind == interp::Opnd::None && in.size == w.size && in.nk == w.nk &&
           in.dwidth == w.dwidth && in.order == w.order && in.scope == w.scope && in.flags == w.flags &&
           in.mode == w.mode && in.addr.space == w.addr.space && in.addr.base == w.addr.base &&
           in.addr.slot == w.addr.slot && in.addr.off == w.addr.off && in.addr.addr32 == w.addr.addr32 &&
           (in.addr.base != interp::Addr::Reg || !s.mod[in.addr.slot]);
  };
  // After poll `q` (at s.pc) read values[i]: the walk's state at q + 1.
  auto after = [&](Walk s, uint32_t i) {
    const uint32_t d = code[s.pc].dst[0].slot;
    s.known[d] = conv(values[i]);
    s.mod[d] = 1;
    ++s.pc;
    return s;
  };
  // (u1): each value's decided path from P; S's paths with the registers
  // written on them, F's first equal polls.
  std::vector<std::map<uint32_t, std::vector<char>>> path(values.size());
  std::vector<char> fails(values.size(), 0);
  std::vector<Walk> polls;
  for (uint32_t i = 0; i < values.size(); ++i) {
    Walk s = start;
    s.pc = pc0;
    s = after(s, i);
    for (int n = 0; n < 256 && s.pc >= begin && s.pc < end; ++n) {
      const interp::Inst& in = code[s.pc];
      if (equal(s, in)) {
        if (s.pc == pc0) return false;  // a loop: Hook::back_jump's
        fails[i] = 1;
        polls.push_back(s);
        break;
      }
      if (!path[i].emplace(s.pc, s.mod).second || !slots_ok(in)) break;
      if (in.op == IrOp::Bra) {
        const std::optional<bool> taken = runs(s, in);
        if (!taken) break;
        s.pc = *taken ? in.target : s.pc + 1;
        continue;
      }
      if (!reg_only(in)) break;
      compute(s, in);
      ++s.pc;
    }
  }
  if (polls.empty() || polls.size() == values.size()) return false;
  // (u2): every path from those polls, for every value.
  auto state_key = [&](const Walk& s) {
    std::vector<uint64_t> k{s.pc};
    for (auto [slot, v] : s.known) k.push_back(slot), k.push_back(v);
    k.push_back(~0ull);
    for (size_t j = 0; j < nr; j += 64) {
      uint64_t m = 0;
      for (size_t b = j; b < nr && b < j + 64; ++b) m |= uint64_t{s.mod[b] != 0} << (b - j);
      k.push_back(m);
    }
    return k;
  };
  std::set<std::vector<uint64_t>> seen;
  int budget = 1 << 16;
  while (!polls.empty()) {
    Walk q = std::move(polls.back());
    polls.pop_back();
    // Registers dead at the poll do not matter (their values; their
    // writes still count for the meeting points).
    if (const std::vector<char>* lq = live_at(func, q.pc); lq && lq->size() >= nr)
      std::erase_if(q.known, [&](const auto& e) { return !(*lq)[e.first]; });
    if (!seen.insert(state_key(q)).second) continue;
    if (q.pc == pc0) {  // P's start again
      bool same = true;
      for (size_t k = 0; k < nr && same; ++k) same = !((*live0)[k] && q.mod[k]);
      if (same) continue;
    }
    for (uint32_t i = 0; i < values.size(); ++i) {
      std::vector<Walk> work{after(q, i)};
      while (!work.empty()) {
        Walk s = std::move(work.back());
        work.pop_back();
        for (;;) {
          if (--budget < 0 || s.pc < begin || s.pc >= end) return false;
          if (auto it = path[i].find(s.pc); !fails[i] && it != path[i].end()) {
            const std::vector<char>* live = live_at(func, s.pc);
            if (!live || live->size() < nr) return false;
            for (size_t k = 0; k < nr; ++k)
              if ((*live)[k] && (s.mod[k] || it->second[k])) return false;
            break;  // met
          }
          const interp::Inst& in = code[s.pc];
          if (equal(s, in)) {
            polls.push_back(std::move(s));
            break;
          }
          if (!slots_ok(in)) return false;
          if (in.op == IrOp::Bra) {
            const std::optional<bool> taken = runs(s, in);
            if (!taken) {
              Walk j = s;
              j.pc = in.target;
              work.push_back(std::move(j));
              ++s.pc;
            } else {
              s.pc = *taken ? in.target : s.pc + 1;
            }
            continue;
          }
          if (!reg_only(in)) return false;
          compute(s, in);
          ++s.pc;
        }
      }
    }
  }
  std::vector<uint32_t> ok;
  for (uint32_t i = 0; i < values.size(); ++i)
    if (!fails[i]) ok.push_back(i);
  result = ok;
  cand = ok;
  return true;
}

}  // namespace ptxcheck::outcomes
