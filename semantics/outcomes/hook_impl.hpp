// Internal to semantics/outcomes: the ExecHook that turns one replayed
// launch into events (explore.hpp explains the method; hook_records.hpp
// holds what it records).
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "semantics/outcomes/hook_records.hpp"

namespace ptxcheck::outcomes {

// The thread's own memory (ThreadRec::ldeps; hook_deps.cpp).
void local_read(const ThreadRec& r, uint64_t off, unsigned n, Deps& d);
void local_write(ThreadRec& r, uint64_t off, unsigned n, const Deps& d);

// hook_round.cpp (r2): the bits of the destination of `in` (a mov or an
// arithmetic instruction with sources s) that may differ when bits u[k] of
// source k may; nullopt when the result may depend on them otherwise.
std::optional<uint64_t> unknown_bits(const interp::Inst& in, const uint64_t* s, const uint64_t* u);
// Scopes, orders and clocks of grid counters and flags (hook_grid.cpp,
// hook_grid_sync.cpp).
namespace gridx {
inline bool wide(mm::Scope s) { return s == mm::Scope::GPU || s == mm::Scope::Sys; }
inline bool shared_key(uint64_t key) { return (key & interp::kHookSharedKey) != 0; }
inline bool releases(mm::Order o) { return o == mm::Order::Release || o == mm::Order::AcqRel || o == mm::Order::SC; }
inline bool acquires(mm::Order o) { return o == mm::Order::Acquire || o == mm::Order::AcqRel || o == mm::Order::SC; }
// (f4): a scope that includes a thread of CTA `b` for an operation by a
// thread of CTA `a` on the location at `key` (PTX ISA 8.5). Shared memory
// is accessed only by the threads of its CTA's cluster (5.1.7), so there
// .cluster scope includes both (a cluster's gather: ranks add to rank 0's
// counter with .cluster RMWs, rank 0 polls it); elsewhere a cluster scope
// across CTAs is not used (less synchronization is assumed, never more).
inline bool includes(mm::Scope s, int64_t a, int64_t b, uint64_t key) {
  return a == b || wide(s) || (shared_key(key) && s == mm::Scope::Cluster);
}
inline void join(std::vector<uint32_t>& into, const std::vector<uint32_t>& from) {
  if (into.size() < from.size()) into.resize(from.size(), 0);
  for (size_t k = 0; k < from.size(); ++k) into[k] = std::max(into[k], from[k]);
}
}  // namespace gridx

class Hook : public interp::ExecHook {
 public:
  Hook(Shared& sh, uint32_t nthreads);
  bool read(interp::Thread& t, const interp::Cta& c, const interp::HookAccess& a, uint64_t& v) override;
  bool write(interp::Thread& t, const interp::Cta& c, const interp::HookAccess& a, uint64_t v) override;
  bool fence(interp::Thread& t, const interp::Cta& c, const interp::Inst& in) override;
  bool barrier_arrive(interp::Thread& t, const interp::Cta& c, const interp::Inst& in, uint32_t id, int count,
                      bool waits) override;
  void barrier_complete(const interp::Cta& c, uint32_t id) override;
  bool cluster_arrive(interp::Thread& t, const interp::Cta& c, const interp::Inst& in) override;
  bool cluster_wait(interp::Thread& t, const interp::Cta& c, const interp::Inst& in) override;
  void cluster_complete() override;
  Jump back_jump(interp::Thread& t, const interp::Cta& c, uint32_t from, uint32_t to) override;
  void exited(interp::Thread& t, const interp::Cta& c) override;
  void warp_collective(const interp::Cta& c, uint32_t warp, uint32_t lanes, bool orders) override;
  uint32_t async_issue(interp::Thread& t, const interp::Cta& c, const interp::Inst& in, const interp::HookAccess& dst,
                       const interp::HookAccess& src) override;
  void async_done(interp::Thread& t, const interp::Cta& c, uint32_t id, bool waited, bool reads_only) override;
  void step(interp::Thread* lanes, const interp::Cta& c, const interp::Inst& in, uint32_t group,
            uint32_t exec) override;
  bool wants_steps() const override { return true; }
  bool rmw_wait(interp::Thread& t, const interp::Cta& c, const interp::HookAccess& a) override;
  // After the launch: false if a canonical location broke a condition
  // (hook_canon.cpp); it is then searched by choices, and the exploration
  // restarts.
  // `stopped`: an error stopped the launch.
  bool canon_check(bool stopped);
  // hook_latest.cpp (f): at the end of a launch (not stopped), a thread
  // waiting at a barrier may write a location read as latest: false
  // (restart).
  bool latest_check(bool stopped);
  // The .local offset instruction `in` accesses in thread `t`, if it is one
  // (hook_deps.cpp).
  static std::optional<uint64_t> local_off(const interp::Thread& t, const interp::Inst& in);

