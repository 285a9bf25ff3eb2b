// Rounds of a grid counter (hook_grid.cpp (g7)): the updates of a grid
// counter x run in the machine's order, no choice of order, when every
// value they return and every value a poll of x reads is used only through
// its top bit, as cooperative_groups' grid.sync() uses them: thread 0 of
// each CTA adds 1, CTA 0's adds 0x80000000 - (n - 1), and each polls until
// bit 31 of the value differs from bit 31 of what its own update returned
// (`(old ^ cur) & 0x80000000`). Each order of the updates was one path
// (hook_chain.cpp), n!^k paths for k rounds of n CTAs: probe9i's i19
// (grid.sync twice, 4 CTAs of 32 threads) ran over 60 s.
//
// Conditions on a run R (checked; one that breaks turns the rule off for x,
// CommLoc::grid_round, and the exploration restarts; a grid counter of
// global memory whose writes are all updates):
//  (r0) every read of x is an update's or a poll's (Hook::read): another
//       load would choose among the values of the machine's order only,
//       and other orders have other partial sums (grid_arrpeek_3 in
//       tests/corpus/grid reads 1 when CTA 1 adds first);
//  (r1) every write of x is an atom or red .add of one 32- or 64-bit
//       integer (w bits; "top bit": bit w - 1);
//  (r2) tokens: the register an update of x returns (unless dead) and the
//       one a poll of x loads are used, from then on, only through their top
//       bits: by mov, and, or, xor and not (the top bit of the result a
//       function of the top bits of the sources and of other registers),
//       and by integer setp against a value that is no token, whose result
//       is the same for every value the token's unknown bits allow (round_step
//       follows the bits that may differ, unknown_bits; anything else breaks);
//  (r3) each thread's updates of x and its successful polls alternate
//       (update, successful poll, update, ...), and a thread polls x only
//       after an update of its own that no successful poll has followed: its
//       i-th update is in round i;
//  (r4) in the machine's chain every update of round i comes before every
//       update of round i + 1 (round i: the block of positions
//       B_{i-1} + 1 .. B_i);
//  (r5) with s_i the value at B_{i-1} and D_i the increments of round i, for
//       every proper sub-multiset S of D_i the top bit of s_i + sum(S) is
//       that of s_i (round_check; cooperative_groups: s_i has bits 0-30
//       zero and every proper subset sums below 2^31);
//  (r6) a poll by thread T after its update at position a fails (its loop
//       goes back) for every value whose top bit is that of the value at
//       a - 1 (the value T's update read), whatever its other bits and the
//       unknown bits of T's tokens (Hook::poll_fails, run on the bits (r2)
//       lets differ).
//  (r7) no add is an acquire (.acquire, .acq_rel, .sc) and no fence runs
//       between a thread's add and its successful poll (round_fence): the
//       add's read observes the updates before it in the chain, another
//       subset of its round in another order, so an acquire pattern ending
//       there (8.8 forms 1 and 3) would synchronize differently in X' than
//       in X (grid_arracq_2 in tests/corpus/grid: an .acq_rel add and a
//       relaxed poll, 3 states, one lost without (r7)). A pattern ending at
//       the poll or after it covers rounds <= i in X and X' alike.
// Then the poll of round i reads the write at B_i, the first position from
// a whose top bit differs, as soon as it has run (no choice, no wait), and
// before that waits for the next write; its event reads B_i and it
// synchronizes ((g4)) with the release patterns of positions 1 .. B_i.
//
// Lemma: take a consistent execution X of the events of R up to each
// thread's first value whose top bit differs from R's. X's chain of x (the
// updates are pairwise morally strong, .gpu atomics, 8.7, so coherence
// orders them all, 8.9.6, each reading its predecessor, 8.10.3) holds in
// each block B_{i-1} + 1 .. B_i exactly R's round i. Else take the first
// position q holding an update U of another round: by minimality U belongs
// to a round i' > i, so U is T's i'-th update and T's successful poll P of
// round i' - 1 and its update A of that round come before U in program
// order. A precedes U in the chain (8.10.5: program order and coherence of
// morally strong operations agree), so A lies in block i below q and
// i' = i + 1. P reads a write W at a position p from A's (reading an
// earlier one would close a cycle A -po-> P -fr-> A, 8.10.5) to below q
// (U po-after P: W after U would close U -co-> W -rf-> P -po-> U). So W's
// value is s_i plus a proper sub-multiset of D_i (U is missing): by (r5) its
// top bit is s_i's, as is that of the value A read; by (r2) and (r6) P's
// loop goes back: P is not successful, a contradiction. So in X every
// update reads a value whose top bit is that of R's update at the same
// position (again (r5)), and a successful poll of round i reads at or after
// B_i (between A and B_i it fails, (r6)), where the top bits are R's.
// Claim: for each such X (of any run that chooses the order, as
// hook_chain.cpp does, with R's other choices) the run R has a consistent
// execution X' with the same final state and the same races or more: the
// same events, the chain in R's order, each successful poll reading B_i
// (failed polls are redundant: docs/outcomes.md "Spin loops"). The threads
// use the values only through the top bits, which are the same (lemma), so
// they run the same instructions with the same other values; the engine
// checks X' on the values of R. Synchronization: a poll reading B_i observes
// (8.9.2) exactly the updates of rounds <= i in X' and at least those in X,
// so every synchronizes-with edge of X' (8.9.4 item 4) is one of X, causality
// order of X' is contained in X's (8.9.5), and every axiom that forbids a
// cycle or asks an inclusion holds on the other locations as in X (8.10.1,
// 8.10.2, 8.10.6), with every race of X (fewer causality edges). On x: the
// chain is a total coherence order (8.9.6) containing causality between
// writes (8.10.1): a causality path from an update of round i + 1 to one of
// round <= i in X' is one in X, where the blocks order them the other way,
// contradicting 8.10.1 in X; a poll P of round i reading B_i: no write after
// B_i precedes P in causality (8.10.6 item 2), as such a path enters P's
// thread before its update A (the failed polls between are dropped, and P
// synchronizes only with rounds <= i), so the write precedes A in causality
// and in coherence in X (8.10.1), against the blocks; P precedes no write of
// rounds <= i in causality (8.10.6 item 1): B_i precedes P in observation
// order (8.9.2) in X too, so P -> B_j in base causality would give B_j
// before itself in causality order (8.9.5 item 2), so in coherence order
// (8.10.1), which 8.9.6 excludes. 8.10.3 and 8.10.5 hold on the chain by
// construction. Every state and race of X is one of X'.
// PTXCHECK_OUTCOMES_NO_GRID_ROUND=1 turns (g7) off
// (tests/corpus/outcomes_grid.py compares).
#include <algorithm>

