// The loop check of the outcomes ExecHook (hook_impl.hpp): a failed spin
// iteration that comes back to its loop head with nothing new is redundant
// and its path is dropped (docs/outcomes.md, "Spin loops"; the liveness it
// uses is loop_analysis.cpp).
#include "parser/diagnostic.hpp"
#include "semantics/outcomes/hook_impl.hpp"

namespace ptxcheck::outcomes {

using interp::Inst;
using interp::IrOp;

namespace {

constexpr uint64_t kQuietIterLimit = 1'000'000;
// Earlier arrivals at a loop head (with no side effect since) that back_jump
// compares a state with: polls of up to this many locations in turn.
constexpr size_t kArrivalHistory = 8;

// The register at slot k depends now on every read it depended on at the
// arrival (PTX ISA 8.10.4): then the path without the iteration has no
// dependency edge that this one lacks (back_jump).
bool covers(const std::vector<Deps>& now, const std::vector<Deps>& then, size_t k) {
  if (k >= then.size() || then[k].empty()) return true;
  return k < now.size() && std::includes(now[k].begin(), now[k].end(), then[k].begin(), then[k].end());
}

// The thread's own memory now is the same as `then` where it can matter:
// the bytes of the live frames (below the stack pointer) but those of the
// current frame that are dead at the loop head (`frame_live`, from its
// frame pointer; Shared::frame_live_at). The bytes above the stack pointer
// belong to no frame: a callee's frame starts undefined, and -O0 code
// leaves the values of the latest call there (Hook::ret_deps drops their
// dependencies).
bool same_local(const interp::Thread& t, const std::vector<uint8_t>& then, const std::vector<char>* frame_live) {
  const std::vector<uint8_t>& now = t.local.bytes;
  const uint64_t top = t.sp;
  if (now.size() < top || then.size() < top) return now == then;
  for (uint64_t b = 0; b < top; ++b) {
    if (now[b] == then[b]) continue;
    if (frame_live && b >= t.fp && b - t.fp < frame_live->size() && !(*frame_live)[b - t.fp]) continue;
    return false;
  }
  return true;
}

}  // namespace

interp::ExecHook::Jump Hook::back_jump(interp::Thread& t, const interp::Cta& c, uint32_t from, uint32_t to) {
  ThreadRec& r = rec(t, c);
  if (r.spin_li >= 0) return spin_jump(r, t, c);  // a blocking wait failed (hook_canon.cpp)
  auto it = r.arrivals.find(to);
  uint64_t quiet = 0;
  if (it == r.arrivals.end()) {
    // The first backward jump to this head. If the loop's code (from its
    // header, where it is entered, to `from` and back) can only read,
    // fence and compute registers dead at the header (Shared::pure_loop),
    // this failed iteration ends in the state it began in: redundant at
    // once, as below for a repeated state (without it the second iteration
    // would explore every value again first). Its reads of deterministic
    // memory make those locations communicating.
    if (sh_.pure_loop(t.func, to, from)) {
      bool promoted = false;
      for (size_t k = r.det_reads.size(); k-- > 0 && sh_.in_pure_loop(t.func, to, from, r.det_read_pcs[k]);) {
        sh_.promote(r.det_reads[k].first, r.det_reads[k].second, 0);
        promoted = true;
      }
      if (promoted) {
        restart = true;
        return Jump::Stop;
      }
      ++subsumed, ++r.subsumed;
      killed = true;
      r.killed = true;
      return Jump::Park;
    }
    // Otherwise the iteration began where the code fell into the loop, so
    // it made a choice if the latest choice lies in the loop's code
    // [to, from]; such a jump counts against the bound.
    if (r.choices > 0 && r.last_choice_pc >= to && r.last_choice_pc <= from && ++r.back[to] > sh_.opt->unroll) {
      ++cut;
      r.cut = true;
      return Jump::Park;
    }
  } else {
    ThreadRec::Arrival& a = it->second;
    // The same state at the head as at this arrival or one of the
    // kArrivalHistory before it (a loop that polls several locations in
    // turn comes back to a state after a few iterations, not one): no
    // write, fence or barrier since (side), the same frames and .local
    // bytes, and the same values in the registers live at the head (dead
    // ones cannot influence the rest). The iterations since are then
    // redundant together, by the argument below for one.
    const std::vector<char>* live = nullptr;
    const std::vector<char>* frame_live = nullptr;
    bool live_known = false, frame_known = false;
    auto same_as = [&](const ThreadRec::Arrival& x) {
      bool same = r.side == x.side && t.reg_base == x.reg_base && t.frames.size() == x.frames && t.fp == x.fp &&
                  t.sp == x.sp && t.regs.size() == x.regs.size();
      if (!same) return false;
      if (!frame_known) frame_live = sh_.frame_live_at(t.func, to), frame_known = true;
      if (!same_local(t, x.local, frame_live)) return false;
      if (!live_known) live = sh_.live_at(t.func, to), live_known = true;
      for (size_t k = 0; k < t.regs.size() && same; ++k) {
        bool cur = k >= t.reg_base && k - t.reg_base < (live ? live->size() : 0);
        if (!cur || (*live)[k - t.reg_base]) same = t.regs[k] == x.regs[k] && covers(r.rdeps, x.rdeps, k);
      }
      // Each .local byte too (its value is compared above) that may be
      // read before it is written again (Shared::frame_live_at: the .param
      // variables of -O0 call sequences hold the latest read's result).
      for (auto b = x.ldeps.begin(); b != x.ldeps.end() && same; ++b) {
        if (frame_live && b->first >= t.fp && b->first - t.fp < frame_live->size() && !(*frame_live)[b->first - t.fp])
          continue;
        auto now = r.ldeps.find(b->first);
        same = now != r.ldeps.end() &&
               std::includes(now->second.begin(), now->second.end(), b->second.begin(), b->second.end());
      }
      return same;
    };
    const ThreadRec::Arrival* hit = same_as(a) ? &a : nullptr;
    for (size_t k = 0; !hit && k < a.older.size(); ++k)
      if (same_as(a.older[k])) hit = &a.older[k];
    if (hit) {
      if (r.det_reads.size() > hit->det_reads) {
        // A spin on deterministic memory: only another thread can end it,
        // so the location communicates.
        for (size_t k = hit->det_reads; k < r.det_reads.size(); ++k)
          sh_.promote(r.det_reads[k].first, r.det_reads[k].second, 0);
        restart = true;
        return Jump::Stop;
      }
      if (r.comm_reads > hit->comm_reads) ++subsumed, ++r.subsumed;  // redundant spin iteration
      // (no reads at all: the thread never terminates.) The run is dropped,
      // but only this thread stops: the others run on, so that the writes
      // they make later in the machine's schedule (the ones that can end
      // the spin) still reach the value sets.
      killed = true;
      r.killed = true;
      return Jump::Park;
    }
    if (r.choices > a.choices) {
      if (++r.back[to] > sh_.opt->unroll) {
        ++cut;
        r.cut = true;
        return Jump::Park;
      }
    } else {
      quiet = a.quiet_iters + 1;
      if (quiet > kQuietIterLimit) {
        if (r.det_reads.size() > a.det_reads) {
          for (size_t k = a.det_reads; k < r.det_reads.size(); ++k)
            sh_.promote(r.det_reads[k].first, r.det_reads[k].second, 0);
          restart = true;
          return Jump::Stop;
        }
        throw LimitError("a loop at PTX line " +
                         std::to_string(t.pc < sh_.prog->code.size() ? sh_.prog->code[t.pc].line : 0) +
                         " ran more than " + std::to_string(kQuietIterLimit) + " iterations without a choice");
      }
    }
  }
  ThreadRec::Arrival& a = r.arrivals[to];
  // Keep the states of the earlier iterations while nothing with a side
  // effect ran (side only grows: an older state cannot match after one).
  if (it != r.arrivals.end() && a.side == r.side) {
    ThreadRec::Arrival prev = std::move(a);
    std::vector<ThreadRec::Arrival> older = std::move(prev.older);
    prev.older.clear();
    older.insert(older.begin(), std::move(prev));
    if (older.size() > kArrivalHistory) older.pop_back();
    a.older = std::move(older);
  } else {
    a.older.clear();
  }
  a.regs = t.regs;
  a.local = t.local.bytes;
  a.reg_base = t.reg_base;
  a.fp = t.fp;
  a.sp = t.sp;
  a.frames = t.frames.size();
  a.side = r.side;
  a.comm_reads = r.comm_reads;
  a.choices = r.choices;
  a.det_reads = r.det_reads.size();
  a.quiet_iters = quiet;
  a.rdeps = r.rdeps;
  a.ldeps = r.ldeps;
  return Jump::Continue;
}

}  // namespace ptxcheck::outcomes