  // Outcome of the run, read by the explorer.
  bool restart = false;  // a deterministic location turned out to communicate
  bool killed = false;   // redundant or non-terminating path
  uint64_t cut = 0;      // threads parked by the loop bound
  uint64_t subsumed = 0;
  std::vector<ThreadRec> th;  // by Thread::gid
  // Barrier instances: event (gid, index) lists of the full-CTA check.
  std::map<uint32_t, bool> cta_partial;  // CTA uid -> some barrier instance lacked a live thread
  std::map<std::pair<uint32_t, uint32_t>, std::vector<uint64_t>> colls;  // as Result::Run::colls

 private:
  ThreadRec& rec(const interp::Thread& t, const interp::Cta& c);
  uint32_t choose(uint32_t n, uint32_t unit);
  bool ordered(const ThreadRec& b, uint32_t a_gid, uint32_t a_epoch) const;
  // `rmw`: commuting_rmw of the access (-1: none). `issued`: a cp.async's
  // access at its completion, ordered after what the thread's clock
  // `issued` at its issue covers (recorded at the thread's clock now, or
  // with `unordered` at an epoch no clock reaches: a bulk copy that
  // completes on an mbarrier, ordered before another thread's accesses
  // only through the mbarrier's waits, which make no clock joins here).
  bool det_access(ThreadRec& r, const interp::HookAccess& a, bool write, int64_t rmw = -1,
                  const std::vector<uint32_t>* issued = nullptr, bool unordered = false);
  // A deterministic access of thread r to bytes that a cp.async of its own
  // in flight writes (or reads, for a write): the copy may complete before
  // or after it (PTX ISA 8.9.1.1), so the bytes become communicating
  // (restart; false).
  bool async_conflict(ThreadRec& r, const interp::HookAccess& a, bool write);
  // A cp.async's access reaches communicating location `li`: its
  // canonical arrives and RMW chains (arguments about accesses in program
  // order) are turned off for it (restart; false) unless they are already.
  bool async_plain(int li);
  // `mem`: one of the copy's memory operations (Async::mem); else its
  // proxy fence or complete_tx.
  int push_async(ThreadRec& r, mm::Event e, const interp::Inst* in, uint32_t id, bool mem = true);
  bool async_read(ThreadRec& r, const interp::Cta& c, const interp::HookAccess& a, int li, uint64_t& v);
  // Makes the bytes of an asynchronous access communicating, without
  // canonical arrives and RMW chains (restart; false).
  bool async_promote(const interp::HookAccess& a);
  // The class of an atomic update that stays deterministic when it meets
  // an unordered update of the same class (Hook::det_access), or -1.
  int64_t commuting_rmw(const interp::Thread& t, const ThreadRec& r, const interp::HookAccess& a);
  // Register `slot` of thread t's frame `depth` (t.frames.size(): the
  // current one), written just before code index `q` of function `func`:
  // nothing reads its value (Shared::live_at), or only a store to a return
  // formal followed by the ret, whose caller discards it likewise (-O0
  // atomics: the atom's result passes up through the .param return values
  // of atomicAdd's wrappers).
  bool result_unused(const interp::Thread& t, uint32_t func, uint32_t q, uint32_t slot, size_t depth);
  int push(ThreadRec& r, mm::Event e, const interp::Inst* in);
  int comm_loc(const interp::HookAccess& a);
  // The element of the executing instruction this read or write is
  // (counted per thread since Hook::step), and its dependencies.
  unsigned element(ThreadRec& r, bool write);
  const Deps& addr_deps(const ThreadRec& r) const;
  void add_deps(ThreadRec& r, int id, const Deps& addr, const Deps* data);
  // Dependencies through the thread's own memory (Hook::step): the .local
  // offset instruction `in` accesses in thread `t`, if it is one; the call
  // sequence of a call and ret.
  void call_deps(ThreadRec& r, const interp::Thread& t, const interp::Inst& in);
  void ret_deps(ThreadRec& r, const interp::Thread& t);
  // Loop entries and pending first iterations (hook_loop.cpp): true if it
  // parked a lane (the instruction then runs later for the others).
  bool loop_step(interp::Thread* lanes, const interp::Cta& c, const interp::Inst& in, uint32_t group, uint32_t exec);
  // The thread's state now against arrival `x` at head `to`: the same, as
  // back_jump compares; with `diff`, the live .local bytes that differ are
  // listed there instead (their dependencies not compared).
  // `rw_used`: a register differs but was written first (hook_loop.cpp
  // (R)); `wbars`: the side effects are not compared (hook_warp.cpp).
  bool same_state(const ThreadRec& r, const interp::Thread& t, uint32_t to, const ThreadRec::Arrival& x,
                  std::vector<uint64_t>* diff, bool* rw_used = nullptr, bool wbars = false);
  void record(ThreadRec::Arrival& a, ThreadRec& r, const interp::Thread& t, uint32_t head);
  // Warps (hook_warp.cpp): the lanes of the .sync collectives r's lane took
  // part in since colls position `since` (their bar.warp.sync count in
  // `bars`); whether r's iteration since an arrival with `wcoll`, `ucoll`
  // is coupled to other lanes; the lanes of this backward jump whose
  // iterations are dropped together; the register watch of an instruction.
  uint32_t coupling(const ThreadRec& r, size_t since, uint64_t* bars) const;
  bool coupled(const ThreadRec& r, size_t wcoll, uint64_t ucoll) const;
  uint32_t warp_drop(uint32_t to);
  void rw_step(ThreadRec& r, const interp::Thread& t, const interp::Inst& in, bool runs);
  void drop_pend(ThreadRec& r);
  uint32_t pending_ = 0;                  // threads with ThreadRec::pend
  uint32_t watching_ = 0;                 // threads with ThreadRec::watch
  uint32_t pend_ready_ = 0;               // threads with ThreadRec::pend whose bytes are all written
  uint32_t rwatching_ = 0;                // threads with a live ThreadRec::rwatch
  interp::Thread* step_lanes_ = nullptr;  // the executing instruction's lanes and exec mask (hook_warp.cpp)
  uint32_t step_exec_ = 0, wdrop_ = 0;    // wdrop_: the lanes warp_drop parks at serial_ jump_serial_
  uint64_t jump_serial_ = ~0ull;
  // Canonical arrives (hook_canon.cpp): 1 the read half of an arrive
  // makes no choice, 0 it chooses, -1 stop (a broken condition: restart).
  int canon_arrive(ThreadRec& r, const interp::Thread& t, const interp::Cta& c, const interp::HookAccess& a, int li,
                   uint64_t v);
  bool canon_write(ThreadRec& r, const interp::HookAccess& a, int li, uint64_t v);
  void canon_read(ThreadRec& r, int li, uint64_t v, bool plain = false);
  bool canon_plain(const ThreadRec& r, int li) const;
  bool canon_fence(ThreadRec& r, const interp::Inst& in);
  bool canon_break(int li);
  // hook_wait.cpp (l): a write of `li` in this run that `r`'s clock covers.
  bool init_floor(const ThreadRec& r, int li) const;
  bool before_updates(const ThreadRec& r, int li) const;  // hook_wait.cpp (m)
  // An unrolled ld poll's candidates (wait_analysis.cpp, Shared::poll_unrolled).
  bool poll_cand(const interp::Thread& t, const interp::HookAccess& a, int li, std::vector<uint32_t>& cand);
  // Canonical waits: the indices of l.values a wait may read, if it is
  // reduced (false: every value).
  bool canon_wait(const ThreadRec& r, const interp::Thread& t, const interp::HookAccess& a, int li, uint64_t mv,
                  std::vector<uint32_t>& cand);
  // Blocking waits: 0 the wait is not one, 1 it reads the machine's value,
  // which completes its phase (with the clocks of the arrives joined where
  // it synchronizes with them), 2 it failed in the machine: no event, the
  // thread is parked at its next backward jump (spin_jump); -1 stop (a spinning thread polled another
  // wait: restart without blocking).
  int canon_block(ThreadRec& r, const interp::Thread& t, const interp::Cta& c, const interp::HookAccess& a, int li,
                  uint64_t& v);
  int canon_block_at(ThreadRec& r, const interp::Thread& t, const interp::Cta& c, const interp::HookAccess& a, int li,
                     uint64_t& v);
  Jump spin_jump(ThreadRec& r, interp::Thread& t, const interp::Cta& c);
  // Makes the threads parked at a blocking wait on a location written since
  // ready again (Hook::step, before the next instruction runs).
  void wake_blocked();
  // Canonical arrive states (the use check of condition (a)).
  void canon_step(interp::Thread* lanes, const interp::Inst& in, uint32_t exec);
  // RMW chains (hook_chain.cpp): a write of chain location `li` (the
  // write half of an update that rmw_wait let run, `upd`, or any other
  // write): false stops the launch when it breaks a condition; then the
  // location chooses values and the exploration restarts.
  bool chain_write(ThreadRec& r, int li, bool upd);
  // The read half of an atom.exch whose result register is dead (Hook::read:
  // it reads a write of any value).
  bool exch_any(const interp::Thread& t, const interp::HookAccess& a);
  // Lazy loads (hook_lazy.cpp): whether the load `a` of location `li` is
  // one (it then reads any value); its destination register taken; the
  // registers followed through instruction `in` (Hook::step), each use of
  // one marks its loads eager and restarts; lazy_cmp: a state comparison at
  // loop head `head` (Hook::record, Hook::same_state), true if it used one.
  bool lazy_load(const ThreadRec& r, const interp::HookAccess& a, int li);
  void lazy_dst(ThreadRec& r, const interp::Thread& t, const interp::Opnd* dst, uint32_t pc);
  void lazy_step(interp::Thread* lanes, const interp::Inst& in, uint32_t group, uint32_t exec);
  void lazy_use(const ThreadRec& r, const std::vector<uint32_t>& pcs);
  bool lazy_cmp(const ThreadRec& r, const interp::Thread& t, uint32_t head);
  std::set<int> lazy_locs_;  // locations a lazy load read in this run
  // An mbarrier operation accesses `li` (CommLoc::mbar); false (restart)
  // if a lazy load read it in this run.
  bool mbar_loc(int li);
  bool chain_break(int li);
  // After the launch (from canon_check): updates still waiting.
  bool chain_check(bool stopped);
  // A plain read of chain location `li` ordered after every write of it so
  // far in the run, after an update: it reads the machine's value
  // (hook_chain.cpp (d)).
  bool chain_tail(const ThreadRec& r, int li);
  // hook_latest.cpp: whether a plain read of `li` reads the machine's value;
  // after a write of `li`, false when the run must stop (restart).
  bool latest_read(const ThreadRec& r, const interp::HookAccess& a, int li, uint32_t pc);
  bool latest_write(const ThreadRec& r, const interp::HookAccess& a, int li);
  // CAS retry loops (hook_cas.cpp): whether the CAS about to read
  // location `li` is that of such a loop, come straight from its seed
  // load, whose compare value it then sets in `c` (cas_seeded); whether it
  // may read the machine's value as an update of chain location `li`
  // (rmw_wait); after its read of `v` there, false when the run must stop
  // (a broken condition: restart); the backward jump that ends its failed
  // iteration (nullopt: not one).
  bool cas_seeded(const ThreadRec& r, const interp::Thread& t, const interp::HookAccess& a, int li, uint64_t& c);
  bool cas_chain(const ThreadRec& r, const interp::Thread& t, const interp::HookAccess& a, int li);
  bool cas_read(ThreadRec& r, const interp::Thread& t, const interp::HookAccess& a, int li, uint64_t v);
  std::optional<Jump> cas_jump(ThreadRec& r, uint32_t from, uint32_t to);
  // Another thread that may still write location `li` from where it is
  // (not exited, not parked at location `li`, Shared::may_write): of CTA
  // `c`, or of the whole grid for a grid counter (hook_grid.cpp).
  bool other_writer(const interp::Thread& t, const interp::Cta& c, int li, uint32_t pc, bool shared, bool grid);
  // Grid counters (hook_grid.cpp). grid_write: a write of communicating
  // location `li` (false: stop, restart). grid_read: 1 a poll, its event
  // deferred; 0 not one; -1 stop. grid_flush: the deferred poll's event.
  // grid_jump: the back jump that ends a failed poll (nullopt: not one).
  // grid_step: parks lanes before a poll that wait for a later write.
  bool grid_write(ThreadRec& r, const interp::HookAccess& a, int li, uint64_t v);
  int grid_read(ThreadRec& r, const interp::Thread& t, const interp::Cta& c, const interp::HookAccess& a, int li,
                uint64_t& v);
  void grid_flush(ThreadRec& r);
  // hook_grid_sync.cpp: the poll or update at `pos` of grid counter `li`
  // synchronizes with the chain's release patterns ((g4), (t1));
  // grid_update: an update's read of communicating location `li` (a ticket
  // to note, or the read of a chain, `chain`: (t1)).
  void grid_sync(ThreadRec& r, int li, uint32_t pos, const interp::Inst& in);
  void grid_update(ThreadRec& r, const interp::Thread& t, const interp::HookAccess& a, int li, bool chain);
  std::optional<Jump> grid_jump(ThreadRec& r, interp::Thread& t, const interp::Cta& c, uint32_t from, uint32_t to);
  bool grid_step(interp::Thread* lanes, const interp::Cta& c, const interp::Inst& in, uint32_t exec);
  void grid_fence(ThreadRec& r, const interp::Inst& in);
  // The poll at code index `pc` fails (its loop goes back) when it reads
  // `v`, computed from t's registers (hook_poll.cpp); false: not known.
  // With `unk` (the bits of v that may differ) and tokens (hook_round.cpp
  // (r6)): it fails for every value those bits allow.
  bool poll_fails(const interp::Thread& t, uint32_t pc, uint64_t v, uint64_t unk = 0,
                  const std::vector<ThreadRec::RoundTok>* toks = nullptr);
  // The positions floor .. n (now of them, the latest first) offered to the
  // poll at `pc` of grid counter `li`: those not known to fail (hook_poll.cpp).
  std::vector<uint32_t> grid_offer(const interp::Thread& t, uint32_t pc, int li, uint32_t n, uint32_t now,
                                   uint32_t wait);
  bool grid_break(int li);
  // Rounds of a grid counter (hook_round.cpp): on for li; off (restart);
  // an update (false: stop); a token for in's destination; the position
  // the poll at pc reads (0: wait, -1: broke); a successful poll; the
  // tokens' uses; the run's rounds (r5).
  bool round_on(int li) const;
  bool round_break(int li);
  bool round_write(ThreadRec& r, const interp::Thread& t, const interp::HookAccess& a, int li, uint64_t v);
  void round_token(ThreadRec& r, const interp::Thread& t, const interp::Inst& in, int li, uint32_t w);
  int64_t round_poll(ThreadRec& r, const interp::Thread& t, uint32_t pc, int li, uint32_t n);
  void round_flush(int li, uint32_t gid);
  void round_fence(const ThreadRec& r);
  void round_step(interp::Thread* lanes, const interp::Inst& in, uint32_t exec);
  bool round_check();
  bool grid_on(int li) const;
  bool scope_covers(uint64_t key, mm::Scope s) const;                 // hook_grid.cpp (f6)
  bool only_updates_left(uint32_t u, const CommLoc& l);               // hook_grid.cpp (f6)
  void stuck_at(ThreadRec& r, const interp::Thread& t, uint32_t pc);  // hook_barrier.cpp
  bool grid_ready(const CommLoc& l) const;                            // a run may turn it into a grid counter or flag
  // (f): the least chain position a read by `r` may read: its floor, or a
  // later write ordered before it by the clocks (8.10.6 Causality 2).
  uint32_t grid_floor_of(const ThreadRec& r, int li);

