// CTA/cluster scheduling, thread exit and diagnostics (barrier completion:
// machine_barrier.cpp; launch checks and memory set-up: machine_setup.cpp;
// calls: machine_call.cpp).
#include <chrono>
#include <cstring>

#include "semantics/interp/device_heap.hpp"
#include "semantics/interp/exec_util.hpp"
#include "semantics/interp/machine_state.hpp"
#include "semantics/interp/mma.hpp"
#include "semantics/interp/spin.hpp"

namespace ptxcheck::interp {

namespace {
constexpr uint32_t kQuantum = 4096;

// Sets the n bytes at p to zero; a local frame of 16 bytes (a kernel without
// local variables) with two inline stores, not a memset call, at each thread
// of every CTA.
inline void zero_frame(uint8_t* p, size_t n) {
  if (n == 16)
    std::memset(p, 0, 16);
  else
    std::memset(p, 0, n);
}

// A CTA's threads T[0, n) as they start kernel kf (function index kernel):
// Ready at its entry, %tid from the block shape, global numbers from gid
// on (returned: the next one), registers and local frame zeroed (a pool
// thread's vectors keep their capacity, and mostly their size: the same
// kernel). Out of line, so that its loop is compiled apart from the
// scheduler's.
__attribute__((noinline)) uint32_t setup_threads(Thread* T, uint32_t n, const Function& kf, uint32_t kernel,
                                                 const std::array<uint32_t, 3>& block, uint32_t gid, bool reset_sync) {
  const size_t nregs = kf.nregs, nlocal = size_t{kf.frame_bytes} + 16;
  const uint32_t entry = kf.entry_pc, sp0 = kf.frame_bytes, bx = block[0], by = block[1];
  uint32_t tx = 0, ty = 0, tz = 0;  // %tid of thread i
  for (uint32_t i = 0; i < n; ++i) {
    Thread& t = T[i];
    t.st = TState::Ready;
    t.frames.clear();
    t.reg_base = 0;
    t.fp = 0;
    t.bar_red_pending = false;
    t.cl_phase = 0;
    if (!t.wg_ops.empty()) t.wg_ops.clear();
    if (!t.cp_ops.empty()) t.cp_ops.clear();
    t.cp_commits = 0;
    t.bulk_commits = 0;
    t.wg_busy.clear();
    t.lin = i;
    t.tid = {tx, ty, tz};
    if (++tx == bx && (tx = 0, ++ty == by)) ty = 0, ++tz;
    if (t.regs.size() != nregs) t.regs.resize(nregs);
    if (nregs) std::memset(t.regs.data(), 0, nregs * sizeof(uint64_t));
    t.pc = entry;
    t.func = kernel;
    if (t.local.bytes.size() != nlocal) {
      if (t.local.name.empty()) t.local.name = "local";  // a thread new to the pool (the name stays)
      t.local.bytes.resize(nlocal);
      t.local.init.resize(nlocal);
    }
    zero_frame(t.local.bytes.data(), nlocal);
    zero_frame(t.local.init.data(), nlocal);
    t.sp = sp0;
    t.gid = gid++;
    // With race detection off the clocks are never written: they stay as
    // the pool thread was built.
    if (reset_sync) t.sync.reset();
  }
  return gid;
}

// The group of a diverged warp becomes its Ready lanes at the least PC above
// the running group's (the round-robin in run_cluster); false if there are
// none. The next step() runs it without a re-pick (rest_ok, rest_pc ~0u).
static bool yield_to_next(Warp& w, Thread* T) {
  uint32_t best = ~0u, grp = 0;
  for (uint32_t l = 0; l < w.nlanes; ++l) {
    if (T[l].st != TState::Ready || T[l].pc <= w.pc) continue;
    if (T[l].pc < best)
      best = T[l].pc, grp = 1u << l;
    else if (T[l].pc == best)
      grp |= 1u << l;
  }
  if (!grp) return false;
  if (w.rp_dirty) {  // as step()'s pick: a call/ret moved some lane's frame
    for (uint32_t l = 0; l < w.nlanes; ++l) w.rp[l] = T[l].regs.data() + T[l].reg_base;
    w.rp_dirty = false;
  }
  w.pc = best;
  w.group = grp;
  w.rest_pc = ~0u;
  w.rest_ok = true;
  return true;
}

// The instruction step(w) executes next: the group PC, or the least PC of
// the runnable lanes (as step() picks it); false if no lane can run.
bool next_pc(const Warp& w, const Thread* T, uint32_t& pc) {
  if (w.conv) {
    pc = w.pc;
    return true;
  }
  pc = ~0u;
  for (uint32_t l = 0; l < w.nlanes; ++l)
    if (T[l].st == TState::Ready) pc = std::min(pc, T[l].pc);
  return pc != ~0u;
}

// Rounds of a cluster before spin detection starts (a short kernel never
// pays for it; a spin costs about this many rounds more before it is seen).
constexpr uint64_t kSpinArm = 16;
// A warp's poll check (run_cluster): after this many steps of its quantum,
// over at most kPollJumps backward jumps, each within kPollSpan steps.
constexpr uint32_t kPollCheck = 64, kPollJumps = 4, kPollSpan = 512;

}  // namespace

bool reachable_functions(const Program& p, std::vector<FuncRange>& out) {
  std::vector<uint32_t> starts;  // every defined function's first code index
  for (const Function& f : p.funcs)
    if (f.defined) starts.push_back(f.entry_pc);
  starts.push_back(static_cast<uint32_t>(p.code.size()));
  std::sort(starts.begin(), starts.end());
  std::vector<uint8_t> seen(p.funcs.size(), 0);
  out.clear();
  seen[p.kernel] = 1;
  std::vector<uint32_t> todo{p.kernel};
  for (size_t k = 0; k < todo.size(); ++k) {
    const Function& f = p.funcs[todo[k]];
    if (!f.defined) continue;
    const uint32_t end = *std::upper_bound(starts.begin(), starts.end(), f.entry_pc);
    out.push_back({todo[k], f.entry_pc, end});
    for (uint32_t pc = f.entry_pc; pc < end; ++pc) {
      if (p.code[pc].op != IrOp::Call) continue;
      const CallSite& cs = p.calls[p.code[pc].target];
      if (cs.callee >= p.funcs.size()) return false;
      if (!seen[cs.callee]) seen[cs.callee] = 1, todo.push_back(cs.callee);
    }
  }
  return true;
}

Machine::~Machine() {
  if (ws_added_) mem.remove_global(grid_ws_);
}

Machine::Machine(const Program& p, const LaunchSpec& s, const RunOptions& o, RunResult& r, LaunchImage* image)
    : prog(p), spec(s), opt(o), res(r), image_(image), mem(image && image->mem ? *image->mem : own_mem_) {
  races.enabled = o.check_races && !o.hook;
  step_limit_ = o.max_steps;
  textures_ = o.textures;
  hook_ = o.hook;
  step_hook_ = o.hook && o.hook->wants_steps() ? o.hook : nullptr;
  // Async-proxy checks only when the kernel or a function it calls has
  // async-proxy operations (the only ones that set async_proxy_); the
  // program holds every function of the module (an indirect call: all).
  auto async_op = [&](const Inst& in) {
    return in.op == IrOp::Tensor || in.op == IrOp::BulkCopy ||
           (in.op == IrOp::Mma && p.mma[in.target]->op == MatOp::Wgmma);
  };
  std::vector<FuncRange> reach;
  if (reachable_functions(p, reach)) {
    for (const FuncRange& f : reach)
      for (uint32_t pc = f.begin; pc < f.end && !proxy_on_; ++pc) proxy_on_ = async_op(p.code[pc]);
  } else {
    for (const Inst& in : p.code) proxy_on_ = proxy_on_ || async_op(in);
  }
}

HookAccess Machine::hook_access(const Inst& in, HookKind k, const Where& wh, const Cta& c, uint64_t byte_off,
                                unsigned size) const {
  HookAccess a;
  a.in = &in;
  a.kind = k;
  a.space = wh.space;
  a.size = size;
  if (wh.space == Space::Global) {
    a.key = wh.region->base + wh.off + byte_off;
  } else {
    const Cta& owner =
        wh.cta >= 0 && static_cast<size_t>(wh.cta) < ctas.size() ? *ctas[static_cast<size_t>(wh.cta)] : c;
    a.owner_cta = static_cast<int>(owner.uid);
    a.key = kHookSharedKey | (uint64_t{owner.uid} << 32) | (wh.region->base + wh.off + byte_off);
  }
  return a;
}

void Machine::diag(DiagKind kind, bool error, const Cta& c, const Thread& t, const Inst& at, const std::string& msg) {
  auto key = std::make_tuple(kind, at.line, at.col);
  auto it = seen_.find(key);
  if (it != seen_.end()) {
    ++res.diagnostics[it->second].count;
    return;
  }
  Diagnostic d;
  d.kind = diag_kind_name(kind);
  d.severity = error ? "error" : "warning";
  d.kernel = spec.kernel;
  d.cta = c.id;
  d.thread = t.tid;
  d.file = prog.file;
  d.line = at.line;
  d.col = at.col;
  d.message = msg;
  seen_[key] = res.diagnostics.size();
  res.diagnostics.push_back(std::move(d));
  if (error) res.ok = false;
}

void Machine::unconverge(Warp& w) {
  if (!w.conv) return;
  for (uint32_t b = w.group; b; b &= b - 1) w.cta->threads[w.first + static_cast<uint32_t>(__builtin_ctz(b))].pc = w.pc;
  w.conv = false;
}

void Machine::ensure_local(Thread& t, uint32_t bytes) {
  if (t.local.bytes.size() < bytes) {
    size_t n = std::max<size_t>(bytes, t.local.bytes.size() * 2);
    t.local.bytes.resize(n, 0);
    t.local.init.resize(n, 0);
  }
}

void Machine::thread_exit(Cta& c, Thread& t) {
  // The copies still in flight complete after the thread's last operation
  // (the spec says nothing of a thread that exits without waiting: they
  // stay ordered before nothing, exec_async.cpp).
  if (!t.cp_ops.empty()) cp_complete(c.warps[t.lin / 32], t, ~0u, false, CpWhich::All);
  t.st = TState::Exited;
  ++c.exited;
  progress();
  if (t.gid < races.exit_gen.size()) races.exit_gen[t.gid] = c.full_gen;
  if (hook_) hook_->exited(t, c);
  // Lanes waiting for this one at a warp collective retry without it.
  Warp& w = c.warps[t.lin / 32];
  for (uint32_t l = 0; l < w.nlanes; ++l) {
    Thread& o = c.threads[w.first + l];
    if (o.st == TState::WarpWait) {
      unconverge(w);
      o.st = TState::Ready;
    }
  }
  for (uint32_t id = 0; id < 16; ++id)
    if (c.bars[id].arrived) check_barrier(c, id);
  if (cluster_arrived) check_cluster_barrier();
}

void Machine::run_cluster(const std::vector<std::array<uint32_t, 3>>& ids, const std::array<uint32_t, 3>& cid) {
  // Finished CTAs go back to a pool: their vectors keep their capacity, so a
  // large grid does not allocate per thread.
  for (auto& c : ctas) {
    // The next CTA's shared memory (its reserved part too) starts afresh: no
    // race history, generic-proxy write history or mbarrier transaction
    // counts of the CTA before.
    for (const Region* sh : {c->shared.get(), c->reserved.get()}) {
      races.forget(sh);
      gwrites_.erase(sh);
      for (auto it = txcount_.lower_bound({sh, 0}); it != txcount_.end() && it->first.first == sh;)
        it = txcount_.erase(it);
    }
    pool_.push_back(std::move(c));
  }
  ctas.clear();
  cluster_shared.clear();
  cluster_arrived = 0;
  cluster_rels.clear();
  cluster_done[0].reset();
  cluster_done[1].reset();
  const Function& kf = prog.funcs[prog.kernel];
  uint32_t nthreads = spec.block[0] * spec.block[1] * spec.block[2];
  uint32_t shared_bytes = prog.static_shared_bytes + spec.dynamic_shared_bytes;
  for (uint32_t r = 0; r < ids.size(); ++r) {
    std::unique_ptr<Cta> c;
    if (pool_.empty()) {
      c = std::make_unique<Cta>();
      c->shared = std::make_unique<Region>();
      c->reserved = std::make_unique<Region>();
      c->reserved->name = "shared (reserved)";
      c->reserved->base = kReservedSmemBegin;  // its offset in the shared window
    } else {
      c = std::move(pool_.back());
      pool_.pop_back();
    }
    c->warps.clear();
    for (auto& b : c->bars) b = BarrierState{};
    c->exited = 0;
    c->bar_generation = 0;
    c->wg_arrive.clear();
    c->full_gen = 0;
    c->first_gid = next_gid_;
    c->id = ids[r];
    c->cluster_id = cid;
    c->rank = coop_ ? 0 : r;  // a cooperative launch: one-CTA clusters
    c->slot = r;
    if (coop_) c->cluster_id = ids[r];
    for (int d = 0; d < 3; ++d) c->cluster_ctaid[d] = ids[r][d] % cl_[d];
    if (c->shared->name.empty()) c->shared->name = "shared";
    c->shared->bytes.assign(shared_bytes, 0);
    c->shared->init.assign(shared_bytes, 0);
    c->reserved->bytes.assign(kReservedSmemBytes, 0);  // zeroed, initialised (memory.hpp)
    uint32_t cta_uid =
        static_cast<uint32_t>((uint64_t{ids[r][2]} * spec.grid[1] + ids[r][1]) * spec.grid[0] + ids[r][0]);
    c->threads.resize(nthreads);
    next_gid_ = setup_threads(c->threads.data(), nthreads, kf, prog.kernel, spec.block, next_gid_, races.enabled);
    c->uid = cta_uid;
    c->cluster_uid = coop_ || r == 0 ? cta_uid : ctas.front()->uid;
    c->own_shared.assign(1, c->shared.get());
    for (uint32_t wi = 0; wi * 32 < nthreads; ++wi) {
      Warp w;
      w.cta = c.get();
      w.first = wi * 32;
      w.nlanes = std::min(32u, nthreads - wi * 32);
      w.index = wi;
      w.gwarp = next_gwarp_++;
      c->warps.push_back(w);
    }
    cluster_shared.push_back(c->shared.get());
    ctas.push_back(std::move(c));
  }
  if (races.enabled) {
    if (races.exit_gen.size() < next_gid_) races.exit_gen.resize(next_gid_, ~0u);
    for (auto& c : ctas) {
      if (c->uid < races.cluster_of.size()) races.cluster_of[c->uid] = c->cluster_uid;
      if (!par_) races.run_cta.push_back(c->uid);  // c->first_gid / nthreads (a worker's is the identity)
    }
  }
  // Round-robin over every warp of the cluster. Spin detection (SpinWatch)
  // is off under an ExecHook (ptxcheck outcomes parks spins itself).
  SpinWatch spin;
  // A warp's own state (polls below): its lanes' states, PCs, registers,
  // frames and .local bytes.
  std::vector<uint64_t> poll_a, poll_b;
  auto warp_state = [](const Warp& w, std::vector<uint64_t>& out) {
    out.clear();
    const Thread* T = &w.cta->threads[w.first];
    out.push_back(w.conv ? uint64_t{w.pc} << 32 | w.group : ~uint64_t{0});
    for (uint32_t l = 0; l < w.nlanes; ++l) {
      const Thread& t = T[l];
      out.push_back(uint64_t{t.pc} << 8 | static_cast<uint64_t>(t.st));
      if (t.st != TState::Ready && t.st != TState::WarpWait) continue;
      out.push_back(uint64_t{t.func} << 32 | t.reg_base);
      out.push_back(uint64_t{t.fp} << 32 | t.sp);
      out.push_back(t.frames.size());
      out.insert(out.end(), t.regs.begin(), t.regs.end());
      const size_t n = t.local.bytes.size();
      out.push_back(n);
      for (size_t i = 0; i < n; i += 8) {
        uint64_t v = 0;
        std::memcpy(&v, t.local.bytes.data() + i, std::min<size_t>(8, n - i));
        out.push_back(v);
      }
    }
  };
  // Runs w to its next backward jump (kPollSpan steps at most), counting
  // them in q; false if it did not get there.
  auto to_back = [&](Warp& w, uint32_t& q) {
    const Thread* T = &w.cta->threads[w.first];
    for (uint32_t k = 0; k < kPollSpan && !stop_; ++k) {
      uint32_t before = 0, after = 0;
      if (!next_pc(w, T, before) || !step(w)) return false;
      ++q;
      if (!next_pc(w, T, after)) return false;
      if (after <= before) return true;
    }
    return false;
  };
  // The warp, which ran only own-state operations so far in its quantum,
  // comes back to its state at a backward jump at one of the next
  // kPollJumps backward jumps, still running only such operations.
  auto polls = [&](Warp& w, uint32_t& q) {
    if (!to_back(w, q)) return false;
    warp_state(w, poll_a);
    for (uint32_t j = 0; j < kPollJumps; ++j) {
      if (!to_back(w, q) || !spin_own_only_) return false;
      warp_state(w, poll_b);
      if (poll_a == poll_b) return true;
    }
    return false;
  };
  spin_watch_ = false;
  taint_on_ = false;
  if (!spin_) spin_ = std::make_shared<SpinState>();  // the clocks' skip lasts the launch
  spin_->per_cta = nthreads;
  SpinState& sst = *spin_;
  for (;;) {
    bool progress = false, live = false;
    const bool armed = spin_watch_;
    spin_own_only_ = true;
    for (auto& c : ctas) {
      for (auto& w : c->warps) {
        w.rest_ok = false;  // other warps ran: lanes of w may have become ready (exec.cpp step)
        uint32_t q = 0;
        // While spin detection watches, spin_own_only_ first follows this
        // warp's steps alone: a warp that ran only own-state operations for
        // kPollCheck steps since its latest other one, and then comes back
        // to the same state at a backward jump, polls memory it does not
        // write (its next iterations repeat until another thread writes):
        // it yields the rest of its quantum to the other warps (any
        // schedule is a permitted one; the round-robin stays fair).
        const bool round_own = spin_own_only_;
        bool warp_own = true;
        uint32_t clean_from = 0;  // q after the warp's latest step that was no own-state one
        bool polled = false;
        spin_own_only_ = true;
        sst.wait_failed = false;
        while (q < kQuantum && !stop_) {
          if (!step(w)) break;
          progress = true;
          ++q;
          // A converged warp whose mbarrier test_wait/try_wait found the
          // phase incomplete in every lane (SpinState::wait_failed) yields
          // the rest of its quantum. try_wait is potentially blocking: a
          // thread that finds the phase incomplete may be suspended until
          // it completes or a system-dependent time limit passes (PTX ISA
          // 9.7.13.15, mbarrier.test_wait/try_wait), and any schedule is a
          // permitted one. Without this, a warp polling a barrier that
          // other warps of its CTA must still arrive at spent its whole
          // quantum on polls (libcu++'s cuda::barrier wait loop counts its
          // tries and reads %globaltimer, so its state never repeats for
          // polls() below).
          if (sst.wait_failed) [[unlikely]] {
            sst.wait_failed = false;
            polled = true;
            break;
          }
          if (!spin_watch_) continue;
          if (!spin_own_only_) {
            warp_own = false;
            spin_own_only_ = true;
            clean_from = q;
          } else if (q - clean_from == kPollCheck && polls(w, q)) {
            polled = true;
            break;
          }
        }
        spin_own_only_ = warp_own && spin_own_only_;
        if (q > kQuantum) q = kQuantum;
        // A diverged warp that used its whole quantum: the lanes at higher
        // PCs may be what its running group waits for (a lane spinning on a
        // flag a lane of its own warp sets later in the code, an intra-warp
        // lock). Independent thread scheduling lets them progress (PTX ISA
        // 3.2; CUDA programming guide, "Independent Thread Scheduling":
        // starvation-free algorithms), so they get a turn: the group at the
        // next PC above runs, for one instruction at least (on while it
        // runs group-only instructions, exec.cpp step's rest_ok), then the
        // least PC is picked again. Any such order is a permitted schedule.
        // (A diverged warp whose group polls gives them the turn too.)
        if ((q == kQuantum || polled) && !stop_ && !w.conv && yield_to_next(w, &c->threads[w.first]))
          for (q = 0; q < kQuantum && !stop_; ++q)
            if (!step(w)) break;
        // While spin detection watches and the round so far ran only
        // own-state operations, a warp that used its whole quantum runs on
        // to its next backward jump (a kQuantum more at most): the rounds
        // of a spinning cluster then end at the same few places of its
        // loops, so that its states can repeat (spin.hpp) however long an
        // iteration is (-G code polls through calls). Rounds that write
        // memory keep the plain quantum.
        spin_own_only_ = round_own && spin_own_only_;
        if (q == kQuantum && !stop_ && spin_watch_ && spin_own_only_) {
          const Thread* T = &c->threads[w.first];
          for (q = 0; q < kQuantum && !stop_; ++q) {
            uint32_t before = 0, after = 0;
            if (!next_pc(w, T, before) || !step(w) || !next_pc(w, T, after) || after <= before) break;
          }
        }
        if (stop_ || (par_ && par_poll())) return;
        for (uint32_t l = 0; l < w.nlanes; ++l)
          if (c->threads[w.first + l].st != TState::Exited) live = true;
      }
    }
    if (!live) return;
    if (!progress) {
      // A thread parked by an ExecHook (outcomes: a dropped spin, a path cut
      // by the loop bound) ends its cluster quietly: the hook has already
      // dropped or cut the path, and the clusters after it still run (their
      // writes feed the value sets of the other threads' choices).
      for (auto& c : ctas)
        for (auto& t : c->threads)
          if (t.st == TState::Parked) return;
      // Cluster barrier waiters are released when every live thread waits.
      for (auto& c : ctas) deadlock(*c);
      return;
    }
    spin_watch_ = hook_ == nullptr && ++spin.rounds >= kSpinArm;
    if (!armed) continue;
    const SpinWatch::Spin verdict = spin.round_end(*this, ctas, spin_own_only_);
    if (verdict != SpinWatch::Spin::No) {
      // It would spin until the step budget ends the launch: end it now, as
      // the budget would, and say why. The clusters of a non-cooperative
      // launch run one after another, so a later one cannot write what it
      // waits for.
      // Named after the first warp's running lane (one at the PC step()
      // runs next: the group's, or the least PC of its runnable lanes).
      const Cta* sc = nullptr;
      const Thread* st = nullptr;
      uint32_t at = 0;
      for (const auto& c : ctas)
        for (const Warp& w : c->warps) {
          const Thread* T = &c->threads[w.first];
          if (st || !next_pc(w, T, at)) continue;
          for (uint32_t l = 0; l < w.nlanes && !st; ++l)
            if (T[l].st == TState::Ready && (w.conv ? (w.group >> l & 1) != 0 : T[l].pc == at))
              sc = c.get(), st = &T[l];
        }
      if (!st) throw std::logic_error("a spinning cluster without a runnable thread");
      const uint64_t ncl[3] = {spec.grid[0] / cl_[0], spec.grid[1] / cl_[1], spec.grid[2] / cl_[2]};
      const bool later =
          !coop_ && (uint64_t{cid[2]} * ncl[1] + cid[1]) * ncl[0] + cid[0] + 1 < ncl[0] * ncl[1] * ncl[2];
      std::string msg = "CTA (" + std::to_string(sc->id[0]) + "," + std::to_string(sc->id[1]) + "," +
                        std::to_string(sc->id[2]) + ") spins without progress: " +
                        (verdict == SpinWatch::Spin::Repeats
                             ? "its threads came back to a state they had, writing no memory"
                             : "only clock readings change what its threads do, and the clocks advanced 2^62 "
                               "cycles while they waited, writing no memory");
      if (later)
        msg +=
            "; the CTAs of a non-cooperative launch run one cluster after another (CUDA guarantees no forward "
            "progress between them), so it cannot wait for a later CTA: if it does, make the launch cooperative "
            "(\"cooperative\": true in a launch spec, cudaLaunchCooperativeKernel in a program)";
      else
        msg += ", and nothing else can run (a livelock)";
      res.step_limit = true;
      // (A worker of a parallel run abandons it here; the launch then runs
      // from its start with its memory restored, parallel.cpp.)
      res.spin_without_effect = !effect_ && !par_;
      diag(DiagKind::StepLimit, true, *sc, *st, prog.code[at], msg);
      stop_ = true;
      return;
    }
  }
}

void Machine::run() {
  auto t0 = std::chrono::steady_clock::now();
  check_launch();
  setup_memory();
  if (coop_) {
    // The grid workspace a cooperative launch's kernel finds through
    // %envreg1:%envreg2: {wsSize, barrier} as cooperative groups declare it
    // (cooperative_groups/details/driver_abi.h, struct grid_workspace); the
    // barrier word starts at 0, wsSize holds the struct's size, 8 (cooperative
    // groups do not read it; our choice). Caller-owned memory gets it for the
    // launch only (~Machine). It sorts after every other allocation, so the
    // spec buffers keep their indices.
    std::vector<uint8_t> ws(8, 0);
    ws[0] = 8;
    if (!mem.add_global_at("grid workspace", kGridWorkspace, std::move(ws)))
      throw std::logic_error("the grid workspace address is taken");
    grid_ws_ = kGridWorkspace;
    ws_added_ = image_ != nullptr;
  }
  pc_hot_.assign(prog.code.size(), nullptr);
  std::array<uint32_t, 3> ncl{spec.grid[0] / cl_[0], spec.grid[1] / cl_[1], spec.grid[2] / cl_[2]};
  uint64_t nctas = uint64_t{spec.grid[0]} * spec.grid[1] * spec.grid[2];
  if (nctas > (1u << 22)) races.enabled = false;  // shadow state would not fit
  if (races.enabled) {
    races.cluster_of.assign(nctas, 0);
    races.nthreads = std::max(1u, spec.block[0] * spec.block[1] * spec.block[2]);
  }
  if (run_parallel()) {
    finish(t0);
    return;
  }
  if (res.schedule.empty()) res.schedule = coop_ ? "cooperative" : "sequential";
  if (coop_) {
    // A cooperative launch (CUDA programming guide, "Grid Synchronization":
    // its CTAs are guaranteed to be co-resident): all CTAs take turns in one
    // round-robin, in linear order, so a grid-wide barrier's spin-wait sees
    // every other CTA arrive. Each CTA is a cluster of one CTA.
    std::vector<std::array<uint32_t, 3>> ids;
    for (uint32_t z = 0; z < spec.grid[2]; ++z)
      for (uint32_t y = 0; y < spec.grid[1]; ++y)
        for (uint32_t x = 0; x < spec.grid[0]; ++x) ids.push_back({x, y, z});
    run_cluster(ids, {0, 0, 0});
    finish(t0);
    return;
  }
  for (uint32_t cz = 0; cz < ncl[2] && !stop_; ++cz)
    for (uint32_t cy = 0; cy < ncl[1] && !stop_; ++cy)
      for (uint32_t cx = 0; cx < ncl[0] && !stop_; ++cx) {
        std::vector<std::array<uint32_t, 3>> ids;
        for (uint32_t z = 0; z < cl_[2]; ++z)
          for (uint32_t y = 0; y < cl_[1]; ++y)
            for (uint32_t x = 0; x < cl_[0]; ++x) ids.push_back({cx * cl_[0] + x, cy * cl_[1] + y, cz * cl_[2] + z});
        run_cluster(ids, {cx, cy, cz});
      }
  finish(t0);
}

void Machine::finish(std::chrono::steady_clock::time_point t0) {
  // The machine's own memory ends with it: the buffers move out.
  for (size_t i = 0; i < spec.buffers.size() && !image_; ++i)
    res.buffers.push_back(std::move(mem.global(prog.globals.size() + i).bytes));
  res.thread_instructions = steps;
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

RunResult run_program(const Program& prog, const LaunchSpec& spec, const RunOptions& opt) {
  RunResult r;
  Machine m(prog, spec, opt, r);
  m.run();
  return r;
}

RunResult run_program_taking(const Program& prog, LaunchSpec& spec, const RunOptions& opt) {
  RunResult r;
  Machine m(prog, spec, opt, r);
  m.taken_ = &spec;
  m.run();
  return r;
}

RunResult run_program(const Program& prog, const LaunchSpec& spec, const RunOptions& opt, LaunchImage& image) {
  RunResult r;
  Machine m(prog, spec, opt, r, &image);
  m.run();
  return r;
}

RunResult run_program(const Program& prog, const LaunchSpec& spec, const RunOptions& opt, LaunchImage& image,
                      DeviceHeap& heap) {
  RunResult r;
  Machine m(prog, spec, opt, r, &image);
  m.heap_ = &heap;
  m.run();
  return r;
}

const char* diag_kind_name(DiagKind k) {
  static const char* const names[] = {
#define DIAG_KIND(id, spelling, cu, fatal) spelling,
#include "semantics/interp/diag_kinds.def"
#undef DIAG_KIND
  };
  return names[static_cast<size_t>(k)];
}

}  // namespace ptxcheck::interp