#include "semantics/arith/fast.hpp"
#include "semantics/outcomes/hook_impl.hpp"

namespace ptxcheck::outcomes {

using interp::HookAccess;
using interp::Inst;
using interp::IrOp;
using interp::Opnd;
namespace fast = arith::fast;

namespace {

uint64_t mask_of(uint32_t bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

bool top_bit(uint64_t v, uint32_t w) { return (v >> (w - 1)) & 1; }

}  // namespace

std::optional<uint64_t> unknown_bits(const Inst& in, const uint64_t* s, const uint64_t* u) {
  for (unsigned k = 0; k < 4; ++k)
    if (u[k] && in.src[k].negate) return std::nullopt;  // !x: whether x is 0
  if (in.op == IrOp::Mov) return u[0] & mask_of(in.dwidth);
  if (in.op != IrOp::Arith || in.ndst > 2) return std::nullopt;
  const fast::Form f = fast::form_of(in.fn);
  const uint64_t m = mask_of(f.w);
  switch (f.op) {
    case fast::Op::not_: return u[0] & m;
    case fast::Op::xor_: return (u[0] | u[1]) & m;
    case fast::Op::and_:  // a known 0 bit of either source is a known 0
      return ((u[0] & (s[1] | u[1])) | (u[1] & (s[0] | u[0]))) & m;
    case fast::Op::or_:  // a known 1 bit of either source is a known 1
      return ((u[0] & ~(s[1] & ~u[1])) | (u[1] & ~(s[0] & ~u[0]))) & m;
    case fast::Op::setp: {
      // One token, the bits below its top bit unknown (an interval in signed
      // and unsigned order): the relation to the other source is the same on
      // each of the segments below, at and above it, so the result is one
      // value when it is at the interval's ends and next to the other source.
      if ((u[0] != 0) == (u[1] != 0) || in.nsrc != 2) return std::nullopt;
      const unsigned k = u[0] ? 0 : 1;
      const uint64_t uk = u[k] & m;
      if ((uk & (uk + 1)) != 0 || top_bit(uk, f.w)) return std::nullopt;
      const uint64_t lo = s[k] & m & ~uk, hi = lo | uk, c = s[1 - k] & m;
      uint64_t t[4] = {s[0], s[1], s[2], s[3]}, ref = 0, ref_aux = 0;
      bool first = true;
      for (uint64_t x : {lo, hi, (c - 1) & m, c, (c + 1) & m}) {
        if (x < lo || x > hi) continue;
        t[k] = x;
        uint64_t aux = 0;
        const uint64_t y = in.fn.fn(t, &aux, in.fn.cfg);
        if (!first && (y != ref || aux != ref_aux)) return std::nullopt;
        ref = y, ref_aux = aux, first = false;
      }
      return 0;
    }
    default: return std::nullopt;
  }
}

bool Hook::round_on(int li) const {
  const CommLoc& l = sh_.locs[static_cast<size_t>(li)];
  return !sh_.no_grid_round && l.grid_round && grid_on(li) && (l.key & interp::kHookSharedKey) == 0 && !l.gw_plain;
}

bool Hook::round_break(int li) {
  sh_.locs[static_cast<size_t>(li)].grid_round = false;
  restart = true;
  return false;
}

bool Hook::round_write(ThreadRec& r, const interp::Thread& t, const HookAccess& a, int li, uint64_t v) {
  const Inst& in = *a.in;
  const bool add = (in.op == IrOp::Atom || in.op == IrOp::Red) && in.atom == arith::AtomOp::Add &&
                   (a.size == 4 || a.size == 8) &&
                   (in.ety == arith::Ty::u32 || in.ety == arith::Ty::s32 || in.ety == arith::Ty::b32 ||
                    in.ety == arith::Ty::u64 || in.ety == arith::Ty::s64 || in.ety == arith::Ty::b64);
  if (!add) return round_break(li);  // (r1)
  if (in.order == mm::Order::Acquire || in.order == mm::Order::AcqRel || in.order == mm::Order::SC)
    return round_break(li);  // (r7)
  const uint32_t w = a.size * 8u;
  const GridRun& g = grid_[li];
  RoundRun& rr = round_[li];
  RoundRun::Thread& th = rr.threads[t.gid];
  if (th.n > 0 && !th.done) return round_break(li);  // (r3)
  const uint32_t round = th.n + 1;
  if (!rr.round.empty() && rr.round.back() > round) return round_break(li);  // (r4)
  const uint64_t prev = g.vals.empty() ? sh_.locs[static_cast<size_t>(li)].init : g.vals.back();
  rr.round.push_back(round);
  rr.inc.push_back((v - prev) & mask_of(w));
  rr.w = w;
  th.n = round;
  th.pos = static_cast<uint32_t>(g.vals.size()) + 1;
  th.done = false;
  // (r2): the returned value, unless dead.
  if (in.dst[0].kind == Opnd::Reg) {
    const uint32_t pc = static_cast<uint32_t>(a.in - sh_.prog->code.data());
    const std::vector<char>* live = sh_.live_at(t.func, pc + 1);
    if (!live || in.dst[0].slot >= live->size() || (*live)[in.dst[0].slot]) round_token(r, t, in, li, w);
  }
  return true;
}

void Hook::round_token(ThreadRec& r, const interp::Thread& t, const Inst& in, int li, uint32_t w) {
  if (r.round_tok.empty()) ++round_toks_;
  r.round_tok.push_back({t.reg_base + in.dst[0].slot, li, mask_of(w - 1)});
}

int64_t Hook::round_poll(ThreadRec& r, const interp::Thread& t, uint32_t pc, int li, uint32_t n) {
  RoundRun& rr = round_[li];
  auto it = rr.threads.find(t.gid);
  if (it == rr.threads.end() || it->second.done) return round_break(li), -1;  // (r3)
  const GridRun& g = grid_[li];
  const uint64_t init = sh_.locs[static_cast<size_t>(li)].init;
  auto val = [&](uint32_t q) { return q == 0 ? init : g.vals[q - 1]; };
  const uint32_t a = it->second.pos, w = rr.w;
  const bool b = top_bit(val(a - 1), w);
  // (r6): every value with that top bit fails, whatever the unknown bits.
  if (!poll_fails(t, pc, val(a - 1), mask_of(w - 1), &r.round_tok)) return round_break(li), -1;
  for (uint32_t q = a; q <= n; ++q)
    if (top_bit(val(q), w) != b) return q;
  return 0;  // B_i has not run: wait for the next write
}

void Hook::round_flush(int li, uint32_t gid) {
  if (!round_on(li)) return;
  auto it = round_[li].threads.find(gid);
  if (it != round_[li].threads.end()) it->second.done = true;
}

void Hook::round_fence(const ThreadRec& r) {
  // (r7): a fence between the thread's add and its successful poll.
  for (auto& [li, rr] : round_)
    if (auto it = rr.threads.find(r.t->gid); it != rr.threads.end() && !it->second.done && round_on(li))
      round_break(li);
}

void Hook::round_step(interp::Thread* lanes, const Inst& in, uint32_t exec) {
  for (uint32_t b = exec; b; b &= b - 1) {
    interp::Thread& t = lanes[std::countr_zero(b)];
    if (t.gid >= th.size() || th[t.gid].round_tok.empty()) continue;
    ThreadRec& r = th[t.gid];
    std::vector<ThreadRec::RoundTok>& toks = r.round_tok;
    auto find = [&](uint32_t slot) -> const ThreadRec::RoundTok* {
      for (const ThreadRec::RoundTok& k : toks)
        if (k.slot == t.reg_base + slot) return &k;
      return nullptr;
    };
    auto breaks = [&]() {
      for (const ThreadRec::RoundTok& k : toks) round_break(k.li);
      toks.clear();
    };
    const bool call = in.op == IrOp::Call && !in.guarded && in.target < sh_.prog->calls.size();
    const bool ret = in.op == IrOp::Ret && !in.guarded && !t.frames.empty();
    if ((in.op == IrOp::Ret && t.frames.empty()) || in.op == IrOp::Exit) {
      toks.clear();
    } else if (call) {
      // A call passes no token (its register arguments; a .param argument
      // is stored, another use); the callee cannot read the caller's
      // registers, and those that receive its results lose their tokens.
      const interp::CallSite& cs = sh_.prog->calls[in.target];
      bool passes = false;
      for (const interp::CallArg& x : cs.args)
        passes = passes || (!x.in_frame && x.value.kind == Opnd::Reg && find(x.value.slot));
      if (passes) breaks();
      for (const interp::CallArg& x : cs.rets)
        if (!x.in_frame && x.value.kind == Opnd::Reg)
          std::erase_if(toks, [&](const ThreadRec::RoundTok& k) { return k.slot == t.reg_base + x.value.slot; });
    } else if (ret) {
      // A return passes no token in a register result; the callee's
      // registers (from reg_base on) go away.
      bool passes = false;
      for (const interp::Formal& fm : sh_.prog->funcs[t.func].rets) passes = passes || (fm.is_reg && find(fm.slot));
      if (passes) breaks();
      std::erase_if(toks, [&](const ThreadRec::RoundTok& k) { return k.slot >= t.reg_base; });
    } else if (in.op == IrOp::Call || in.op == IrOp::Ret || in.op == IrOp::Mma || in.op == IrOp::Tensor ||
               in.op == IrOp::Tex || in.op == IrOp::Unsupported || in.wg_reg) {
      breaks();
    } else {
      bool uses = false, other = false;  // reads a token; as an address or guard
      uint64_t s[4] = {0, 0, 0, 0}, u[4] = {0, 0, 0, 0};
      int li = -1;
      for (unsigned k = 0; k < in.nsrc && k < 4; ++k) {
        const Opnd& o = in.src[k];
        if (o.kind == Opnd::Imm) s[k] = o.imm;
        if (o.kind != Opnd::Reg) continue;
        s[k] = t.regs[t.reg_base + o.slot];
        if (o.negate) s[k] = !s[k];
        if (const ThreadRec::RoundTok* x = find(o.slot)) uses = true, u[k] = x->unk, li = x->li;
      }
      if (in.op == IrOp::Mov && in.src[0].kind == Opnd::Reg)
        if (const ThreadRec::RoundTok* x = find(in.src[0].slot)) uses = true, u[0] = x->unk, li = x->li;
      if (in.addr.base == interp::Addr::Reg && find(in.addr.slot)) other = true;
      if (in.addr2.base == interp::Addr::Reg && find(in.addr2.slot)) other = true;
      if (in.guarded && find(in.guard)) other = true;
      std::optional<uint64_t> du = 0;
      if (uses) du = unknown_bits(in, s, u);
      if (other || !du) {
        breaks();
      } else {
        // A register this instruction writes holds a token only if it
        // computes one (a guarded write may keep the old token too).
        if (!in.guarded)
          for (unsigned k = 0; k < in.ndst && k < 4; ++k)
            if (in.dst[k].kind == Opnd::Reg)
              std::erase_if(toks, [&](const ThreadRec::RoundTok& x) { return x.slot == t.reg_base + in.dst[k].slot; });
        if (*du != 0 && in.dst[0].kind == Opnd::Reg) toks.push_back({t.reg_base + in.dst[0].slot, li, *du});
      }
    }
    if (toks.empty()) --round_toks_;
  }
}

bool Hook::round_check() {
  // (r5): per round, every proper sub-multiset of its increments keeps the
  // top bit of the value before it. The multisets are enumerated by their
  // counts of each distinct increment (cooperative_groups: 2n of them).
  for (auto& [li, rr] : round_) {
    if (!round_on(li) || rr.round.empty()) continue;
    const uint64_t init = sh_.locs[static_cast<size_t>(li)].init;
    const GridRun& g = grid_[li];
    const uint64_t m = mask_of(rr.w);
    for (size_t i = 0; i < rr.round.size();) {
      size_t j = i;
      std::map<uint64_t, uint32_t> mult;
      while (j < rr.round.size() && rr.round[j] == rr.round[i]) ++mult[rr.inc[j++]];
      const uint64_t s = i == 0 ? init : g.vals[i - 1];
      std::vector<std::pair<uint64_t, uint32_t>> d(mult.begin(), mult.end());
      uint64_t combos = 1;
      for (auto [x, k] : d) combos *= k + 1u;
      if (combos > 4096) return round_break(li);
      std::vector<uint32_t> cnt(d.size(), 0);
      for (uint64_t c = 0; c + 1 < combos; ++c) {  // every count vector but the full one (the last)
        uint64_t sum = s;
        for (size_t e = 0; e < d.size(); ++e) sum += d[e].first * cnt[e];
        if (top_bit(sum & m, rr.w) != top_bit(s & m, rr.w)) return round_break(li);
        for (size_t e = 0; e < d.size() && ++cnt[e] > d[e].second; ++e) cnt[e] = 0;
      }
      i = j;
    }
  }
  return true;
}

}  // namespace ptxcheck::outcomes