  Shared& sh_;
  struct Shadow {
    int w_gid = -1;
    uint32_t w_epoch = 0;
    std::vector<std::pair<uint32_t, uint32_t>> reads;  // (gid, epoch)
    // Commuting updates since the latest other write (det_access).
    struct Rmw {
      uint32_t gid, epoch, cta, cluster;
      int64_t cls;
      uint64_t key;
      unsigned size;
      mm::Scope scope;
      // The update may end a release pattern (its thread ran a release
      // before it) / an acquire pattern may start with its read (an
      // acquire may follow it): Hook::det_access.
      bool rel, acq;
    };
    std::vector<Rmw> rmws;
  };
  std::unordered_map<uint64_t, Shadow> shadow_;
  struct Arr {
    uint32_t gid;
    bool waits;
    int event;
    std::vector<uint32_t> vc;
    bool sync_in = false;
  };
  std::map<std::pair<uint32_t, uint32_t>, std::vector<Arr>> bar_arr_;  // (cta uid, id)
  std::vector<Arr> cl_arr_;
  std::vector<std::pair<uint32_t, int>> cl_waits_;  // (gid, event) waiting for the phase's count
  int bar_inst_ = 0;
  // Cluster barrier phases (hook_barrier.cpp), numbered per cluster (by its
  // rank 0's uid; with PTXCHECK_OUTCOMES_NO_CLUSTER_UNITS over the grid, as
  // cluster 0): the cluster of the phase being gathered, the completed
  // phases of each cluster, and the arrivals and joined clocks of each
  // completed phase (by its location).
  uint32_t cl_now_ = 0;
  std::map<uint32_t, uint64_t> phases_done_;
  std::map<int, uint64_t> phase_total_;
  std::map<int, std::vector<uint32_t>> phase_join_;
  uint32_t nthreads_;
  uint64_t serial_ = 0;      // Hook::step calls: identifies the executing instruction
  uint32_t step_group_ = 0;  // the lanes of the executing instruction's group (rmw_wait)
  uint32_t tracking_ = 0;    // threads with ThreadRec::tracking
  uint32_t lazy_ = 0;        // threads with ThreadRec::lazy
  // Per canonical location in this run (hook_canon.cpp).
  struct CanonRun {
    uint32_t n = 0;                                    // canonical arrives
    uint64_t count = 0, last = 0;                      // their count; the value the latest wrote
    std::set<uint64_t> inter;                          // values the others wrote
    bool other_rmw = false;                            // an update that is not canonical
    std::vector<std::pair<uint32_t, uint32_t>> plain;  // plain writes (gid, epoch)
    std::vector<std::pair<uint32_t, uint64_t>> reads;  // other reads (gid, value)
    bool tok = false;                                  // an arrive's state is used as a wait's
    int phase = -1, phases = 0;                        // phase bit the arrives read; 2: they differ
    std::set<uint64_t> plain_vals;                     // values the plain writes wrote
    // Blocking waits: the clocks of the release arrives joined (a wait that
    // reads the value of the latest arrive synchronizes with each of them).
    std::vector<uint32_t> rel;
    // Phases (hook_canon.cpp (j)): the phase bit the pending arrive read;
    // phases completed in the machine's chain; per completed phase, the
    // value its last arrive wrote and `rel` after it.
    uint64_t rd_bit = 0;
    uint32_t done = 0;
    std::vector<uint64_t> bound;
    std::vector<std::vector<uint32_t>> rel_at;
    // (j5): the event value of the latest arrive and of each phase's last;
    // tag -> machine value of the positions after phase 0.
    uint64_t last_ev = 0;
    std::vector<uint64_t> bound_ev;
    std::map<uint64_t, uint64_t> untag;
    // Per arriving thread (gid): its arrives so far, the phase index and
    // bit of its latest, whether a blocking wait for that phase succeeded
    // since, and its clock and synchronizing reads just after it.
    struct Arriver {
      uint32_t arrives = 0, phase = 0;
      uint64_t bit = 0;
      bool waited = false;
      bool dropped = false;  // an arrive_drop of the thread ((a), (j))
      std::vector<uint32_t> vc;
      uint64_t sync_reads = 0;  // ThreadRec::sync_reads after the arrive ((j3))
      bool sync_in = false;
    };
    std::map<uint32_t, Arriver> arrivers;
    bool phased = true;  // (j) holds so far
    // (k): per phase, the successful blocking waits for it (gid, the
    // waiter's epoch then), and whether (j1) was met through one of
    // another thread.
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> waits_at;
    bool by_other = false, fence_later = false;  // (d2): a fence after a later phase's first arrive
    bool after_cross = false;                    // (k1): an arrive after a blocking wait on another location
    bool after_block = false;                    // an arrive by a thread after its blocking wait (on any location)
  };
  // The writes of each location in this run, (gid, epoch) (hook_wait.cpp (l)).
  std::map<int, std::vector<std::pair<uint32_t, uint32_t>>> writes_at_;
  bool relaxed_mbar_ = false;    // (k): a canonical arrive or blocking wait of this run is .relaxed
  std::set<int> waits_reduced_;  // locations whose waits dropped their failing values in this run
  std::set<int> waits_blocked_;  // locations with a blocking wait in this run
  std::vector<std::pair<int, uint64_t>> plain_reads_;  // (e2): waits taken as reading a plain write
  // Threads parked at a blocking wait on location `li` (spin_jump), and
  // whether some location was written since the latest wake_blocked.
  struct Blocked {
    interp::Thread* t;  // valid during the launch
    const interp::Cta* cta;
    uint32_t gid;
    int li;
    bool rmw = false;     // an update waiting for a write to read (rmw_wait)
    bool poll = false;    // a grid counter's poll waiting for a write (hook_grid.cpp)
    uint64_t since = 0;   // writes_ when it began to wait (rmw: a later write of li wakes it)
    bool narrow = false;  // a poll whose scope may not include a writer (hook_grid.cpp (f6))
  };
  std::vector<Blocked> blocked_;
  std::set<int> written_;
  uint64_t writes_ = 0;                            // writes of communicating locations so far
  std::unordered_map<int, uint64_t> loc_written_;  // location -> writes_ at its latest write
  uint32_t canon_toks_ = 0;                        // threads with ThreadRec::canon_tok
  std::map<int, CanonRun> canon_;
  // Per chain location in this run (hook_chain.cpp): the CTA of its
  // updates, and the (gid, epoch) of its updates and of its other writes.
  struct ChainRun {
    std::vector<std::pair<uint32_t, uint32_t>> upd, other, tail;  // tail: reads of the machine's value
    bool others_unordered = false;                                // two other writes not ordered
    int64_t cta = -1;                                             // of the run's writes (-2 several)
  };
  std::map<int, ChainRun> chain_;
  struct LatestRun {                             // hook_latest.cpp, per location in this run
    bool chained = true;                         // each write ordered after the earlier ones
    std::vector<std::array<uint32_t, 4>> reads;  // (gid, epoch, pc, poll: (f)) of the reads of the machine's value
  };
  std::map<int, LatestRun> latest_;
  // Per grid counter in this run (hook_grid.cpp): the values of its writes
  // in the machine's order (position k + 1: vals[k]) and the clock each
  // one's release pattern carries (empty: none).
  struct GridRun {
    std::vector<uint64_t> vals;
    std::vector<std::vector<uint32_t>> rel;
    // Per position too (hook_grid.cpp (f)): the writer and its epoch then,
    // its CTA, whether the write is an update (an atomic reading its
    // predecessor) and strong, its scope and that of its release pattern's
    // first operation.
    struct Pos {
      uint32_t gid = 0, ep = 0;
      int64_t cta = 0;
      bool upd = false, strong = false;
      mm::Scope scope = mm::Scope::Sys;
      std::vector<uint32_t> rel_wide;  // the clock of a release pattern of scope .gpu or wider (rel: any scope)
    };
    std::vector<Pos> pos;
    // (f2): the polls that read a value (gid, epoch then, value).
    std::vector<std::tuple<uint32_t, uint32_t, uint64_t>> reads;
  };
  std::map<int, GridRun> grid_;
  // Per grid counter under (g7) in this run (hook_round.cpp): the round and
  // increment of each position, the width, and per thread its updates so
  // far, the position of its latest and whether a poll succeeded since.
  struct RoundRun {
    std::vector<uint32_t> round;
    std::vector<uint64_t> inc;
    uint32_t w = 32;
    struct Thread {
      uint32_t n = 0, pos = 0;
      bool done = true;
    };
    std::map<uint32_t, Thread> threads;
  };
  std::map<int, RoundRun> round_;
  uint32_t round_toks_ = 0;               // threads with ThreadRec::round_tok
  std::vector<const interp::Cta*> ctas_;  // by uid, once seen (grid counters)
  uint32_t ctas_seen_ = 0;
  uint32_t polls_ = 0;         // threads with a deferred poll
  std::set<uint32_t> exited_;  // threads that exited (chain_check: polls waiting on several flags)
};

}  // namespace ptxcheck::outcomes
